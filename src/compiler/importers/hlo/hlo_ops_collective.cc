// HLO importer: collectives, device ids, tokens and custom calls.
#include <utility>

#include "compiler/importers/hlo/hlo_attributes.h"
#include "compiler/importers/hlo/hlo_converter.h"
#include "compiler/importers/hlo/hlo_types.h"
#include "compiler/importers/mlir/parser.h"

namespace plugrt::shlo::hlo {
namespace {

using Attrs = std::vector<NamedAttribute>;

// replica_groups, channel_handle and use_global_device_ids, shared by the
// collectives.
StatusOr<Attrs> GroupAttributes(const xla::HloInstructionProto& inst, bool with_global_ids) {
  Attrs attrs;
  PLUGRT_ASSIGN_OR_RETURN(Attribute groups, ReplicaGroups(inst));
  attrs.emplace_back("replica_groups", std::move(groups));
  const int64_t channel = inst.channel_id() > 0 ? inst.channel_id() : inst.all_reduce_id();
  if (channel > 0) attrs.emplace_back("channel_handle", ChannelHandle(channel));
  if (with_global_ids && inst.use_global_device_ids()) {
    attrs.emplace_back("use_global_device_ids", Attribute::Unit());
  }
  return attrs;
}

// A collective over the leaves of its operands, with `regions` from the
// called computations (all-reduce's and reduce-scatter's reducer).
StatusOr<ValueTree> Collective(const InstructionContext& ctx, const std::string& name, Attrs attrs,
                               bool with_region) {
  std::vector<Value*> operands;
  for (const ValueTree& t : ctx.operands) t.Flatten(&operands);
  std::vector<std::unique_ptr<Region>> regions;
  if (with_region) {
    if (ctx.inst.called_computation_ids_size() != 1) {
      return InvalidArgument("needs one reduction computation");
    }
    PLUGRT_ASSIGN_OR_RETURN(auto region, ctx.converter->BuildRegion(ctx.inst.called_computation_ids(0)));
    regions.push_back(std::move(region));
  }
  Operation* op = ctx.builder.Create(name, std::move(operands), FlattenType(ctx.type),
                                     std::move(attrs));
  HloConverter::AttachRegions(op, std::move(regions));
  return ctx.ResultsAsTree(op);
}

StatusOr<ValueTree> CustomCall(const InstructionContext& ctx) {
  const xla::HloInstructionProto& inst = ctx.inst;
  if (inst.called_computation_ids_size() != 0) {
    return Unimplemented("custom-call '", inst.custom_call_target(),
                         "' with called computations is not supported");
  }
  for (const ValueTree& t : ctx.operands) {
    if (t.is_tuple) return Unimplemented("custom-call with a tuple operand");
  }
  for (const Type& t : ctx.type.is_tuple() ? ctx.type.tuple_elements() : std::vector<Type>{}) {
    if (t.is_tuple()) return Unimplemented("custom-call with nested tuple results");
  }
  Attrs attrs{{"call_target_name", Attribute::String(inst.custom_call_target())}};
  if (inst.custom_call_has_side_effect()) attrs.emplace_back("has_side_effect", Attribute::Bool(true));
  const int version = inst.custom_call_api_version();
  if (version == xla::API_VERSION_TYPED_FFI) {
    // Typed FFI calls carry their attributes as a dictionary, printed.
    if (!inst.backend_config().empty()) {
      StatusOr<Attribute> dict = ParseAttributeText(inst.backend_config());
      if (!dict.ok() || dict->kind != Attribute::Kind::kDictionary) {
        return InvalidArgument("custom-call '", inst.custom_call_target(),
                               "': the typed-FFI backend_config is not a dictionary");
      }
      attrs.emplace_back("backend_config", *std::move(dict));
    }
  } else if (!inst.backend_config().empty()) {
    attrs.emplace_back("backend_config", Attribute::String(inst.backend_config()));
  }
  if (version != xla::API_VERSION_UNSPECIFIED) {
    attrs.emplace_back("api_version", Attribute::Integer(version, Type::Element(ElementType::kSI32)));
  }
  if (inst.output_operand_aliasing_size() > 0) {
    std::vector<Attribute> aliases;
    for (const auto& a : inst.output_operand_aliasing()) {
      aliases.push_back(Attribute::Struct(
          "stablehlo.output_operand_alias",
          {{"output_tuple_indices", I64Array(a.output_shape_index())},
           {"operand_index", Attribute::Integer(a.operand_index())},
           {"operand_tuple_indices", I64Array(a.operand_shape_index())}}));
    }
    attrs.emplace_back("output_operand_aliases", Attribute::Array(std::move(aliases)));
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Value*> operands, ctx.ArrayOperands());
  Operation* op = ctx.builder.Create("stablehlo.custom_call", std::move(operands),
                                     FlattenType(ctx.type), std::move(attrs));
  return ctx.ResultsAsTree(op);
}

}  // namespace

FamilyResult ConvertCollective(const InstructionContext& ctx) {
  const xla::HloInstructionProto& inst = ctx.inst;
  const std::string& op = inst.opcode();
  auto yes = [](ValueTree t) { return std::make_pair(Handled::kYes, std::move(t)); };
  if (op == "custom-call") {
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, CustomCall(ctx));
    return yes(std::move(t));
  }
  if (op == "all-reduce") {
    PLUGRT_ASSIGN_OR_RETURN(Attrs attrs, GroupAttributes(inst, true));
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, Collective(ctx, "stablehlo.all_reduce", std::move(attrs), true));
    return yes(std::move(t));
  }
  if (op == "reduce-scatter") {
    if (inst.dimensions_size() != 1) return InvalidArgument("reduce-scatter needs one dimension");
    PLUGRT_ASSIGN_OR_RETURN(Attrs attrs, GroupAttributes(inst, true));
    attrs.emplace_back("scatter_dimension", Attribute::Integer(inst.dimensions(0)));
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, Collective(ctx, "stablehlo.reduce_scatter", std::move(attrs), true));
    return yes(std::move(t));
  }
  if (op == "all-gather") {
    if (inst.dimensions_size() != 1) return InvalidArgument("all-gather needs one dimension");
    PLUGRT_ASSIGN_OR_RETURN(Attrs attrs, GroupAttributes(inst, true));
    attrs.emplace_back("all_gather_dim", Attribute::Integer(inst.dimensions(0)));
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, Collective(ctx, "stablehlo.all_gather", std::move(attrs), false));
    return yes(std::move(t));
  }
  if (op == "all-to-all") {
    // The array form: split and concatenate along one dimension.
    if (inst.dimensions_size() != 1 || ctx.operands.size() != 1) {
      return Unimplemented("all-to-all of tuples (without a split dimension) is not supported");
    }
    PLUGRT_ASSIGN_OR_RETURN(Attrs attrs, GroupAttributes(inst, false));
    const Attribute& groups = attrs[0].second;
    const int64_t count = groups.type.dims()[1];
    if (count == 0) {
      return Unimplemented("all-to-all without replica groups: the split count is unknown");
    }
    attrs.emplace_back("split_dimension", Attribute::Integer(inst.dimensions(0)));
    attrs.emplace_back("concat_dimension", Attribute::Integer(inst.dimensions(0)));
    attrs.emplace_back("split_count", Attribute::Integer(count));
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, Collective(ctx, "stablehlo.all_to_all", std::move(attrs), false));
    return yes(std::move(t));
  }
  if (op == "collective-permute") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    std::vector<int64_t> pairs;
    for (const auto& p : inst.source_target_pairs()) {
      pairs.push_back(p.source());
      pairs.push_back(p.target());
    }
    Attrs attrs{{"source_target_pairs",
                 I64Matrix(pairs, inst.source_target_pairs_size(), 2)}};
    if (inst.channel_id() > 0) attrs.emplace_back("channel_handle", ChannelHandle(inst.channel_id()));
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, ctx.Simple("stablehlo.collective_permute", std::move(attrs)));
    return yes(std::move(t));
  }
  if (op == "collective-broadcast") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    PLUGRT_ASSIGN_OR_RETURN(Attrs attrs, GroupAttributes(inst, false));
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, ctx.Simple("stablehlo.collective_broadcast", std::move(attrs)));
    return yes(std::move(t));
  }
  if (op == "replica-id" || op == "partition-id") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(0));
    PLUGRT_ASSIGN_OR_RETURN(ValueTree t, ctx.Simple(op == "replica-id" ? "stablehlo.replica_id"
                                                                       : "stablehlo.partition_id"));
    return yes(std::move(t));
  }
  if (op == "after-all") {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Value*> tokens, ctx.ArrayOperands());
    const char* name = tokens.empty() ? "stablehlo.create_token" : "stablehlo.after_all";
    return yes(ValueTree::Leaf(ctx.builder.Op(name, std::move(tokens), Type::Token())));
  }
  return std::make_pair(Handled::kNotMine, ValueTree());
}

}  // namespace plugrt::shlo::hlo
