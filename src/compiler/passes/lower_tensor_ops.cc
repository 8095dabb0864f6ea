#include "compiler/passes/lower_tensor_ops.h"

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
        if (op->name == "tensor.extract" || op->name == "tensor.from_elements") {
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
