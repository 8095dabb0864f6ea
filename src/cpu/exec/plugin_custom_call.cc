#include "cpu/exec/plugin_custom_call.h"

#include <string>
#include <utility>
#include <vector>

#include "kernels_abi/kernel_attributes.h"
#include "kernels_abi/kernel_call_frame.h"

namespace plugrt::cpu {
namespace {

class PluginCustomCallOp final : public CompiledOp {
 public:
  PluginCustomCallOp(std::string where, std::string target,
                     std::shared_ptr<const kernels_abi::KernelPlugins> plugins,
                     const kernels_abi::KernelHandlerEntry* entry,
                     std::unique_ptr<const kernels_abi::KernelAttributes> attributes,
                     std::vector<shlo::Type> operand_types, std::vector<shlo::Type> result_types)
      : where_(std::move(where)),
        target_(std::move(target)),
        plugins_(std::move(plugins)),
        entry_(entry),
        attributes_(std::move(attributes)),
        operand_types_(std::move(operand_types)),
        result_types_(std::move(result_types)) {}

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& context) const override {
    if (operands.size() != operand_types_.size()) {
      return InvalidArgument(where_, ": expected ", operand_types_.size(), " operands, got ",
                             operands.size());
    }
    std::vector<PLUGRT_KernelInput> inputs(operands.size());
    for (size_t i = 0; i < operands.size(); ++i) {
      const RtValue& value = operands[i];
      if (value.kind != RtValue::Kind::kTensor ||
          value.tensor.type() != operand_types_[i].element_type()) {
        return InvalidArgument(where_, ": operand ", i, " is not a tensor of ",
                               shlo::ElementTypeName(operand_types_[i].element_type()));
      }
      const Tensor& tensor = value.tensor;
      inputs[i] = PLUGRT_KernelInput{sizeof(PLUGRT_KernelInput), KernelType(tensor.type()),
                                     tensor.dims().size(), tensor.dims().data(),
                                     tensor.num_elements() == 0 ? nullptr : tensor.data(),
                                     ByteSize(tensor)};
    }
    std::vector<RtValue> results;
    results.reserve(result_types_.size());
    std::vector<PLUGRT_KernelOutput> outputs(result_types_.size());
    for (size_t i = 0; i < result_types_.size(); ++i) {
      Tensor out(result_types_[i].element_type(), result_types_[i].dims());
      results.push_back(RtValue::Of(std::move(out)));
      Tensor& tensor = results.back().tensor;
      outputs[i] = PLUGRT_KernelOutput{sizeof(PLUGRT_KernelOutput), KernelType(tensor.type()),
                                       tensor.dims().size(), tensor.dims().data(),
                                       tensor.num_elements() == 0 ? nullptr : tensor.MutableData(),
                                       ByteSize(tensor)};
    }
    kernels_abi::KernelCallFrame frame;
    frame.target = target_;
    frame.inputs = inputs;
    frame.outputs = outputs;
    frame.attributes = attributes_.get();
    frame.device_ordinal = context.device_id >= 0 ? context.device_id : context.device_index;
    frame.replica_id = context.replica_id;
    frame.partition_id = context.partition_id;
    Status status = plugins_->Call(*entry_, frame);
    if (!status.ok()) return Status(status.code(), StrCat(where_, ": ", status.message()));
    return results;
  }

 private:
  static PLUGRT_KernelType KernelType(ElementType type) {
    return static_cast<PLUGRT_KernelType>(shlo::ToPjrtType(type).value_or(PJRT_Buffer_Type_INVALID));
  }
  static size_t ByteSize(const Tensor& tensor) {
    return static_cast<size_t>(tensor.num_elements()) *
           static_cast<size_t>(shlo::StorageBytes(tensor.type()));
  }

  std::string where_;
  std::string target_;
  std::shared_ptr<const kernels_abi::KernelPlugins> plugins_;
  const kernels_abi::KernelHandlerEntry* entry_;  // owned by plugins_
  std::unique_ptr<const kernels_abi::KernelAttributes> attributes_;
  std::vector<shlo::Type> operand_types_;
  std::vector<shlo::Type> result_types_;
};

// UNIMPLEMENTED naming the op when `type` is not a tensor of an element type
// the kernel ABI names (or, for results, not of static shape).
Status CheckKernelType(const shlo::Operation& op, std::string_view target, const char* what,
                       size_t index, const shlo::Type& type, bool need_static) {
  if (!type.is_tensor() || !shlo::ToPjrtType(type.element_type()) ||
      (need_static && !type.has_static_shape())) {
    return OpError(op, StatusCode::kUnimplemented,
                   StrCat("custom call target '", target, "' (a kernel plugin's): ", what, " ",
                          index, " is ", type.ToString(), "; kernel plugins take tensors",
                          need_static ? " of static shape" : "",
                          " of the element types the kernel ABI names"));
  }
  return OkStatus();
}

}  // namespace

Status CustomCallTypes(const shlo::Operation& op, std::string_view target,
                       CustomCallTypeCheck check, std::vector<shlo::Type>* operand_types,
                       std::vector<shlo::Type>* result_types) {
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const shlo::Type& type = op.operands[i]->type;
    PLUGRT_RETURN_IF_ERROR(check(op, target, "operand", i, type, false));
    operand_types->push_back(type);
  }
  for (size_t i = 0; i < op.results.size(); ++i) {
    const shlo::Type& type = op.results[i]->type;
    PLUGRT_RETURN_IF_ERROR(check(op, target, "result", i, type, true));
    result_types->push_back(type);
  }
  return OkStatus();
}

StatusOr<std::unique_ptr<CompiledOp>> CompilePluginCustomCall(
    const shlo::Operation& op, std::string_view target,
    std::shared_ptr<const kernels_abi::KernelPlugins> plugins,
    const kernels_abi::KernelHandlerEntry& entry) {
  std::vector<shlo::Type> operand_types, result_types;
  PLUGRT_RETURN_IF_ERROR(
      CustomCallTypes(op, target, &CheckKernelType, &operand_types, &result_types));
  StatusOr<std::unique_ptr<const kernels_abi::KernelAttributes>> attributes =
      kernels_abi::KernelAttributes::FromOperation(op);
  if (!attributes.ok()) {
    return OpError(op, attributes.status().code(), attributes.status().message());
  }
  return std::unique_ptr<CompiledOp>(new PluginCustomCallOp(
      StrCat(op.location.ToString(), ": ", op.name), std::string(target), std::move(plugins),
      &entry, std::move(*attributes), std::move(operand_types), std::move(result_types)));
}

}  // namespace plugrt::cpu
