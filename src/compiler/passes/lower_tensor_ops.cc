#include "compiler/passes/lower_tensor_ops.h"

#include <optional>
#include <utility>
#include <vector>

#include "compiler/passes/ir_rewrite.h"
#include "stablehlo/ir_builder.h"

namespace plugrt::passes {
namespace {

using shlo::Attribute;
using shlo::IrBuilder;
using shlo::Operation;
using shlo::Type;
using shlo::Value;

// The value that stands for `op`'s one result.
StatusOr<Value*> Lower(Operation& op) {
  IrBuilder b(&op);
  const Type& result = op.results[0]->type;
  if (op.name == "tensor.extract") {
    const Type& from = op.operands[0]->type;
    if (!from.is_tensor() || !from.has_static_shape() ||
        static_cast<int64_t>(op.operands.size()) != 1 + from.rank()) {
      return InvalidArgument(Where(op), ": needs a tensor of static shape and one index per "
                                        "dimension");
    }
    for (size_t i = 1; i < op.operands.size(); ++i) {
      const Type& index = op.operands[i]->type;
      if (!index.is_tensor() || index.rank() != 0 || !shlo::IsInteger(index.element_type())) {
        return InvalidArgument(Where(op), ": index ", i - 1, " is ", index.ToString());
      }
    }
    const std::vector<int64_t> ones(static_cast<size_t>(from.rank()), 1);
    Value* slice = b.Op("stablehlo.dynamic_slice", op.operands, Type::Tensor(from.element_type(), ones),
                        {{"slice_sizes", Attribute::DenseI64Array(ones)}});
    return b.Op("stablehlo.reshape", {slice}, result);
  }
  if (op.name == "tensor.dim") {
    // The dimension must be known when compiling: get_dimension_size takes
    // it as an attribute.
    const Type& from = op.operands[0]->type;
    const Operation* def = op.operands.size() == 2 ? op.operands[1]->defining_op : nullptr;
    const Attribute* value = def != nullptr && def->name == "stablehlo.constant"
                                 ? def->attribute("value")
                                 : nullptr;
    std::optional<int64_t> dim;
    if (value != nullptr && value->kind == Attribute::Kind::kDenseElements &&
        value->type.rank() == 0) {
      StatusOr<int64_t> read = shlo::AttrToInt(*value);
      if (read.ok()) dim = *read;
    }
    if (!from.is_tensor() || !dim) {
      return Unimplemented(Where(op), ": tensor.dim of a tensor at a dimension computed at run "
                                      "time is not supported (only at a constant index)");
    }
    if (*dim < 0 || *dim >= from.rank()) {
      return InvalidArgument(Where(op), ": dimension ", *dim, " of ", from.ToString());
    }
    Value* size = b.Op("stablehlo.get_dimension_size", {op.operands[0]},
                       Type::Scalar(shlo::ElementType::kSI32), {{"dimension", Attribute::Integer(*dim)}});
    return b.Op("stablehlo.convert", {size}, result);
  }
  // tensor.from_elements
  if (!result.is_tensor() || !result.has_static_shape() ||
      result.num_elements() != static_cast<int64_t>(op.operands.size()) || op.operands.empty()) {
    return InvalidArgument(Where(op), ": ", op.operands.size(), " elements do not make ",
                           result.ToString());
  }
  const Type one = Type::Tensor(result.element_type(), {1});
  std::vector<Value*> pieces;
  for (Value* element : op.operands) {
    if (element->type != Type::Scalar(result.element_type())) {
      return InvalidArgument(Where(op), ": element of type ", element->type.ToString(), " for ",
                             result.ToString());
    }
    pieces.push_back(b.Op("stablehlo.reshape", {element}, one));
  }
  Value* flat = pieces.size() == 1
                    ? pieces[0]
                    : b.Op("stablehlo.concatenate", pieces,
                           Type::Tensor(result.element_type(), {result.num_elements()}),
                           {{"dimension", Attribute::Integer(0)}});
  return flat->type == result ? flat : b.Op("stablehlo.reshape", {flat}, result);
}

}  // namespace

StatusOr<bool> LowerTensorOps(shlo::Module& module) {
  bool changed = false;
  for (auto& function : module.functions) {
    if (function->body == nullptr) continue;
    // Collected first: lowering inserts ops into the blocks.
    std::vector<Operation*> found;
    ForEachBlock(*function, [&](shlo::Block& block) {
      for (auto& op : block.operations) {
        if (op->name == "tensor.extract" || op->name == "tensor.from_elements" ||
            op->name == "tensor.dim") {
          found.push_back(op.get());
        }
      }
    });
    if (found.empty()) continue;
    std::vector<std::pair<const Value*, Value*>> replaced;
    for (Operation* op : found) {
      if (op->results.size() != 1) return InvalidArgument(Where(*op), ": has one result");
      PLUGRT_ASSIGN_OR_RETURN(Value * value, Lower(*op));
      replaced.emplace_back(op->results[0].get(), value);
    }
    ReplaceAllUses(*function, replaced);
    for (Operation* op : found) shlo::EraseOp(op);
    changed = true;
  }
  return changed;
}

}  // namespace plugrt::passes
