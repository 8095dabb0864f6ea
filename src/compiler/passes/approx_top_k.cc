#include "compiler/passes/approx_top_k.h"

#include <memory>
#include <string>
#include <vector>

#include "compiler/passes/function_region.h"
#include "stablehlo/ir_builder.h"

namespace plugrt::passes {
namespace {

using shlo::Attribute;
using shlo::Operation;
using shlo::Type;

bool IsApproxTopK(const Operation& op) {
  if (op.code != shlo::OpCode::kCustomCall) return false;
  const Attribute* target = op.attribute("call_target_name");
  return target != nullptr && target->kind == Attribute::Kind::kString &&
         target->str == "ApproxTopK";
}

std::string Where(const Operation& op) { return op.location.ToString() + ": ApproxTopK"; }

// The sort + slices for one call, inserted before it; its results' uses
// move to the slices.
Status Lower(const shlo::Module& module, shlo::Region& body, Operation& op) {
  const size_t total = op.operands.size();
  if (total < 2 || total % 2 != 0 || op.results.size() != total / 2) {
    return InvalidArgument(Where(op), ": takes N inputs and N init values, with N results");
  }
  const size_t n = total / 2;
  const Attribute* config = op.attribute("mhlo.backend_config");
  if (config == nullptr || config->kind != Attribute::Kind::kDictionary) {
    return InvalidArgument(Where(op), ": needs a dictionary mhlo.backend_config");
  }
  const Attribute* top_k_attr = config->field("top_k");
  const Attribute* dim_attr = config->field("reduction_dim");
  StatusOr<int64_t> k = top_k_attr ? shlo::AttrToInt(*top_k_attr) : StatusOr<int64_t>(InvalidArgument(""));
  StatusOr<int64_t> dim = dim_attr ? shlo::AttrToInt(*dim_attr) : StatusOr<int64_t>(InvalidArgument(""));
  const Type& input = op.operands[0]->type;
  if (!k.ok() || !dim.ok() || !input.is_tensor() || !input.has_static_shape() || *dim < 0 ||
      *dim >= input.rank() || *k < 0 || *k > input.dims()[*dim]) {
    return InvalidArgument(Where(op), ": needs top_k in [0, size] and reduction_dim in the rank "
                                      "of ", input.ToString());
  }
  if (const Attribute* aggregate = config->field("aggregate_to_topk")) {
    StatusOr<bool> on = shlo::AttrToBool(*aggregate);
    if (!on.ok() || !*on) {
      return Unimplemented(Where(op), ": aggregate_to_topk = false returns the approximate "
                                      "algorithm's own candidate count; only aggregated "
                                      "results are computed");
    }
  }
  std::vector<Type> sorted_types;
  for (size_t i = 0; i < n; ++i) {
    const Type& t = op.operands[i]->type;
    if (!t.is_tensor() || t.dims() != input.dims()) {
      return InvalidArgument(Where(op), ": every input must have the shape of the first");
    }
    sorted_types.push_back(t);
  }
  PLUGRT_ASSIGN_OR_RETURN(const shlo::Function* comparator, CalledFunction(module, op));
  if (comparator->input_types.size() != 2 * n) {
    return InvalidArgument(Where(op), ": the comparator @", comparator->name, " must take ",
                           2 * n, " scalars");
  }
  shlo::IrBuilder builder(&op);
  Operation* sort = builder.Create(
      "stablehlo.sort", std::vector<shlo::Value*>(op.operands.begin(), op.operands.begin() + n),
      sorted_types, {{"dimension", Attribute::Integer(*dim)}, {"is_stable", Attribute::Bool(true)}});
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Region> region,
                          RegionFromFunction(*comparator, sort));
  sort->regions.push_back(std::move(region));
  std::vector<int64_t> start(static_cast<size_t>(input.rank()), 0);
  std::vector<int64_t> limit = input.dims();
  limit[static_cast<size_t>(*dim)] = *k;
  for (size_t i = 0; i < n; ++i) {
    const Type result_type = Type::Tensor(sorted_types[i].element_type(), limit);
    if (op.results[i]->type != result_type) {
      return InvalidArgument(Where(op), ": result #", i, " is ", op.results[i]->type.ToString(),
                             " but top_k gives ", result_type.ToString());
    }
    shlo::Value* slice = builder.Op(
        "stablehlo.slice", {sort->result(i)}, result_type,
        {{"start_indices", Attribute::DenseI64Array(start)},
         {"limit_indices", Attribute::DenseI64Array(limit)},
         {"strides", Attribute::DenseI64Array(std::vector<int64_t>(start.size(), 1))}});
    shlo::ReplaceAllUsesWith(body, op.result(i), slice);
  }
  shlo::EraseOp(&op);
  return OkStatus();
}

void FindCalls(shlo::Block& block, std::vector<Operation*>& out) {
  for (auto& op : block.operations) {
    if (IsApproxTopK(*op)) out.push_back(op.get());
    for (auto& region : op->regions) {
      for (auto& nested : region->blocks) FindCalls(*nested, out);
    }
  }
}

}  // namespace

Status LowerApproxTopK(shlo::Module& module) {
  for (auto& function : module.functions) {
    if (function->body == nullptr) continue;
    std::vector<Operation*> calls;
    for (auto& block : function->body->blocks) FindCalls(*block, calls);
    for (Operation* call : calls) PLUGRT_RETURN_IF_ERROR(Lower(module, *function->body, *call));
  }
  return OkStatus();
}

}  // namespace plugrt::passes
