// HLO importer: instructions that move data without arithmetic: broadcast,
// reshape, transpose, slices, concatenate, pad, reverse, gather and
// get-dimension-size.
#include <utility>

#include "compiler/importers/hlo/hlo_attributes.h"
#include "compiler/importers/hlo/hlo_converter.h"

namespace plugrt::shlo::hlo {

FamilyResult ConvertDataMovement(const InstructionContext& ctx) {
  const xla::HloInstructionProto& inst = ctx.inst;
  const std::string& op = inst.opcode();
  std::string name;
  std::vector<NamedAttribute> attrs;
  if (op == "broadcast") {
    // HLO's broadcast maps operand dimension i to result dimension dims[i].
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    name = "stablehlo.broadcast_in_dim";
    attrs.emplace_back("broadcast_dimensions", I64Array(inst.dimensions()));
  } else if (op == "reshape") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    name = "stablehlo.reshape";
  } else if (op == "transpose") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    name = "stablehlo.transpose";
    attrs.emplace_back("permutation", I64Array(inst.dimensions()));
  } else if (op == "reverse") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    name = "stablehlo.reverse";
    attrs.emplace_back("dimensions", I64Array(inst.dimensions()));
  } else if (op == "slice") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    name = "stablehlo.slice";
    std::vector<int64_t> starts, limits, strides;
    for (const auto& d : inst.slice_dimensions()) {
      starts.push_back(d.start());
      limits.push_back(d.limit());
      strides.push_back(d.stride() == 0 ? 1 : d.stride());
    }
    attrs.emplace_back("start_indices", Attribute::DenseI64Array(starts));
    attrs.emplace_back("limit_indices", Attribute::DenseI64Array(limits));
    attrs.emplace_back("strides", Attribute::DenseI64Array(strides));
  } else if (op == "dynamic-slice") {
    // Operand, then one scalar start index per dimension, as in StableHLO.
    if (ctx.operands.empty()) return InvalidArgument("dynamic-slice without an operand");
    name = "stablehlo.dynamic_slice";
    attrs.emplace_back("slice_sizes", I64Array(inst.dynamic_slice_sizes()));
  } else if (op == "dynamic-update-slice") {
    if (ctx.operands.size() < 2) return InvalidArgument("dynamic-update-slice needs an update");
    name = "stablehlo.dynamic_update_slice";
  } else if (op == "concatenate") {
    if (inst.dimensions_size() != 1) return InvalidArgument("concatenate needs one dimension");
    name = "stablehlo.concatenate";
    attrs.emplace_back("dimension", Attribute::Integer(inst.dimensions(0)));
  } else if (op == "pad") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(2));
    name = "stablehlo.pad";
    std::vector<int64_t> low, high, interior;
    for (const auto& d : inst.padding_config().dimensions()) {
      low.push_back(d.edge_padding_low());
      high.push_back(d.edge_padding_high());
      interior.push_back(d.interior_padding());
    }
    attrs.emplace_back("edge_padding_low", Attribute::DenseI64Array(low));
    attrs.emplace_back("edge_padding_high", Attribute::DenseI64Array(high));
    attrs.emplace_back("interior_padding", Attribute::DenseI64Array(interior));
  } else if (op == "gather") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(2));
    name = "stablehlo.gather";
    const xla::GatherDimensionNumbers& g = inst.gather_dimension_numbers();
    std::vector<NamedAttribute> fields;
    AddNonEmpty(&fields, "offset_dims", ToVector(g.offset_dims()));
    AddNonEmpty(&fields, "collapsed_slice_dims", ToVector(g.collapsed_slice_dims()));
    AddNonEmpty(&fields, "operand_batching_dims", ToVector(g.operand_batching_dims()));
    AddNonEmpty(&fields, "start_indices_batching_dims", ToVector(g.start_indices_batching_dims()));
    AddNonEmpty(&fields, "start_index_map", ToVector(g.start_index_map()));
    fields.emplace_back("index_vector_dim", Attribute::Integer(g.index_vector_dim()));
    attrs.emplace_back("dimension_numbers", Attribute::Struct("stablehlo.gather", std::move(fields)));
    attrs.emplace_back("slice_sizes", I64Array(inst.gather_slice_sizes()));
    attrs.emplace_back("indices_are_sorted", Attribute::Bool(inst.indices_are_sorted()));
  } else if (op == "get-dimension-size") {
    PLUGRT_RETURN_IF_ERROR(ctx.ExpectOperands(1));
    if (inst.dimensions_size() != 1) return InvalidArgument("get-dimension-size needs one dimension");
    name = "stablehlo.get_dimension_size";
    attrs.emplace_back("dimension", Attribute::Integer(inst.dimensions(0)));
  } else {
    return std::make_pair(Handled::kNotMine, ValueTree());
  }
  PLUGRT_ASSIGN_OR_RETURN(ValueTree t, ctx.Simple(name, std::move(attrs)));
  return std::make_pair(Handled::kYes, std::move(t));
}

}  // namespace plugrt::shlo::hlo
