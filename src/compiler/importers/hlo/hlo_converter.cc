#include "compiler/importers/hlo/hlo_converter.h"

#include <algorithm>
#include <optional>
#include <unordered_set>
#include <utility>

#include "compiler/importers/hlo/hlo_attributes.h"
#include "compiler/importers/hlo/hlo_types.h"

namespace plugrt::shlo::hlo {
namespace {

// Deeper nesting than this (calls inside fusions inside loop bodies ...)
// is refused rather than risking the stack on a hostile proto.
constexpr size_t kMaxComputationDepth = 128;

// Opcodes refused by name: host transfers and feeds have no HLO-proto
// path in the CPU backend yet; the async pairs are scheduling artefacts of
// optimized HLO.
bool IsRefusedByName(std::string_view opcode) {
  return opcode == "infeed" || opcode == "outfeed" || opcode == "send" || opcode == "recv" ||
         opcode == "send-done" || opcode == "recv-done";
}

// XLA's asynchronous pairs: `X-start` computes what X computes (`async-start`
// what its called computation does), and `X-done` gives that value. The
// start's own tuple (operands, result, contexts) never exists here, so only
// its done (or an async-update) may read it.
struct AsyncStart {
  std::string_view sync_opcode;
  int result_element;  // where the start's tuple keeps the result; -1: the shape is it
};
std::optional<AsyncStart> AsyncStartOf(std::string_view opcode) {
  if (opcode == "all-reduce-start") return AsyncStart{"all-reduce", -1};
  if (opcode == "all-gather-start") return AsyncStart{"all-gather", 1};
  if (opcode == "collective-permute-start") return AsyncStart{"collective-permute", 1};
  if (opcode == "copy-start") return AsyncStart{"copy", 0};
  if (opcode == "async-start") return AsyncStart{"call", 1};
  return std::nullopt;
}
// Whether `shape` is laid out row-major (or has no layout): a bitcast
// between two such shapes of the same element type is a reshape.
bool IsRowMajor(const xla::ShapeProto& shape) {
  if (!shape.has_layout() || shape.layout().minor_to_major_size() == 0) return true;
  const int rank = shape.dimensions_size();
  if (shape.layout().minor_to_major_size() != rank) return false;
  for (int i = 0; i < rank; ++i) {
    if (shape.layout().minor_to_major(i) != rank - 1 - i) return false;
  }
  return true;
}

bool IsAsyncDone(std::string_view opcode) {
  return opcode == "all-reduce-done" || opcode == "all-gather-done" ||
         opcode == "collective-permute-done" || opcode == "copy-done" ||
         opcode == "async-done" || opcode == "async-update";
}

// A value tree of `type`'s shape built from `leaves`, consumed from `*next`.
ValueTree TreeFromLeaves(const Type& type, const std::vector<Value*>& leaves, size_t* next) {
  if (!type.is_tuple()) return ValueTree::Leaf(leaves[(*next)++]);
  std::vector<ValueTree> elements;
  for (const Type& element : type.tuple_elements()) {
    elements.push_back(TreeFromLeaves(element, leaves, next));
  }
  return ValueTree::Tuple(std::move(elements));
}

// A function name from a computation name: MLIR symbols may hold any text,
// but plain ones keep printed programs readable.
std::string SymbolName(std::string_view name) {
  std::string out;
  for (char c : name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
    out += plain ? c : '_';
  }
  if (out.empty()) out = "computation";
  return out;
}

}  // namespace

ValueTree ValueTree::Leaf(Value* value) {
  ValueTree t;
  t.leaf = value;
  return t;
}

ValueTree ValueTree::Tuple(std::vector<ValueTree> elements) {
  ValueTree t;
  t.elements = std::move(elements);
  t.is_tuple = true;
  return t;
}

void ValueTree::Flatten(std::vector<Value*>* out) const {
  if (!is_tuple) {
    out->push_back(leaf);
    return;
  }
  for (const ValueTree& e : elements) e.Flatten(out);
}

std::vector<Value*> ValueTree::Leaves() const {
  std::vector<Value*> out;
  Flatten(&out);
  return out;
}

StatusOr<Value*> InstructionContext::Operand(size_t i) const {
  if (i >= operands.size()) {
    return InvalidArgument("operand ", i, " is missing (", operands.size(), " given)");
  }
  if (operands[i].is_tuple) return InvalidArgument("operand ", i, " is a tuple, not an array");
  return operands[i].leaf;
}

StatusOr<std::vector<Value*>> InstructionContext::ArrayOperands() const {
  std::vector<Value*> out;
  for (size_t i = 0; i < operands.size(); ++i) {
    PLUGRT_ASSIGN_OR_RETURN(Value * v, Operand(i));
    out.push_back(v);
  }
  return out;
}

Status InstructionContext::ExpectOperands(size_t count) const {
  if (operands.size() != count) {
    return InvalidArgument("takes ", count, " operands, has ", operands.size());
  }
  return OkStatus();
}

Status InstructionContext::ExpectCalled(int count) const {
  if (inst.called_computation_ids_size() != count) {
    return InvalidArgument("calls ", inst.called_computation_ids_size(), " computations, needs ",
                           count);
  }
  return OkStatus();
}

StatusOr<ValueTree> InstructionContext::Simple(const std::string& name,
                                               std::vector<NamedAttribute> attributes) const {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Value*> values, ArrayOperands());
  if (type.is_tuple()) return InvalidArgument("the shape must be an array, not a tuple");
  return ValueTree::Leaf(builder.Op(name, std::move(values), type, std::move(attributes)));
}

StatusOr<ValueTree> InstructionContext::ResultsAsTree(Operation* op) const {
  std::vector<Value*> leaves;
  for (auto& r : op->results) leaves.push_back(r.get());
  const size_t expected = FlattenType(type).size();
  if (leaves.size() != expected) {
    return InvalidArgument(op->name, " has ", leaves.size(), " results but the shape ",
                           type.ToString(), " has ", expected, " leaves");
  }
  size_t next = 0;
  return TreeFromLeaves(type, leaves, &next);
}

HloConverter::HloConverter(const xla::HloModuleProto& proto, std::string_view file_name)
    : proto_(proto), file_(std::make_shared<const std::string>(file_name)) {}

const xla::HloComputationProto* HloConverter::FindComputation(int64_t id) const {
  auto it = computations_.find(id);
  return it == computations_.end() ? nullptr : it->second;
}

Location HloConverter::LocationOf(const xla::HloInstructionProto& inst) const {
  Location loc;
  loc.file = file_;
  SourceLocationRef user;
  const xla::OpMetadata& m = inst.metadata();
  if (!m.source_file().empty()) {
    user = SourceLocation::FileLineCol(m.source_file(), m.source_line(), m.source_column(),
                                       m.source_end_line(), m.source_end_column());
  }
  if (!m.op_name().empty()) user = SourceLocation::Name(m.op_name(), user);
  // The instruction's own name leads, so messages say which one failed.
  loc.source = SourceLocation::Name(inst.name(), user);
  return loc;
}

StatusOr<std::vector<Type>> HloConverter::ParameterTypes(
    const xla::HloComputationProto& computation) const {
  std::vector<const xla::HloInstructionProto*> params;
  for (const auto& inst : computation.instructions()) {
    if (inst.opcode() != "parameter") continue;
    const int64_t n = inst.parameter_number();
    if (n < 0 || n >= computation.instructions_size()) {
      return InvalidArgument("computation '", computation.name(), "': parameter number ", n,
                             " is out of range");
    }
    if (static_cast<size_t>(n) >= params.size()) params.resize(n + 1, nullptr);
    if (params[n] != nullptr) {
      return InvalidArgument("computation '", computation.name(), "': two parameters number ", n);
    }
    params[n] = &inst;
  }
  std::vector<Type> types;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i] == nullptr) {
      return InvalidArgument("computation '", computation.name(), "' has no parameter ", i);
    }
    StatusOr<Type> t = TypeOf(params[i]->shape());
    if (!t.ok()) {
      return Status(t.status().code(), StrCat("computation '", computation.name(), "', parameter ",
                                              i, ": ", t.status().message()));
    }
    types.push_back(*std::move(t));
  }
  return types;
}

void HloConverter::AttachRegions(Operation* op, std::vector<std::unique_ptr<Region>> regions) {
  for (auto& region : regions) {
    region->parent_op = op;
    op->regions.push_back(std::move(region));
  }
}

StatusOr<ValueTree> HloConverter::EmitComputation(int64_t computation_id,
                                                  const std::vector<ValueTree>& params,
                                                  Block* block) {
  const xla::HloComputationProto* comp = FindComputation(computation_id);
  if (comp == nullptr) return InvalidArgument("no computation has id ", computation_id);
  if (std::find(in_progress_.begin(), in_progress_.end(), computation_id) != in_progress_.end()) {
    return InvalidArgument("computation '", comp->name(), "' calls itself");
  }
  if (in_progress_.size() >= kMaxComputationDepth) {
    return InvalidArgument("computations nest deeper than ", kMaxComputationDepth);
  }
  in_progress_.push_back(computation_id);
  struct Pop {
    std::vector<int64_t>* v;
    ~Pop() { v->pop_back(); }
  } pop{&in_progress_};

  std::unordered_map<int64_t, ValueTree> values;
  std::unordered_map<int64_t, const xla::HloInstructionProto*> by_id;
  std::unordered_set<int64_t> async_starts;
  for (const xla::HloInstructionProto& inst : comp->instructions()) {
    by_id.emplace(inst.id(), &inst);
    std::vector<ValueTree> operands;
    operands.reserve(inst.operand_ids_size());
    for (int64_t id : inst.operand_ids()) {
      auto it = values.find(id);
      if (it == values.end()) {
        return InvalidArgument("computation '", comp->name(), "', instruction '", inst.name(),
                               "': operand id ", id, " is not an earlier instruction");
      }
      if (async_starts.count(id) && !IsAsyncDone(inst.opcode())) {
        return Unimplemented("computation '", comp->name(), "', instruction '", inst.name(),
                             "' (", inst.opcode(), ") reads an asynchronous start, which only "
                             "its done is supported to read");
      }
      operands.push_back(it->second);
    }
    if (AsyncStartOf(inst.opcode())) async_starts.insert(inst.id());
    // A bitcast keeps the bytes: between row-major shapes of one element
    // type (what XLA's layout assignment leaves in most dumps), a reshape.
    xla::HloInstructionProto reshape;
    const xla::HloInstructionProto* emitted = &inst;
    if (inst.opcode() == "bitcast" && inst.operand_ids_size() == 1) {
      const xla::HloInstructionProto* operand = by_id[inst.operand_ids(0)];
      if (!IsRowMajor(inst.shape()) || !IsRowMajor(operand->shape()) ||
          inst.shape().element_type() != operand->shape().element_type()) {
        return Unimplemented("computation '", comp->name(), "', instruction '", inst.name(),
                             "' (bitcast): a bitcast between other layouts or element types "
                             "than row-major ones of one type is not supported");
      }
      reshape = inst;
      reshape.set_opcode("reshape");
      emitted = &reshape;
    }
    StatusOr<ValueTree> value = EmitInstruction(*emitted, operands, params, block);
    if (!value.ok()) {
      const Status status = value.status();
      const std::string& message = status.message();
      // Errors of nested computations already say where they are.
      if (message.rfind("computation '", 0) == 0) return status;
      return Status(status.code(),
                    StrCat("computation '", comp->name(), "', instruction '", inst.name(), "' (",
                           inst.opcode(), "): ", message));
    }
    if (!values.emplace(inst.id(), *std::move(value)).second) {
      return InvalidArgument("computation '", comp->name(), "': two instructions have id ",
                             inst.id());
    }
  }
  auto root = values.find(comp->root_id());
  if (root == values.end()) {
    return InvalidArgument("computation '", comp->name(), "': root id ", comp->root_id(),
                           " names no instruction");
  }
  return root->second;
}

StatusOr<ValueTree> HloConverter::EmitInstruction(const xla::HloInstructionProto& inst,
                                                  const std::vector<ValueTree>& operands,
                                                  const std::vector<ValueTree>& params,
                                                  Block* block) {
  // (The caller's message names the computation and the instruction.)
  if (IsRefusedByName(inst.opcode())) {
    return Unimplemented("opcode '", inst.opcode(), "' is not supported by the HLO importer");
  }
  if (std::optional<AsyncStart> start = AsyncStartOf(inst.opcode())) {
    xla::HloInstructionProto sync = inst;
    sync.set_opcode(std::string(start->sync_opcode));
    if (start->result_element >= 0) {
      if (!inst.shape().tuple_shapes_size() ||
          inst.shape().tuple_shapes_size() <= start->result_element) {
        return InvalidArgument(inst.opcode(), " has shape without its result at tuple index ",
                               start->result_element);
      }
      *sync.mutable_shape() = inst.shape().tuple_shapes(start->result_element);
    }
    return EmitInstruction(sync, operands, params, block);
  }
  if (IsAsyncDone(inst.opcode())) {
    if (operands.size() != 1) {
      return InvalidArgument(inst.opcode(), " takes its start and nothing else; found ",
                             operands.size(), " operands");
    }
    if (inst.opcode() == "async-update") return operands[0];
    PLUGRT_ASSIGN_OR_RETURN(Type type, TypeOf(inst.shape()));
    const std::vector<Type> expected = FlattenType(type);
    const std::vector<Value*> leaves = operands[0].Leaves();
    bool same = expected.size() == leaves.size();
    for (size_t i = 0; same && i < leaves.size(); ++i) same = leaves[i]->type == expected[i];
    if (!same) {
      return InvalidArgument(inst.opcode(), " gives ", type.ToString(),
                             ", which is not what its start computes");
    }
    return operands[0];
  }
  PLUGRT_ASSIGN_OR_RETURN(Type type, TypeOf(inst.shape()));
  IrBuilder builder(block, LocationOf(inst));
  InstructionContext ctx{this, inst, operands, type, builder};
  const size_t first_new_op = block->operations.size();
  bool handled = false;
  PLUGRT_ASSIGN_OR_RETURN(ValueTree control, ConvertControl(ctx, params, &handled));
  if (handled) {
    AnnotateInstruction(inst, block, first_new_op);
    return control;
  }
  for (auto family : {ConvertElementwise, ConvertDataMovement, ConvertCompute, ConvertCollective}) {
    PLUGRT_ASSIGN_OR_RETURN(auto result, family(ctx));
    if (result.first == Handled::kYes) {
      AnnotateInstruction(inst, block, first_new_op);
      return std::move(result.second);
    }
  }
  return Unimplemented("opcode '", inst.opcode(), "' is not supported by the HLO importer");
}

void HloConverter::AnnotateInstruction(const xla::HloInstructionProto& inst, Block* block,
                                       size_t first_new_op) {
  // As XLA's HLO-to-MHLO import: on the op that gives the instruction's
  // value (the last one it became; none for tuples and parameters).
  if (block->operations.size() <= first_new_op) return;
  if (inst.opcode() == "parameter") return;  // the entry's: ApplyShardings
  Operation* op = block->operations.back().get();
  if (inst.has_sharding()) {
    op->attributes.emplace_back("mhlo.sharding", Attribute::String(ShardingText(inst.sharding())));
  }
  if (inst.has_frontend_attributes() && inst.frontend_attributes().map_size() > 0) {
    std::vector<std::pair<std::string, std::string>> sorted(
        inst.frontend_attributes().map().begin(), inst.frontend_attributes().map().end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<NamedAttribute> fields;
    for (auto& [key, value] : sorted) fields.emplace_back(key, Attribute::String(value));
    op->attributes.emplace_back("mhlo.frontend_attributes", Attribute::Dictionary(std::move(fields)));
  }
}

StatusOr<std::unique_ptr<Region>> HloConverter::BuildRegion(int64_t computation_id) {
  const xla::HloComputationProto* comp = FindComputation(computation_id);
  if (comp == nullptr) return InvalidArgument("no computation has id ", computation_id);
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Type> param_types, ParameterTypes(*comp));
  auto region = std::make_unique<Region>();
  auto block = std::make_unique<Block>();
  block->parent = region.get();
  std::vector<ValueTree> params;
  for (const Type& t : param_types) {
    std::vector<Value*> leaves;
    for (const Type& leaf : FlattenType(t)) leaves.push_back(IrBuilder::AddArgument(block.get(), leaf));
    size_t next = 0;
    params.push_back(TreeFromLeaves(t, leaves, &next));
  }
  return FinishRegion(computation_id, params, std::move(region), std::move(block));
}

StatusOr<std::unique_ptr<Region>> HloConverter::BuildCapturingRegion(
    int64_t computation_id, const std::vector<ValueTree>& params) {
  auto region = std::make_unique<Region>();
  auto block = std::make_unique<Block>();
  block->parent = region.get();
  return FinishRegion(computation_id, params, std::move(region), std::move(block));
}

StatusOr<std::unique_ptr<Region>> HloConverter::FinishRegion(int64_t computation_id,
                                                              const std::vector<ValueTree>& params,
                                                              std::unique_ptr<Region> region,
                                                              std::unique_ptr<Block> block) {
  PLUGRT_ASSIGN_OR_RETURN(ValueTree root, EmitComputation(computation_id, params, block.get()));
  Location loc;
  loc.file = file_;
  IrBuilder(block.get(), loc).Create("stablehlo.return", root.Leaves(), {});
  region->blocks.push_back(std::move(block));
  return region;
}

StatusOr<Function*> HloConverter::NewFunction(const xla::HloComputationProto& computation,
                                              bool is_entry, std::vector<Type>* param_types,
                                              Type* result_type) {
  PLUGRT_ASSIGN_OR_RETURN(*param_types, ParameterTypes(computation));
  const xla::HloInstructionProto* root = nullptr;
  for (const auto& inst : computation.instructions()) {
    if (inst.id() == computation.root_id()) root = &inst;
  }
  if (root == nullptr) {
    return InvalidArgument("computation '", computation.name(), "': root id ",
                           computation.root_id(), " names no instruction");
  }
  PLUGRT_ASSIGN_OR_RETURN(*result_type, TypeOf(root->shape()));
  auto f = std::make_unique<Function>();
  if (is_entry) {
    f->name = "main";
  } else {
    std::string base = SymbolName(computation.name());
    std::string name = base;
    for (int i = 1; name == "main" || function_names_.count(name) != 0; ++i) {
      name = StrCat(base, "_", i);
    }
    f->name = name;
  }
  function_names_.insert(f->name);
  f->is_public = is_entry;
  f->location.file = file_;
  for (const Type& t : *param_types) FlattenType(t, &f->input_types);
  FlattenType(*result_type, &f->result_types);
  f->arg_attributes.assign(f->input_types.size(), {});
  f->result_attributes.assign(f->result_types.size(), {});
  f->result_locations.assign(f->result_types.size(), nullptr);
  f->body = std::make_unique<Region>();
  auto block = std::make_unique<Block>();
  block->parent = f->body.get();
  std::vector<ValueTree> params;
  for (const Type& t : *param_types) {
    std::vector<Value*> leaves;
    for (const Type& leaf : FlattenType(t)) leaves.push_back(IrBuilder::AddArgument(block.get(), leaf));
    size_t next = 0;
    params.push_back(TreeFromLeaves(t, leaves, &next));
  }
  for (size_t i = 0; i < block->arguments.size(); ++i) {
    block->arguments[i]->name = StrCat("arg", i);
  }
  Block* raw_block = block.get();
  f->body->blocks.push_back(std::move(block));
  Function* raw = f.get();
  module_->functions.push_back(std::move(f));
  PLUGRT_ASSIGN_OR_RETURN(ValueTree value, EmitComputation(computation.id(), params, raw_block));
  IrBuilder(raw_block, raw->location).Create("func.return", value.Leaves(), {});
  return raw;
}

StatusOr<const Function*> HloConverter::FunctionFor(int64_t computation_id) {
  auto it = functions_.find(computation_id);
  if (it != functions_.end()) return it->second;
  const xla::HloComputationProto* comp = FindComputation(computation_id);
  if (comp == nullptr) return InvalidArgument("no computation has id ", computation_id);
  if (std::find(in_progress_.begin(), in_progress_.end(), computation_id) != in_progress_.end()) {
    return InvalidArgument("computation '", comp->name(), "' calls itself");
  }
  std::vector<Type> params;
  Type result;
  PLUGRT_ASSIGN_OR_RETURN(Function * f, NewFunction(*comp, false, &params, &result));
  functions_[computation_id] = f;
  return f;
}

Status HloConverter::ApplyAliasing(Function* main, const std::vector<Type>& param_types,
                                   const Type& result_type) {
  std::vector<int64_t> first_leaf;  // per parameter, its first flat input
  int64_t next = 0;
  for (const Type& t : param_types) {
    first_leaf.push_back(next);
    next += static_cast<int64_t>(FlattenType(t).size());
  }
  auto flat_input = [&](int64_t param, const auto& index) -> StatusOr<int64_t> {
    if (param < 0 || param >= static_cast<int64_t>(param_types.size())) {
      return InvalidArgument("aliasing names parameter ", param, " of ", param_types.size());
    }
    std::vector<int64_t> path(index.begin(), index.end());
    PLUGRT_ASSIGN_OR_RETURN(int64_t leaf, LeafIndex(param_types[param], path));
    return first_leaf[param] + leaf;
  };
  for (const auto& entry : proto_.input_output_alias().entries()) {
    PLUGRT_ASSIGN_OR_RETURN(int64_t input,
                            flat_input(entry.parameter_number(), entry.parameter_shape_index()));
    std::vector<int64_t> out_path(entry.output_shape_index().begin(),
                                  entry.output_shape_index().end());
    PLUGRT_ASSIGN_OR_RETURN(int64_t output, LeafIndex(result_type, out_path));
    auto& attrs = main->arg_attributes[input];
    if (FindAttribute(attrs, "tf.aliasing_output") != nullptr) {
      return InvalidArgument("input_output_alias: input ", input, " is aliased twice");
    }
    attrs.emplace_back("tf.aliasing_output",
                       Attribute::Integer(output, Type::Element(ElementType::kSI32)));
  }
  for (const auto& entry : proto_.buffer_donor().entries()) {
    PLUGRT_ASSIGN_OR_RETURN(int64_t input,
                            flat_input(entry.parameter_number(), entry.parameter_shape_index()));
    auto& attrs = main->arg_attributes[input];
    if (FindAttribute(attrs, "tf.aliasing_output") == nullptr &&
        FindAttribute(attrs, "jax.buffer_donor") == nullptr) {
      attrs.emplace_back("jax.buffer_donor", Attribute::Bool(true));
    }
  }
  return OkStatus();
}

// The entry's parameter and root shardings as `mhlo.sharding` on the
// flattened arguments and results (a tuple's sharding lists its leaves'),
// which the sharding lowering then checks against the partition count.
Status HloConverter::ApplyShardings(Function* main, const xla::HloComputationProto& entry,
                                    const std::vector<Type>& param_types, const Type& result_type) {
  auto apply = [](const xla::OpSharding& sharding, const Type& type, size_t first,
                  std::vector<std::vector<NamedAttribute>>* attrs) -> Status {
    const size_t leaves = FlattenType(type).size();
    if (first + leaves > attrs->size()) return InvalidArgument("sharding of more values than exist");
    const bool per_leaf = sharding.type() == xla::OpSharding::TUPLE;
    if (per_leaf && static_cast<size_t>(sharding.tuple_shardings_size()) != leaves) {
      return InvalidArgument("a tuple sharding of ", sharding.tuple_shardings_size(),
                             " elements for ", leaves, " values");
    }
    for (size_t i = 0; i < leaves; ++i) {
      const std::string text =
          ShardingText(per_leaf ? sharding.tuple_shardings(static_cast<int>(i)) : sharding);
      (*attrs)[first + i].emplace_back("mhlo.sharding", Attribute::String(text));
    }
    return OkStatus();
  };
  std::vector<size_t> first_leaf;
  size_t next = 0;
  for (const Type& t : param_types) {
    first_leaf.push_back(next);
    next += FlattenType(t).size();
  }
  for (const xla::HloInstructionProto& inst : entry.instructions()) {
    if (!inst.has_sharding()) continue;
    if (inst.opcode() == "parameter") {
      const int64_t n = inst.parameter_number();
      if (n < 0 || static_cast<size_t>(n) >= param_types.size()) continue;
      PLUGRT_RETURN_IF_ERROR(apply(inst.sharding(), param_types[n], first_leaf[n],
                                   &main->arg_attributes));
    }
    if (inst.id() == entry.root_id()) {
      PLUGRT_RETURN_IF_ERROR(apply(inst.sharding(), result_type, 0, &main->result_attributes));
    }
  }
  return OkStatus();
}

Status HloConverter::BuildEntry(const xla::HloComputationProto& entry) {
  std::vector<Type> params;
  Type result;
  PLUGRT_ASSIGN_OR_RETURN(Function * main, NewFunction(entry, true, &params, &result));
  PLUGRT_RETURN_IF_ERROR(ApplyShardings(main, entry, params, result));
  return ApplyAliasing(main, params, result);
}

StatusOr<std::unique_ptr<Module>> HloConverter::Convert(const xla::HloModuleConfigProto* config) {
  auto module = std::make_unique<Module>();
  module_ = module.get();
  module->name = proto_.name();
  module->location.file = file_;
  for (const auto& comp : proto_.computations()) {
    if (!computations_.emplace(comp.id(), &comp).second) {
      return InvalidArgument("hlo: two computations have id ", comp.id());
    }
  }
  const xla::HloComputationProto* entry = nullptr;
  if (proto_.entry_computation_id() != 0 || proto_.entry_computation_name().empty()) {
    entry = FindComputation(proto_.entry_computation_id());
  }
  if (entry == nullptr) {
    for (const auto& comp : proto_.computations()) {
      if (comp.name() == proto_.entry_computation_name()) entry = &comp;
    }
  }
  if (entry == nullptr) {
    return InvalidArgument("hlo: the module names no entry computation (id ",
                           proto_.entry_computation_id(), ", name '",
                           proto_.entry_computation_name(), "')");
  }
  // Other functions take names first so that none is called "main".
  function_names_.insert("main");
  PLUGRT_RETURN_IF_ERROR(BuildEntry(*entry));
  // @main first, as programs are usually written.
  std::stable_partition(module->functions.begin(), module->functions.end(),
                        [](const auto& f) { return f->name == "main"; });
  if (config != nullptr) {
    const auto i32 = Type::Element(ElementType::kSI32);
    if (config->replica_count() > 0) {
      module->attributes.emplace_back("mhlo.num_replicas",
                                      Attribute::Integer(config->replica_count(), i32));
    }
    if (config->num_partitions() > 0) {
      module->attributes.emplace_back("mhlo.num_partitions",
                                      Attribute::Integer(config->num_partitions(), i32));
    }
  }
  return module;
}

}  // namespace plugrt::shlo::hlo
