// plugrt passes: shape refinement (refine_shapes.h says what it does).
//
// Size: the walk over the entry function, the per-call cloning of private
// functions and the static forms of the dynamic ops all read and write one
// refinement state (known integer values, specialised functions, types in
// flight); the per-op shape rules are stablehlo/type_inference.cc and the integer
// evaluation shape_folding.cc.
#include "compiler/passes/refine_shapes.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

#include "compiler/passes/function_region.h"
#include "compiler/passes/ir_rewrite.h"
#include "compiler/passes/shape_folding.h"
#include "stablehlo/ir_builder.h"
#include "stablehlo/shape_rules.h"
#include "stablehlo/type_inference.h"

namespace plugrt::passes {
namespace {

using shlo::Attribute;
using shlo::Block;
using shlo::Function;
using shlo::kDynamicSize;
using shlo::Module;
using shlo::OpCode;
using shlo::Operation;
using shlo::Region;
using shlo::Type;
using shlo::Value;
using Dims = std::vector<int64_t>;

// Calls nested this deep are refused (StableHLO has no recursion; this
// bounds a malformed module).
constexpr int kMaxCallDepth = 64;

bool HasDynamicDims(const Type& type) {
  if (type.is_tuple()) {
    for (const Type& t : type.tuple_elements()) {
      if (HasDynamicDims(t)) return true;
    }
    return false;
  }
  return type.is_tensor() && !type.has_static_shape();
}

bool BlockHasDynamicTypes(const Block& block) {
  for (const auto& arg : block.arguments) {
    if (HasDynamicDims(arg->type)) return true;
  }
  for (const auto& op : block.operations) {
    for (const auto& result : op->results) {
      if (HasDynamicDims(result->type)) return true;
    }
    for (const auto& region : op->regions) {
      for (const auto& nested : region->blocks) {
        if (BlockHasDynamicTypes(*nested)) return true;
      }
    }
  }
  return false;
}

void SetAttr(Operation& op, const std::string& name, Attribute value) {
  for (shlo::NamedAttribute& attr : op.attributes) {
    if (attr.first == name) {
      attr.second = std::move(value);
      return;
    }
  }
  op.attributes.emplace_back(name, std::move(value));
}

void KeepOnlyAttrs(Operation& op, const std::set<std::string>& keep) {
  std::erase_if(op.attributes,
                [&](const shlo::NamedAttribute& attr) { return keep.count(attr.first) == 0; });
}

// Turns `op` into another op in place: results (and their uses) stay.
void Become(Operation& op, const std::string& name, size_t keep_operands) {
  op.name = name;
  op.code = shlo::LookupOpCode(name);
  op.operands.resize(std::min(keep_operands, op.operands.size()));
}

// An [n, 2] i64 tensor attribute (convolution / reduce_window padding).
Attribute PairsAttr(const Dims& flat) {
  return MakeDenseInts(
      Type::Tensor(shlo::ElementType::kSI64, {static_cast<int64_t>(flat.size() / 2), 2}), flat);
}

std::string CallTarget(const Operation& op) {
  const Attribute* target = op.attribute("call_target_name");
  return target != nullptr && target->kind == Attribute::Kind::kString ? target->str : "";
}

// Every symbol an attribute names (nested in arrays and dictionaries too).
void CollectSymbols(const Attribute& attr, std::vector<std::string>& out) {
  if (attr.kind == Attribute::Kind::kSymbolRef) out.push_back(attr.str);
  for (const Attribute& element : attr.elements) CollectSymbols(element, out);
  for (const shlo::NamedAttribute& field : attr.fields) CollectSymbols(field.second, out);
}

void RenameSymbols(Attribute& attr, const std::map<std::string, std::string>& renames) {
  if (attr.kind == Attribute::Kind::kSymbolRef) {
    auto it = renames.find(attr.str);
    if (it != renames.end()) attr.str = it->second;
  }
  for (Attribute& element : attr.elements) RenameSymbols(element, renames);
  for (shlo::NamedAttribute& field : attr.fields) RenameSymbols(field.second, renames);
}

template <typename Visit>
void ForEachOp(Block& block, Visit visit) {
  for (auto& op : block.operations) {
    visit(*op);
    for (auto& region : op->regions) {
      for (auto& nested : region->blocks) ForEachOp(*nested, visit);
    }
  }
}

class Refiner {
 public:
  explicit Refiner(Module& module) : module_(module) {}

  Status RefineEntry(Function& entry, const EntryRefinement& refinement) {
    if (entry.body == nullptr || entry.body->blocks.empty()) {
      return InvalidArgument("the entry function @", entry.name, " has no body");
    }
    Block& block = entry.body->front();
    if (refinement.argument_types.size() != entry.input_types.size() ||
        block.arguments.size() != entry.input_types.size()) {
      return InvalidArgument("the program takes ", entry.input_types.size(),
                             " arguments; shapes were given for ",
                             refinement.argument_types.size());
    }
    for (size_t i = 0; i < entry.input_types.size(); ++i) {
      const Type& declared = entry.input_types[i];
      const Type& given = refinement.argument_types[i];
      if (!Refines(given, declared) || HasDynamicDims(given)) {
        return InvalidArgument("argument ", i, ": the program's parameter is ",
                               declared.ToString(), " but the argument is ", given.ToString());
      }
      entry.input_types[i] = given;
      block.arguments[i]->type = given;
      if (i < refinement.argument_values.size() && refinement.argument_values[i] &&
          IsFoldableType(given) && given.rank() == 0) {
        known_[block.arguments[i].get()] =
            IntValues{NormalizeInt(given.element_type(), *refinement.argument_values[i])};
      }
    }
    PLUGRT_RETURN_IF_ERROR(RefineBody(entry));
    PLUGRT_RETURN_IF_ERROR(DropUnreachable(entry));
    return OkStatus();
  }

 private:
  // `given` can stand for `declared`: same kind and element type, same
  // rank, equal static dims.
  static bool Refines(const Type& given, const Type& declared) {
    if (given.kind() != declared.kind()) return false;
    if (declared.is_tuple()) {
      if (given.tuple_elements().size() != declared.tuple_elements().size()) return false;
      for (size_t i = 0; i < given.tuple_elements().size(); ++i) {
        if (!Refines(given.tuple_elements()[i], declared.tuple_elements()[i])) return false;
      }
      return true;
    }
    if (!declared.is_tensor()) return given == declared;
    if (given.element_type() != declared.element_type() || given.rank() != declared.rank()) {
      return false;
    }
    for (size_t d = 0; d < given.dims().size(); ++d) {
      if (declared.dims()[d] != kDynamicSize && declared.dims()[d] != given.dims()[d]) return false;
    }
    return true;
  }

  const IntValues* KnownOf(const Value* value) const {
    auto it = known_.find(value);
    return it == known_.end() ? nullptr : &it->second;
  }

  // The values of a shape operand, which must be known by now.
  StatusOr<Dims> ShapeOperand(const Operation& op, size_t index, std::string_view what) const {
    if (index >= op.operands.size()) {
      return InvalidArgument(Where(op), ": missing its ", what, " operand");
    }
    const IntValues* values = KnownOf(op.operands[index]);
    if (values == nullptr) {
      return InvalidArgument(Where(op), ": its ", what,
                             " operand does not evaluate to a constant once the argument shapes "
                             "and dimension values are known (it depends on tensor data)");
    }
    return *values;
  }

  // Gives result `r` the refined type, refusing one that contradicts the
  // declared type.
  Status SetResultType(Operation& op, size_t r, const Type& refined) {
    Value* result = op.results[r].get();
    if (!Refines(refined, result->type)) {
      return InvalidArgument(Where(op), ": the argument shapes give result #", r, " the type ",
                             refined.ToString(), ", which contradicts its declared type ",
                             result->type.ToString());
    }
    result->type = refined;
    return OkStatus();
  }

  Status SetResultDims(Operation& op, size_t r, const Dims& dims) {
    const Type& declared = op.results[r]->type;
    for (int64_t d : dims) {
      if (d < 0) {
        return InvalidArgument(Where(op), ": the argument shapes give result #", r,
                               " a negative dimension size ", d);
      }
    }
    return SetResultType(op, r, Type::Tensor(declared.element_type(), dims));
  }

  Status RequireStaticResults(const Operation& op) const {
    for (size_t r = 0; r < op.results.size(); ++r) {
      const Type& type = op.results[r]->type;
      if (type.is_tensor()) {
        for (int64_t d : type.dims()) {
          if (d < 0 && d != kDynamicSize) {
            return InvalidArgument(Where(op), ": the argument shapes give result #", r,
                                   " a negative dimension size (", d, ")");
          }
        }
      }
      if (HasDynamicDims(op.results[r]->type)) {
        return Unimplemented(Where(op), ": cannot refine result #", r, " (",
                             op.results[r]->type.ToString(),
                             ") from its operands' shapes; shape refinement has no rule that "
                             "gives it");
      }
    }
    return OkStatus();
  }

  Status RefineBody(Function& function) {
    if (function.body == nullptr || function.body->blocks.empty()) return OkStatus();
    Region* saved = body_;
    body_ = function.body.get();
    Block& block = function.body->front();
    PLUGRT_RETURN_IF_ERROR(RefineBlock(block));
    body_ = saved;
    // The results follow the return's operands.
    if (block.operations.empty()) return OkStatus();
    const Operation& terminator = *block.operations.back();
    if (terminator.operands.size() != function.result_types.size()) {
      return InvalidArgument("@", function.name, " returns ", terminator.operands.size(),
                             " values but declares ", function.result_types.size(), " results");
    }
    for (size_t i = 0; i < function.result_types.size(); ++i) {
      const Type& refined = terminator.operands[i]->type;
      if (!Refines(refined, function.result_types[i])) {
        return InvalidArgument("@", function.name, ": the argument shapes give result #", i,
                               " the type ", refined.ToString(),
                               ", which contradicts its declared type ",
                               function.result_types[i].ToString());
      }
      function.result_types[i] = refined;
    }
    return OkStatus();
  }

  Status RefineBlock(Block& block) {
    std::vector<const Operation*> erased;
    for (size_t i = 0; i < block.operations.size(); ++i) {
      Operation& op = *block.operations[i];
      bool erase = false;
      PLUGRT_RETURN_IF_ERROR(RefineOp(op, &erase));
      if (erase) erased.push_back(&op);
    }
    std::erase_if(block.operations, [&](const std::unique_ptr<Operation>& op) {
      return std::find(erased.begin(), erased.end(), op.get()) != erased.end();
    });
    return OkStatus();
  }

  Status RefineRegions(Operation& op) {
    for (auto& region : op.regions) {
      for (auto& block : region->blocks) PLUGRT_RETURN_IF_ERROR(RefineBlock(*block));
    }
    return OkStatus();
  }

  Status RefineOp(Operation& op, bool* erase) {
    switch (op.code) {
      case OpCode::kFuncCall:
        PLUGRT_RETURN_IF_ERROR(RefineCall(op, "callee"));
        break;
      case OpCode::kComposite:
        PLUGRT_RETURN_IF_ERROR(RefineCall(op, "decomposition"));
        break;
      case OpCode::kWhile:
        PLUGRT_RETURN_IF_ERROR(RefineWhile(op));
        break;
      case OpCode::kCase:
      case OpCode::kIf:
        PLUGRT_RETURN_IF_ERROR(RefineBranches(op));
        break;
      case OpCode::kCustomCall:
        PLUGRT_RETURN_IF_ERROR(RefineCustomCall(op, erase));
        if (*erase) return OkStatus();
        break;
      case OpCode::kSetDimensionSize:
        return RefineSetDimensionSize(op, erase);
      default:
        PLUGRT_RETURN_IF_ERROR(RefineRegions(op));
        PLUGRT_RETURN_IF_ERROR(ToStaticForm(op));
        break;
    }
    if (op.code != OpCode::kCustomCall) {
      std::vector<Type> inferred = shlo::InferResultTypes(op);
      for (size_t r = 0; r < inferred.size(); ++r) {
        if (inferred[r] != op.results[r]->type) {
          PLUGRT_RETURN_IF_ERROR(SetResultType(op, r, inferred[r]));
        }
      }
    }
    PLUGRT_RETURN_IF_ERROR(RequireStaticResults(op));
    Fold(op);
    return OkStatus();
  }

  // Records the value of an integer op whose operands are known, and turns
  // it into a constant (iota stays: it is cheaper than its literal).
  void Fold(Operation& op) {
    if (!shlo::MayFold(op.code) || op.results.size() != 1 || !op.regions.empty()) return;
    std::vector<const IntValues*> operands;
    for (const Value* operand : op.operands) operands.push_back(KnownOf(operand));
    std::optional<IntValues> value = FoldIntOp(op, operands);
    if (!value) return;
    if (op.code != OpCode::kConstant && op.code != OpCode::kIota) {
      Become(op, "stablehlo.constant", 0);
      op.attributes = {{"value", MakeDenseInts(op.results[0]->type, *value)}};
    }
    known_[op.results[0].get()] = std::move(*value);
  }

  // --- dynamic ops --------------------------------------------------------

  Status ToStaticForm(Operation& op) {
    switch (op.code) {
      case OpCode::kDynamicBroadcastInDim: {
        PLUGRT_ASSIGN_OR_RETURN(Dims shape, ShapeOperand(op, 1, "output_dimensions"));
        const Dims& in = op.operands[0]->type.dims();
        const Attribute* map_attr = op.attribute("broadcast_dimensions");
        StatusOr<Dims> map = map_attr != nullptr ? shlo::AttrToIntList(*map_attr)
                                                 : StatusOr<Dims>(Dims{});
        if (!map.ok() || map->size() != in.size()) {
          return InvalidArgument(Where(op), ": broadcast_dimensions must name one result dim "
                                            "per operand dim");
        }
        for (size_t i = 0; i < in.size(); ++i) {
          const int64_t d = (*map)[i];
          if (d < 0 || d >= static_cast<int64_t>(shape.size()) ||
              (in[i] != 1 && in[i] != shape[d])) {
            return InvalidArgument(Where(op), ": the operand ", op.operands[0]->type.ToString(),
                                   " does not broadcast to the output shape ",
                                   Type::Tensor(op.operands[0]->type.element_type(), shape)
                                       .ToString());
          }
        }
        PLUGRT_RETURN_IF_ERROR(SetResultDims(op, 0, shape));
        Become(op, "stablehlo.broadcast_in_dim", 1);
        KeepOnlyAttrs(op, {"broadcast_dimensions"});
        return OkStatus();
      }
      case OpCode::kDynamicReshape: {
        PLUGRT_ASSIGN_OR_RETURN(Dims shape, ShapeOperand(op, 1, "output_shape"));
        const Type& in = op.operands[0]->type;
        int64_t count = 1;
        bool overflow = false;
        for (int64_t d : shape) overflow = overflow || d < 0 || __builtin_mul_overflow(count, d, &count);
        if (overflow || (in.has_static_shape() && count != in.num_elements())) {
          return InvalidArgument(Where(op), ": cannot reshape ", in.ToString(), " (",
                                 in.num_elements(), " elements) to ",
                                 Type::Tensor(in.element_type(), shape).ToString());
        }
        PLUGRT_RETURN_IF_ERROR(SetResultDims(op, 0, shape));
        Become(op, "stablehlo.reshape", 1);
        op.attributes.clear();
        return OkStatus();
      }
      case OpCode::kDynamicIota: {
        PLUGRT_ASSIGN_OR_RETURN(Dims shape, ShapeOperand(op, 0, "output_shape"));
        PLUGRT_RETURN_IF_ERROR(SetResultDims(op, 0, shape));
        Become(op, "stablehlo.iota", 0);
        KeepOnlyAttrs(op, {"iota_dimension"});
        return OkStatus();
      }
      case OpCode::kDynamicPad: {
        PLUGRT_ASSIGN_OR_RETURN(Dims low, ShapeOperand(op, 2, "edge_padding_low"));
        PLUGRT_ASSIGN_OR_RETURN(Dims high, ShapeOperand(op, 3, "edge_padding_high"));
        PLUGRT_ASSIGN_OR_RETURN(Dims interior, ShapeOperand(op, 4, "interior_padding"));
        Become(op, "stablehlo.pad", 2);
        op.attributes = {{"edge_padding_low", Attribute::DenseI64Array(low)},
                         {"edge_padding_high", Attribute::DenseI64Array(high)},
                         {"interior_padding", Attribute::DenseI64Array(interior)}};
        return OkStatus();
      }
      case OpCode::kDynamicGather: {
        PLUGRT_ASSIGN_OR_RETURN(Dims sizes, ShapeOperand(op, 2, "slice_sizes"));
        Become(op, "stablehlo.gather", 2);
        SetAttr(op, "slice_sizes", Attribute::DenseI64Array(sizes));
        return OkStatus();
      }
      case OpCode::kDynamicConv: {
        PLUGRT_ASSIGN_OR_RETURN(Dims padding, ShapeOperand(op, 2, "padding"));
        Become(op, "stablehlo.convolution", 2);
        SetAttr(op, "padding", PairsAttr(padding));
        return OkStatus();
      }
      case OpCode::kRealDynamicSlice: {
        if (KnownOf(op.operands[1]) == nullptr) return DataDependentSlice(op);
        PLUGRT_ASSIGN_OR_RETURN(Dims start, ShapeOperand(op, 1, "start_indices"));
        PLUGRT_ASSIGN_OR_RETURN(Dims limit, ShapeOperand(op, 2, "limit_indices"));
        PLUGRT_ASSIGN_OR_RETURN(Dims strides, ShapeOperand(op, 3, "strides"));
        const Dims& in = op.operands[0]->type.dims();
        if (start.size() != in.size() || limit.size() != in.size() ||
            strides.size() != in.size()) {
          return InvalidArgument(Where(op), ": start, limit and strides need one entry per "
                                            "operand dim");
        }
        for (size_t i = 0; i < in.size(); ++i) {
          if (start[i] < 0 || start[i] > limit[i] || limit[i] > in[i] || strides[i] <= 0) {
            return InvalidArgument(Where(op), ": slice [", start[i], ", ", limit[i], ") step ",
                                   strides[i], " of dim ", i, " does not fit the operand ",
                                   op.operands[0]->type.ToString());
          }
        }
        Become(op, "stablehlo.slice", 1);
        op.attributes = {{"start_indices", Attribute::DenseI64Array(start)},
                         {"limit_indices", Attribute::DenseI64Array(limit)},
                         {"strides", Attribute::DenseI64Array(strides)}};
        return OkStatus();
      }
      case OpCode::kRng: {
        // rng is static in form but takes its shape as an operand.
        if (!HasDynamicDims(op.results[0]->type)) return OkStatus();
        PLUGRT_ASSIGN_OR_RETURN(Dims shape, ShapeOperand(op, 2, "shape"));
        return SetResultDims(op, 0, shape);
      }
      case OpCode::kGetDimensionSize: {
        const Type& in = op.operands[0]->type;
        const Attribute* dim_attr = op.attribute("dimension");
        StatusOr<int64_t> dim = dim_attr != nullptr ? shlo::AttrToInt(*dim_attr)
                                                    : StatusOr<int64_t>(InvalidArgument(""));
        if (!dim.ok() || *dim < 0 || *dim >= in.rank() || in.dims()[*dim] == kDynamicSize) {
          return InvalidArgument(Where(op), ": no static size for its dimension of ",
                                 in.ToString());
        }
        const Type& result = op.results[0]->type;
        if (!IsFoldableType(result)) {
          return InvalidArgument(Where(op), ": result must be an integer scalar, not ",
                                 result.ToString());
        }
        Become(op, "stablehlo.constant", 0);
        op.attributes = {{"value", MakeDenseInts(result, {NormalizeInt(result.element_type(),
                                                                       in.dims()[*dim])})}};
        return OkStatus();
      }
      default:
        return OkStatus();
    }
  }

  // Whether `a` and `b` compute the same value: the same value, or the same
  // pure op (name, attributes, types) over operands that do, recursively.
  static bool SameValue(const Value* a, const Value* b, int depth = 0) {
    if (a == b) return true;
    if (depth > 16 || a->defining_op == nullptr || b->defining_op == nullptr ||
        a->index != b->index || a->type != b->type) {
      return false;
    }
    const Operation& x = *a->defining_op;
    const Operation& y = *b->defining_op;
    if (x.name != y.name || !shlo::MayFold(x.code) || !x.regions.empty() || !y.regions.empty() ||
        x.operands.size() != y.operands.size() || x.attributes.size() != y.attributes.size()) {
      return false;
    }
    for (size_t i = 0; i < x.attributes.size(); ++i) {
      if (x.attributes[i].first != y.attributes[i].first ||
          !(x.attributes[i].second == y.attributes[i].second)) {
        return false;
      }
    }
    for (size_t i = 0; i < x.operands.size(); ++i) {
      if (!SameValue(x.operands[i], y.operands[i], depth + 1)) return false;
    }
    return true;
  }

  // real_dynamic_slice whose start depends on data but whose size does not
  // (limit = start + C, unit strides), as JAX writes lax.dynamic_slice:
  // dynamic_slice with slice_sizes C, one scalar start per dim.
  Status DataDependentSlice(Operation& op) {
    const Value* limit = op.operands[2];
    const IntValues* strides = KnownOf(op.operands[3]);
    const Operation* add = limit->defining_op;
    const IntValues* sizes = nullptr;
    if (add != nullptr && add->code == OpCode::kAdd && add->operands.size() == 2) {
      for (size_t side = 0; side < 2 && sizes == nullptr; ++side) {
        if (SameValue(add->operands[side], op.operands[1])) sizes = KnownOf(add->operands[1 - side]);
      }
    }
    const Dims& in = op.operands[0]->type.dims();
    if (sizes == nullptr || strides == nullptr || sizes->size() != in.size() ||
        std::any_of(strides->begin(), strides->end(), [](int64_t s) { return s != 1; })) {
      return InvalidArgument(Where(op), ": its start_indices operand depends on tensor data and "
                                        "its limit_indices are not start_indices plus a constant "
                                        "with unit strides, so the result shape is unknown");
    }
    for (size_t i = 0; i < in.size(); ++i) {
      if ((*sizes)[i] < 0 || (*sizes)[i] > in[i]) {
        return InvalidArgument(Where(op), ": slice size ", (*sizes)[i], " of dim ", i,
                               " does not fit the operand ", op.operands[0]->type.ToString());
      }
    }
    Value* start = op.operands[1];
    const shlo::ElementType index_type = start->type.element_type();
    shlo::IrBuilder builder(&op);
    std::vector<Value*> operands{op.operands[0]};
    for (size_t i = 0; i < in.size(); ++i) {
      const auto at = static_cast<int64_t>(i);
      Value* one = builder.Op("stablehlo.slice", {start}, Type::Tensor(index_type, {1}),
                              {{"start_indices", Attribute::DenseI64Array({at})},
                               {"limit_indices", Attribute::DenseI64Array({at + 1})},
                               {"strides", Attribute::DenseI64Array({1})}});
      operands.push_back(builder.Op("stablehlo.reshape", {one}, Type::Scalar(index_type)));
    }
    op.operands = std::move(operands);
    op.name = "stablehlo.dynamic_slice";
    op.code = OpCode::kDynamicSlice;
    op.attributes = {{"slice_sizes", Attribute::DenseI64Array(*sizes)}};
    return SetResultDims(op, 0, *sizes);
  }

  Status RefineSetDimensionSize(Operation& op, bool* erase) {
    PLUGRT_RETURN_IF_ERROR(RefineRegions(op));
    PLUGRT_ASSIGN_OR_RETURN(Dims size, ShapeOperand(op, 1, "size"));
    const Type& in = op.operands[0]->type;
    const Attribute* dim_attr = op.attribute("dimension");
    StatusOr<int64_t> dim = dim_attr != nullptr ? shlo::AttrToInt(*dim_attr)
                                                : StatusOr<int64_t>(InvalidArgument(""));
    if (size.size() != 1 || !dim.ok() || *dim < 0 || *dim >= in.rank()) {
      return InvalidArgument(Where(op), ": needs a scalar size and a dimension of the operand");
    }
    if (in.dims()[*dim] != size[0]) {
      return Unimplemented(Where(op), ": sets dim ", *dim, " of ", in.ToString(), " to ", size[0],
                           "; a size below the static one (bounded dynamism) is not supported");
    }
    PLUGRT_RETURN_IF_ERROR(SetResultType(op, 0, in));
    shlo::ReplaceAllUsesWith(*body_, op.results[0].get(), op.operands[0]);
    *erase = true;
    return OkStatus();
  }

  // --- custom calls ---------------------------------------------------------

  Status RefineCustomCall(Operation& op, bool* erase) {
    const std::string target = CallTarget(op);
    PLUGRT_RETURN_IF_ERROR(RefineRegions(op));
    PLUGRT_RETURN_IF_ERROR(ResultShapeOperands(op));
    if (target == "shape_assertion") {
      PLUGRT_RETURN_IF_ERROR(CheckShapeAssertion(op));
      *erase = true;
      return OkStatus();
    }
    if (target == "stablehlo.dynamic_reduce_window") return DynamicReduceWindow(op);
    if (target == "stablehlo.dynamic_rng_bit_generator") {
      PLUGRT_ASSIGN_OR_RETURN(Dims shape, ShapeOperand(op, 1, "output_shape"));
      if (op.results.size() != 2) {
        return InvalidArgument(Where(op), ": ", target, " has two results");
      }
      Attribute algorithm = Attribute::Enum("stablehlo.rng_algorithm", "DEFAULT");
      if (const Attribute* a = op.attribute("rng_algorithm")) algorithm = *a;
      if (const Attribute* dict = op.attribute("mhlo.attributes")) {
        if (const Attribute* a = dict->field("rng_algorithm")) algorithm = *a;
      }
      PLUGRT_RETURN_IF_ERROR(SetResultDims(op, 1, shape));
      PLUGRT_RETURN_IF_ERROR(SetResultType(op, 0, op.operands[0]->type));
      Become(op, "stablehlo.rng_bit_generator", 1);
      op.attributes = {{"rng_algorithm", algorithm}};
      return OkStatus();
    }
    if (target == "stablehlo.dynamic_top_k") {
      PLUGRT_ASSIGN_OR_RETURN(Dims k, ShapeOperand(op, 1, "k"));
      const Type& in = op.operands[0]->type;
      if (k.size() != 1 || in.rank() < 1 || op.results.size() != 2 || k[0] < 0 ||
          k[0] > in.dims().back()) {
        return InvalidArgument(Where(op), ": k must be a scalar in [0, ", 
                               in.rank() < 1 ? 0 : in.dims().back(), "] for ", in.ToString());
      }
      Dims dims = in.dims();
      dims.back() = k[0];
      PLUGRT_RETURN_IF_ERROR(SetResultDims(op, 0, dims));
      PLUGRT_RETURN_IF_ERROR(SetResultDims(op, 1, dims));
      Become(op, "chlo.top_k", 1);
      op.attributes = {{"k", Attribute::Integer(k[0])}};
      return OkStatus();
    }
    if (target == "stablehlo.dynamic_approx_top_k") return DynamicApproxTopK(op);
    return OkStatus();
  }

  // JAX's custom calls with dynamic results pass each result's shape as an
  // extra operand, listed in indices_of_shape_operands: those give the
  // results' dims, then go (the static call has no use for them).
  Status ResultShapeOperands(Operation& op) {
    const Attribute* attr = op.attribute("indices_of_shape_operands");
    if (attr == nullptr) return OkStatus();
    StatusOr<Dims> indices = shlo::AttrToIntList(*attr);
    if (!indices.ok() || indices->size() != op.results.size()) {
      return InvalidArgument(Where(op), ": indices_of_shape_operands must list one operand per "
                                        "result");
    }
    std::vector<bool> drop(op.operands.size(), false);
    for (size_t r = 0; r < indices->size(); ++r) {
      const int64_t index = (*indices)[r];
      if (index < 0 || static_cast<size_t>(index) >= op.operands.size() || drop[index]) {
        return InvalidArgument(Where(op), ": indices_of_shape_operands names operand ", index,
                               " of ", op.operands.size());
      }
      PLUGRT_ASSIGN_OR_RETURN(Dims shape, ShapeOperand(op, static_cast<size_t>(index),
                                                       StrCat("result #", r, " shape")));
      if (op.results[r]->type.is_tensor() &&
          static_cast<int64_t>(shape.size()) == op.results[r]->type.rank()) {
        PLUGRT_RETURN_IF_ERROR(SetResultDims(op, r, shape));
      }
      drop[index] = true;
    }
    std::vector<Value*> kept;
    for (size_t i = 0; i < op.operands.size(); ++i) {
      if (!drop[i]) kept.push_back(op.operands[i]);
    }
    op.operands = std::move(kept);
    std::erase_if(op.attributes, [](const shlo::NamedAttribute& a) {
      return a.first == "indices_of_shape_operands";
    });
    return OkStatus();
  }

  Status CheckShapeAssertion(const Operation& op) {
    if (op.operands.empty()) {
      return InvalidArgument(Where(op), ": shape_assertion needs a predicate operand");
    }
    const IntValues* predicate = KnownOf(op.operands[0]);
    if (predicate == nullptr || predicate->size() != 1) {
      return InvalidArgument(Where(op), ": the shape_assertion predicate does not evaluate to a "
                                        "constant from the argument shapes");
    }
    if ((*predicate)[0] != 0) return OkStatus();
    std::string message = "shape assertion failed";
    if (const Attribute* text = op.attribute("error_message");
        text != nullptr && text->kind == Attribute::Kind::kString) {
      message = FormatAssertion(op, text->str);
    }
    return InvalidArgument(message);
  }

  // error_message with each {N} replaced by the value of operand N + 1.
  std::string FormatAssertion(const Operation& op, const std::string& text) const {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '{') {
        const size_t close = text.find('}', i);
        if (close != std::string::npos && close > i + 1 && close - i <= 8 &&
            std::all_of(text.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                        text.begin() + static_cast<std::ptrdiff_t>(close),
                        [](char c) { return c >= '0' && c <= '9'; })) {
          const size_t index = std::stoul(text.substr(i + 1, close - i - 1)) + 1;
          const IntValues* value = index < op.operands.size() ? KnownOf(op.operands[index]) : nullptr;
          if (value != nullptr && value->size() == 1) {
            out += std::to_string((*value)[0]);
            i = close;
            continue;
          }
        }
      }
      out += text[i];
    }
    return out;
  }

  Status DynamicReduceWindow(Operation& op) {
    const size_t total = op.operands.size();
    if (total < 7 || (total - 5) % 2 != 0 || op.results.size() != (total - 5) / 2) {
      return InvalidArgument(Where(op), ": stablehlo.dynamic_reduce_window takes N inputs, N "
                                        "init values and 5 window operands, with N results");
    }
    const size_t n = (total - 5) / 2;
    PLUGRT_ASSIGN_OR_RETURN(Dims window, ShapeOperand(op, total - 5, "window_dimensions"));
    PLUGRT_ASSIGN_OR_RETURN(Dims strides, ShapeOperand(op, total - 4, "window_strides"));
    PLUGRT_ASSIGN_OR_RETURN(Dims base, ShapeOperand(op, total - 3, "base_dilations"));
    PLUGRT_ASSIGN_OR_RETURN(Dims dilations, ShapeOperand(op, total - 2, "window_dilations"));
    PLUGRT_ASSIGN_OR_RETURN(Dims padding, ShapeOperand(op, total - 1, "padding"));
    PLUGRT_ASSIGN_OR_RETURN(const Function* body, CalledFunction(module_, op));
    if (body->input_types.size() != 2 * n) {
      return InvalidArgument(Where(op), ": the body @", body->name, " must take ", 2 * n,
                             " scalars");
    }
    // The schedule TPU, the one platform that had this custom call, gives it
    // (JAX's expected values record it): each element is first combined
    // with the init values, then the window is reduced one dimension at a
    // time, last to first, each level folding from the init values. With
    // init values that are identities of the body this is the usual
    // one-pass result; with others the spec leaves the result to the
    // schedule, and this one is the custom call's.
    const Type& input = op.operands[0]->type;
    const size_t rank = static_cast<size_t>(input.rank());
    if (!input.is_tensor() || !input.has_static_shape() || window.size() != rank ||
        strides.size() != rank || base.size() != rank || dilations.size() != rank ||
        padding.size() != 2 * rank) {
      return InvalidArgument(Where(op), ": the window operands must have one entry per input "
                                        "dimension (padding two) and the inputs a static shape");
    }
    // The window of one level: dimension `d`'s part of the whole (d < 0: one
    // element).
    auto level = [&](int64_t d) {
      shlo::shape::Window w{Dims(rank, 1), Dims(rank, 1), Dims(rank, 1), Dims(rank, 1),
                            Dims(2 * rank, 0)};
      if (d >= 0) {
        w.dimensions[d] = window[d];
        w.strides[d] = strides[d];
        w.base_dilations[d] = base[d];
        w.window_dilations[d] = dilations[d];
        w.padding[2 * d] = padding[2 * d];
        w.padding[2 * d + 1] = padding[2 * d + 1];
      }
      return w;
    };
    auto attributes = [&](const shlo::shape::Window& w) -> std::vector<shlo::NamedAttribute> {
      return {{"window_dimensions", Attribute::DenseI64Array(w.dimensions)},
              {"window_strides", Attribute::DenseI64Array(w.strides)},
              {"base_dilations", Attribute::DenseI64Array(w.base_dilations)},
              {"window_dilations", Attribute::DenseI64Array(w.window_dilations)},
              {"padding", PairsAttr(w.padding)}};
    };
    std::vector<Value*> current(op.operands.begin(), op.operands.begin() + n);
    const std::vector<Value*> inits(op.operands.begin() + n, op.operands.begin() + 2 * n);
    shlo::IrBuilder b(&op);
    // Levels before the last one (none for a 0-d input): new
    // reduce_windows ahead of `op`.
    std::vector<int64_t> levels;
    if (rank > 0) levels.push_back(-1);
    for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 1; --d) levels.push_back(d);
    for (int64_t d : levels) {
      const shlo::shape::Window w = level(d);
      std::vector<Type> types;
      for (const Value* v : current) {
        types.push_back(
            Type::Tensor(v->type.element_type(), shlo::shape::ReduceWindow(v->type.dims(), w)));
      }
      std::vector<Value*> operands = current;
      operands.insert(operands.end(), inits.begin(), inits.end());
      Operation* step = b.Create("stablehlo.reduce_window", std::move(operands), types, attributes(w));
      PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Region> region, RegionFromFunction(*body, step));
      step->regions.push_back(std::move(region));
      PLUGRT_RETURN_IF_ERROR(RefineRegions(*step));
      current.clear();
      for (const auto& result : step->results) current.push_back(result.get());
    }
    // The last level (dimension 0, or the whole window of a 0-d input) is `op`.
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Region> region, RegionFromFunction(*body, &op));
    Become(op, "stablehlo.reduce_window", 2 * n);
    for (size_t i = 0; i < n; ++i) op.operands[i] = current[i];
    op.attributes = attributes(rank == 0 ? level(-1) : level(0));
    op.regions.clear();
    op.regions.push_back(std::move(region));
    return RefineRegions(op);
  }

  Status DynamicApproxTopK(Operation& op) {
    const size_t total = op.operands.size();
    if (total < 3 || (total - 1) % 2 != 0 || op.results.size() != (total - 1) / 2) {
      return InvalidArgument(Where(op), ": stablehlo.dynamic_approx_top_k takes N inputs, N "
                                        "init values and k, with N results");
    }
    PLUGRT_ASSIGN_OR_RETURN(Dims k, ShapeOperand(op, total - 1, "k"));
    const Attribute* config = op.attribute("mhlo.backend_config");
    if (config == nullptr || config->kind != Attribute::Kind::kDictionary || k.size() != 1) {
      return InvalidArgument(Where(op), ": needs a dictionary mhlo.backend_config and a scalar k");
    }
    const Attribute* dim_attr = config->field("reduction_dim");
    StatusOr<int64_t> dim = dim_attr != nullptr ? shlo::AttrToInt(*dim_attr)
                                                : StatusOr<int64_t>(InvalidArgument(""));
    const Type& in = op.operands[0]->type;
    if (!dim.ok() || *dim < 0 || *dim >= in.rank()) {
      return InvalidArgument(Where(op), ": mhlo.backend_config needs a reduction_dim in the "
                                        "inputs' rank");
    }
    const Attribute* aggregate = config->field("aggregate_to_topk");
    StatusOr<bool> aggregates = aggregate != nullptr ? shlo::AttrToBool(*aggregate)
                                                     : StatusOr<bool>(true);
    if (!aggregates.ok() || !*aggregates) {
      return Unimplemented(Where(op), ": approx_top_k without aggregate_to_topk has an "
                                      "implementation-defined result size");
    }
    Dims dims = in.dims();
    dims[*dim] = k[0];
    for (size_t r = 0; r < op.results.size(); ++r) PLUGRT_RETURN_IF_ERROR(SetResultDims(op, r, dims));
    Attribute new_config = *config;
    new_config.fields.emplace_back("top_k", Attribute::Integer(k[0]));
    Become(op, "stablehlo.custom_call", total - 1);
    SetAttr(op, "call_target_name", Attribute::String("ApproxTopK"));
    SetAttr(op, "mhlo.backend_config", std::move(new_config));
    return OkStatus();
  }

  // --- control flow and calls ------------------------------------------------

  Status RefineWhile(Operation& op) {
    if (op.regions.size() != 2 || op.results.size() != op.operands.size()) {
      return InvalidArgument(Where(op), ": while has a cond and a body region and one result "
                                        "per operand");
    }
    for (auto& region : op.regions) {
      if (region->blocks.empty()) continue;
      Block& block = region->front();
      if (block.arguments.size() != op.operands.size()) {
        return InvalidArgument(Where(op), ": its regions take one argument per operand");
      }
      for (size_t i = 0; i < op.operands.size(); ++i) {
        const Type& given = op.operands[i]->type;
        if (!Refines(given, block.arguments[i]->type)) {
          return InvalidArgument(Where(op), ": operand #", i, " has type ", given.ToString(),
                                 ", which contradicts the loop's ",
                                 block.arguments[i]->type.ToString());
        }
        block.arguments[i]->type = given;
      }
    }
    PLUGRT_RETURN_IF_ERROR(RefineRegions(op));
    Block& body = op.regions[1]->front();
    if (!body.operations.empty()) {
      const Operation& ret = *body.operations.back();
      for (size_t i = 0; i < ret.operands.size() && i < op.operands.size(); ++i) {
        if (ret.operands[i]->type != op.operands[i]->type) {
          return Unimplemented(Where(op), ": the loop body turns carried value #", i, " from ",
                               op.operands[i]->type.ToString(), " into ",
                               ret.operands[i]->type.ToString(),
                               "; loops whose shapes change per iteration cannot be refined");
        }
      }
    }
    for (size_t i = 0; i < op.results.size(); ++i) {
      PLUGRT_RETURN_IF_ERROR(SetResultType(op, i, op.operands[i]->type));
    }
    return OkStatus();
  }

  Status RefineBranches(Operation& op) {
    PLUGRT_RETURN_IF_ERROR(RefineRegions(op));
    if (op.regions.empty() || op.regions[0]->blocks.empty()) return OkStatus();
    const Block& first = op.regions[0]->front();
    if (first.operations.empty()) return OkStatus();
    const Operation& ret = *first.operations.back();
    for (size_t i = 0; i < op.results.size() && i < ret.operands.size(); ++i) {
      if (HasDynamicDims(op.results[i]->type)) {
        PLUGRT_RETURN_IF_ERROR(SetResultType(op, i, ret.operands[i]->type));
      }
    }
    return OkStatus();
  }

  Function* FindFunction(const std::string& name) {
    for (auto& f : module_.functions) {
      if (f->name == name) return f.get();
    }
    for (auto& f : added_) {
      if (f->name == name) return f.get();
    }
    return nullptr;
  }

  // A call (or composite) of `attr_name`'s function: the callee specialised
  // for the operands' types and known values; the op's results take its
  // result types.
  Status RefineCall(Operation& op, const char* attr_name) {
    PLUGRT_RETURN_IF_ERROR(RefineRegions(op));
    const Attribute* callee_attr = op.attribute(attr_name);
    if (callee_attr == nullptr || callee_attr->kind != Attribute::Kind::kSymbolRef) {
      return InvalidArgument(Where(op), ": needs a symbol '", attr_name, "'");
    }
    const std::string name = callee_attr->str;
    const Function* original = FindFunction(name);
    if (original == nullptr) {
      return InvalidArgument(Where(op), ": calls @", name, ", which the module lacks");
    }
    if (original->input_types.size() != op.operands.size()) {
      return InvalidArgument(Where(op), ": @", name, " takes ", original->input_types.size(),
                             " arguments, the call passes ", op.operands.size());
    }
    // The specialisation key: callee, operand types, known operand values.
    std::string key = name + "(";
    for (const Value* operand : op.operands) {
      key += operand->type.ToString();
      if (const IntValues* v = KnownOf(operand); v != nullptr && v->size() <= 16) {
        key += "=";
        for (int64_t x : *v) key += std::to_string(x) + ",";
      }
      key += ";";
    }
    Function* specialised = nullptr;
    if (auto it = specialisations_.find(key); it != specialisations_.end()) {
      specialised = it->second;
    } else {
      if (depth_ >= kMaxCallDepth) {
        return InvalidArgument(Where(op), ": calls nest deeper than ", kMaxCallDepth);
      }
      PLUGRT_ASSIGN_OR_RETURN(specialised, Specialise(*original, op));
      specialisations_[key] = specialised;
      ++depth_;
      Status status = RefineBody(*specialised);
      --depth_;
      PLUGRT_RETURN_IF_ERROR(status);
    }
    SetAttr(op, attr_name, Attribute::SymbolRef(specialised->name));
    if (specialised->result_types.size() != op.results.size()) {
      return InvalidArgument(Where(op), ": @", name, " returns ",
                             specialised->result_types.size(), " values, the call takes ",
                             op.results.size());
    }
    for (size_t r = 0; r < op.results.size(); ++r) {
      PLUGRT_RETURN_IF_ERROR(SetResultType(op, r, specialised->result_types[r]));
    }
    return OkStatus();
  }

  StatusOr<Function*> Specialise(const Function& original, const Operation& call) {
    auto copy = std::make_unique<Function>();
    copy->name = StrCat(original.name, "_refined_", added_.size());
    copy->is_public = false;
    copy->result_types = original.result_types;
    copy->arg_attributes = original.arg_attributes;
    copy->result_attributes = original.result_attributes;
    copy->attributes = original.attributes;
    copy->location = original.location;
    copy->body = std::make_unique<Region>();
    auto block = std::make_unique<Block>();
    block->parent = copy->body.get();
    if (original.body == nullptr || original.body->blocks.empty()) {
      return InvalidArgument("@", original.name, " has no body");
    }
    const Block& source = original.body->front();
    shlo::IrBuilder::ValueMap map;
    for (size_t i = 0; i < source.arguments.size(); ++i) {
      const Type& given = call.operands[i]->type;
      if (!Refines(given, original.input_types[i])) {
        return InvalidArgument(Where(call), ": argument #", i, " of @", original.name, " is ",
                               original.input_types[i].ToString(), " but the call passes ",
                               given.ToString());
      }
      Value* arg = shlo::IrBuilder::AddArgument(block.get(), given);
      arg->name = source.arguments[i]->name;
      map[source.arguments[i].get()] = arg;
      copy->input_types.push_back(given);
      if (const IntValues* v = KnownOf(call.operands[i])) known_[arg] = *v;
    }
    shlo::IrBuilder builder(block.get(), original.location);
    for (const auto& op : source.operations) builder.Clone(*op, map);
    copy->body->blocks.push_back(std::move(block));
    added_.push_back(std::move(copy));
    return added_.back().get();
  }

  // Keeps the functions the entry reaches; a function specialised once takes
  // back its original name.
  Status DropUnreachable(Function& entry) {
    std::vector<std::unique_ptr<Function>> all;
    for (auto& f : module_.functions) all.push_back(std::move(f));
    for (auto& f : added_) all.push_back(std::move(f));
    module_.functions.clear();
    added_.clear();
    std::map<std::string, Function*> by_name;
    for (auto& f : all) by_name[f->name] = f.get();
    std::set<std::string> reached{entry.name};
    std::vector<Function*> stack{&entry};
    while (!stack.empty()) {
      Function* f = stack.back();
      stack.pop_back();
      if (f->body == nullptr) continue;
      for (auto& block : f->body->blocks) {
        ForEachOp(*block, [&](Operation& op) {
          std::vector<std::string> names;
          for (const shlo::NamedAttribute& attr : op.attributes) CollectSymbols(attr.second, names);
          for (const std::string& name : names) {
            auto it = by_name.find(name);
            if (it != by_name.end() && reached.insert(name).second) stack.push_back(it->second);
          }
        });
      }
    }
    // Specialisations named "<original>_refined_<n>": the original's name
    // goes back to the only one when the original itself is gone.
    std::map<std::string, std::vector<std::string>> by_original;
    for (const std::string& name : reached) {
      const size_t at = name.rfind("_refined_");
      if (at != std::string::npos) by_original[name.substr(0, at)].push_back(name);
    }
    std::map<std::string, std::string> renames;
    for (const auto& [original, names] : by_original) {
      if (names.size() == 1 && reached.count(original) == 0) renames[names[0]] = original;
    }
    for (auto& f : all) {
      if (reached.count(f->name) == 0) continue;
      if (auto it = renames.find(f->name); it != renames.end()) f->name = it->second;
      if (f->body != nullptr) {
        for (auto& block : f->body->blocks) {
          ForEachOp(*block, [&](Operation& op) {
            for (shlo::NamedAttribute& attr : op.attributes) RenameSymbols(attr.second, renames);
          });
        }
      }
      module_.functions.push_back(std::move(f));
    }
    return OkStatus();
  }

  Module& module_;
  Region* body_ = nullptr;  // the body of the function being refined
  std::unordered_map<const Value*, IntValues> known_;
  std::map<std::string, Function*> specialisations_;
  std::vector<std::unique_ptr<Function>> added_;
  int depth_ = 0;
};

}  // namespace

bool IsShapePolymorphic(const Module& module) {
  for (const auto& f : module.functions) {
    for (const Type& t : f->input_types) {
      if (HasDynamicDims(t)) return true;
    }
    for (const Type& t : f->result_types) {
      if (HasDynamicDims(t)) return true;
    }
    if (f->body != nullptr) {
      for (const auto& block : f->body->blocks) {
        if (BlockHasDynamicTypes(*block)) return true;
      }
    }
  }
  return false;
}

std::vector<size_t> DimensionArguments(const Module& module) {
  std::vector<size_t> out;
  const Function* entry = module.EntryFunction();
  if (entry == nullptr || !IsShapePolymorphic(module)) return out;
  for (size_t i = 0; i < entry->input_types.size(); ++i) {
    const Type& t = entry->input_types[i];
    const bool has_attrs = i < entry->arg_attributes.size() && !entry->arg_attributes[i].empty();
    if (!t.is_tensor() || t.rank() != 0 || !shlo::IsInteger(t.element_type()) || has_attrs) break;
    out.push_back(i);
  }
  return out;
}

Status RefineShapes(Module& module, const EntryRefinement& refinement) {
  const Function* entry = module.EntryFunction();
  if (entry == nullptr) {
    return InvalidArgument("the program has no entry function (@main or a single public "
                           "function)");
  }
  Refiner refiner(module);
  return refiner.RefineEntry(*const_cast<Function*>(entry), refinement);
}

}  // namespace plugrt::passes
