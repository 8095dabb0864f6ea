#include "cpu/exec/compiled_op.h"

namespace plugrt::cpu {

Status OpError(const shlo::Operation& op, StatusCode code, const std::string& message) {
  return Status(code, StrCat(op.location.ToString(), ": ", op.name, ": ", message));
}

StatusOr<std::vector<Tensor>> CompiledRegion::RunTensors(const std::vector<Tensor>& arguments,
                                                         ExecContext& context) const {
  std::vector<RtValue> values;
  values.reserve(arguments.size());
  for (const Tensor& tensor : arguments) values.push_back(RtValue::Of(tensor));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<RtValue> results, Run(std::move(values), context));
  std::vector<Tensor> tensors;
  tensors.reserve(results.size());
  for (RtValue& result : results) {
    if (result.kind != RtValue::Kind::kTensor) {
      return InvalidArgument("a region that must return tensors returned a tuple or token");
    }
    tensors.push_back(std::move(result.tensor));
  }
  return tensors;
}

}  // namespace plugrt::cpu
