#include "cpu/exec/external_custom_call.h"

#include <string>
#include <utility>
#include <vector>

namespace plugrt::cpu {
namespace {

class ExternalCustomCallOp final : public CompiledOp {
 public:
  ExternalCustomCallOp(std::string where, std::string target,
                       std::unique_ptr<const kernels_abi::CustomCallHandler> handler,
                       std::vector<shlo::Type> operand_types, std::vector<shlo::Type> result_types)
      : where_(std::move(where)),
        target_(std::move(target)),
        handler_(std::move(handler)),
        operand_types_(std::move(operand_types)),
        result_types_(std::move(result_types)) {}

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& context) const override {
    if (operands.size() != operand_types_.size()) {
      return InvalidArgument(where_, ": expected ", operand_types_.size(), " operands, got ",
                             operands.size());
    }
    std::vector<kernels_abi::CustomCallBuffer> args(operands.size());
    for (size_t i = 0; i < operands.size(); ++i) {
      const RtValue& value = operands[i];
      if (value.kind != RtValue::Kind::kTensor ||
          value.tensor.type() != operand_types_[i].element_type()) {
        return InvalidArgument(where_, ": operand ", i, " is not a tensor of ",
                               shlo::ElementTypeName(operand_types_[i].element_type()));
      }
      // Arguments are read-only for the handler (each ABI says so).
      args[i] = BufferOf(value.tensor, const_cast<std::byte*>(value.tensor.data()));
    }
    std::vector<RtValue> results;
    results.reserve(result_types_.size());
    std::vector<kernels_abi::CustomCallBuffer> rets(result_types_.size());
    for (size_t i = 0; i < result_types_.size(); ++i) {
      results.push_back(
          RtValue::Of(Tensor(result_types_[i].element_type(), result_types_[i].dims())));
      Tensor& tensor = results.back().tensor;
      rets[i] = BufferOf(tensor, tensor.MutableData());
    }
    kernels_abi::CustomCallFrame frame;
    frame.target = target_;
    frame.args = args;
    frame.rets = rets;
    frame.device_ordinal = context.device_id >= 0 ? context.device_id : context.device_index;
    frame.replica_id = context.replica_id;
    frame.partition_id = context.partition_id;
    frame.run_id = context.run_id;
    frame.user_data = context.user_data;
    Status status = handler_->Call(frame);
    if (!status.ok()) return Status(status.code(), StrCat(where_, ": ", status.message()));
    return results;
  }

 private:
  static kernels_abi::CustomCallBuffer BufferOf(const Tensor& tensor, std::byte* data) {
    kernels_abi::CustomCallBuffer buffer;
    buffer.type = tensor.type();
    buffer.dims = tensor.dims();
    buffer.data = tensor.num_elements() == 0 ? nullptr : data;
    buffer.size_in_bytes = static_cast<size_t>(tensor.num_elements()) *
                           static_cast<size_t>(shlo::StorageBytes(tensor.type()));
    return buffer;
  }

  std::string where_;
  std::string target_;
  std::unique_ptr<const kernels_abi::CustomCallHandler> handler_;
  std::vector<shlo::Type> operand_types_;
  std::vector<shlo::Type> result_types_;
};

}  // namespace

StatusOr<std::unique_ptr<CompiledOp>> CompileExternalCustomCall(
    const shlo::Operation& op, std::string_view target,
    StatusOr<std::unique_ptr<const kernels_abi::CustomCallHandler>> bound) {
  if (!bound.ok()) return OpError(op, bound.status().code(), bound.status().message());
  std::vector<shlo::Type> operand_types, result_types;
  for (const shlo::Value* operand : op.operands) operand_types.push_back(operand->type);
  for (const auto& result : op.results) result_types.push_back(result->type);
  return std::unique_ptr<CompiledOp>(new ExternalCustomCallOp(
      StrCat(op.location.ToString(), ": ", op.name), std::string(target), std::move(*bound),
      std::move(operand_types), std::move(result_types)));
}

}  // namespace plugrt::cpu
