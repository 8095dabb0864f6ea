// The "plugrt.math.<name>" custom calls the CHLO lowering emits for special
// functions (kernels_abi/custom_call_targets.h names them). The target and
// element type are resolved to one typed kernel at compile time.
#include <string>
#include <utility>
#include <vector>

#include "cpu/exec/op_registry.h"
#include "cpu/kernels/special_functions.h"

namespace plugrt::cpu {
namespace {

class MathCustomCallOp final : public CompiledOp {
 public:
  MathCustomCallOp(std::string where, MathKernel kernel, ElementType type, int arity)
      : where_(std::move(where)), kernel_(kernel), type_(type), arity_(arity) {}

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& /*context*/) const override {
    if (operands.size() != static_cast<size_t>(arity_)) {
      return InvalidArgument(where_, ": expected ", arity_, " operands, got ", operands.size());
    }
    const Tensor* inputs[2] = {nullptr, nullptr};
    for (int i = 0; i < arity_; ++i) {
      const RtValue& v = operands[static_cast<size_t>(i)];
      if (v.kind != RtValue::Kind::kTensor || v.tensor.type() != type_) {
        return InvalidArgument(where_, ": operand ", i, " is not a tensor of ",
                               shlo::ElementTypeName(type_));
      }
      if (v.tensor.dims() != operands[0].tensor.dims()) {
        return InvalidArgument(where_, ": operands have different shapes");
      }
      inputs[i] = &v.tensor;
    }
    Tensor out(type_, operands[0].tensor.dims());
    kernel_(inputs, out);
    std::vector<RtValue> results;
    results.push_back(RtValue::Of(std::move(out)));
    return results;
  }

 private:
  std::string where_;
  MathKernel kernel_;
  ElementType type_;
  int arity_;
};

StatusOr<std::unique_ptr<CompiledOp>> CompileMathCustomCall(const shlo::Operation& op,
                                                            std::string_view target,
                                                            const ProgramOptions& /*options*/) {
  const std::string_view prefix = kernels_abi::kMathTargetPrefix;
  const std::optional<MathFn> fn =
      target.substr(0, prefix.size()) == prefix ? MathFnFromName(target.substr(prefix.size()))
                                                : std::nullopt;
  if (!fn) {
    return OpError(op, StatusCode::kInternal,
                   StrCat("custom call target '", target, "' is registered as a math function "
                                                          "but is none"));
  }
  const int arity = MathFnArity(*fn);
  if (op.operands.size() != static_cast<size_t>(arity) || op.results.size() != 1) {
    return OpError(op, StatusCode::kInvalidArgument,
                   StrCat(target, " takes ", arity, " operands and has 1 result"));
  }
  const shlo::Type& result = op.results[0]->type;
  for (const shlo::Value* operand : op.operands) {
    const shlo::Type& t = operand->type;
    if (t.kind() == shlo::Type::Kind::kUnsupported) {
      return OpError(op, StatusCode::kUnimplemented,
                     StrCat(target, " does not support type ", t.unsupported_text()));
    }
    if (!t.is_tensor() || !result.is_tensor() || t.element_type() != result.element_type() ||
        t.dims() != result.dims()) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat(target, " needs operands and result of one tensor type, got ",
                            t.ToString(), " and ", result.ToString()));
    }
  }
  if (!result.is_tensor()) {
    return OpError(op, StatusCode::kInvalidArgument, "the result must be a tensor");
  }
  const ElementType type = result.element_type();
  const MathKernel kernel = GetMathKernel(*fn, type);
  if (kernel == nullptr) {
    return OpError(op, StatusCode::kUnimplemented,
                   StrCat(MathFnName(*fn), " is not supported for element type ",
                          shlo::ElementTypeName(type)));
  }
  return std::unique_ptr<CompiledOp>(
      new MathCustomCallOp(StrCat(op.location.ToString(), ": ", op.name, " ", target), kernel,
                           type, arity));
}

}  // namespace

void RegisterMathCustomCalls(OpRegistry& registry) {
  for (const kernels_abi::MathTargetInfo& info : kernels_abi::kMathTargets) {
    registry.SetCustomCall(info.target, &CompileMathCustomCall);
  }
}

}  // namespace plugrt::cpu
