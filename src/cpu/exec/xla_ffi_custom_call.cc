#include "cpu/exec/xla_ffi_custom_call.h"

#include <string>
#include <utility>
#include <vector>

#include "cpu/exec/plugin_custom_call.h"
#include "kernels_abi/xla_ffi_api.h"
#include "kernels_abi/xla_ffi_attributes.h"
#include "kernels_abi/xla_ffi_data_type.h"

namespace plugrt::cpu {
namespace {

std::string ExceptionText(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return StrCat("threw ", e.what());
  } catch (...) {
    return "threw an exception that is not a std::exception";
  }
}

// Runs one stage of `handler` on `frame`, waiting for its future if it made
// one. Errors name the target.
Status RunStage(std::string_view target, XLA_FFI_Handler* handler, XLA_FFI_CallFrame& frame) {
  XLA_FFI_Error* error = nullptr;
  try {
    error = handler(&frame);
  } catch (...) {
    return Internal("XLA FFI handler of custom call '", target, "' ",
                    ExceptionText(std::current_exception()));
  }
  Status status = kernels_abi::TakeXlaFfiError(error);
  if (status.ok() && frame.future != nullptr) {
    status = kernels_abi::AwaitXlaFfiFuture(frame.future);
    frame.future = nullptr;
  }
  if (!status.ok()) {
    return Status(status.code(),
                  StrCat("XLA FFI handler of custom call '", target, "' failed: ", status.message()));
  }
  return OkStatus();
}

XLA_FFI_CallFrame EmptyFrame(const kernels_abi::XlaFfiAttributes& attributes,
                             XLA_FFI_ExecutionContext* ctx) {
  XLA_FFI_CallFrame frame{};
  frame.struct_size = XLA_FFI_CallFrame_STRUCT_SIZE;
  frame.api = kernels_abi::XlaFfiApi();
  frame.ctx = ctx;
  frame.stage = ctx->stage;
  frame.args.struct_size = XLA_FFI_Args_STRUCT_SIZE;
  frame.rets.struct_size = XLA_FFI_Rets_STRUCT_SIZE;
  frame.attrs = attributes.attrs();
  frame.future = nullptr;
  return frame;
}

class XlaFfiCustomCallOp final : public CompiledOp {
 public:
  XlaFfiCustomCallOp(std::string where, std::string target, kernels_abi::XlaFfiHandlerEntry entry,
                     std::unique_ptr<const kernels_abi::XlaFfiAttributes> attributes,
                     std::unique_ptr<kernels_abi::XlaFfiState> state,
                     std::vector<shlo::Type> operand_types, std::vector<shlo::Type> result_types,
                     std::shared_ptr<const void> keep_alive)
      : keep_alive_(std::move(keep_alive)),
        where_(std::move(where)),
        target_(std::move(target)),
        entry_(entry),
        attributes_(std::move(attributes)),
        state_(std::move(state)),
        operand_types_(std::move(operand_types)),
        result_types_(std::move(result_types)) {}

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& context) const override {
    if (operands.size() != operand_types_.size()) {
      return InvalidArgument(where_, ": expected ", operand_types_.size(), " operands, got ",
                             operands.size());
    }
    const size_t num_args = operands.size(), num_rets = result_types_.size();
    // Buffers first, then the pointer arrays into them: the vectors do not
    // grow after the pointers are taken.
    std::vector<XLA_FFI_Buffer> buffers(num_args + num_rets);
    std::vector<std::vector<int64_t>> dims(num_args + num_rets);
    std::vector<RtValue> results;
    results.reserve(num_rets);
    for (size_t i = 0; i < num_args; ++i) {
      const RtValue& value = operands[i];
      if (value.kind != RtValue::Kind::kTensor ||
          value.tensor.type() != operand_types_[i].element_type()) {
        return InvalidArgument(where_, ": operand ", i, " is not a tensor of ",
                               shlo::ElementTypeName(operand_types_[i].element_type()));
      }
      const Tensor& tensor = value.tensor;
      dims[i].assign(tensor.dims().begin(), tensor.dims().end());
      // Arguments are read-only for the handler; the C API has no const.
      Fill(buffers[i], tensor.type(), const_cast<std::byte*>(tensor.data()), dims[i],
           tensor.num_elements());
    }
    for (size_t i = 0; i < num_rets; ++i) {
      results.push_back(RtValue::Of(Tensor(result_types_[i].element_type(), result_types_[i].dims())));
      Tensor& tensor = results.back().tensor;
      dims[num_args + i].assign(tensor.dims().begin(), tensor.dims().end());
      Fill(buffers[num_args + i], tensor.type(), tensor.MutableData(), dims[num_args + i],
           tensor.num_elements());
    }
    std::vector<XLA_FFI_ArgType> arg_types(num_args, XLA_FFI_ArgType_BUFFER);
    std::vector<XLA_FFI_RetType> ret_types(num_rets, XLA_FFI_RetType_BUFFER);
    std::vector<void*> args(num_args), rets(num_rets);
    for (size_t i = 0; i < num_args; ++i) args[i] = &buffers[i];
    for (size_t i = 0; i < num_rets; ++i) rets[i] = &buffers[num_args + i];

    XLA_FFI_ExecutionContext ctx;
    ctx.stage = XLA_FFI_ExecutionStage_EXECUTE;
    ctx.target = target_;
    ctx.device_ordinal =
        static_cast<int32_t>(context.device_id >= 0 ? context.device_id : context.device_index);
    ctx.run_id = context.run_id;
    ctx.state = state_.get();
    ctx.user_data = context.user_data;
    XLA_FFI_CallFrame frame = EmptyFrame(*attributes_, &ctx);
    frame.args.size = static_cast<int64_t>(num_args);
    frame.args.types = arg_types.data();
    frame.args.args = args.data();
    frame.rets.size = static_cast<int64_t>(num_rets);
    frame.rets.types = ret_types.data();
    frame.rets.rets = rets.data();
    Status status = RunStage(target_, entry_.bundle.execute, frame);
    if (!status.ok()) return Status(status.code(), StrCat(where_, ": ", status.message()));
    return results;
  }

 private:
  static void Fill(XLA_FFI_Buffer& buffer, ElementType type, void* data,
                   std::vector<int64_t>& dims, int64_t num_elements) {
    buffer.struct_size = XLA_FFI_Buffer_STRUCT_SIZE;
    buffer.extension_start = nullptr;
    // Checked at compile time: every operand and result type has a number.
    buffer.dtype = kernels_abi::ToXlaFfiDataType(type).value_or(XLA_FFI_DataType_INVALID);
    buffer.data = num_elements == 0 ? nullptr : data;
    buffer.rank = static_cast<int64_t>(dims.size());
    buffer.dims = dims.data();
  }

  std::shared_ptr<const void> keep_alive_;  // destroyed last: may hold the handler's code
  std::string where_;
  std::string target_;
  kernels_abi::XlaFfiHandlerEntry entry_;
  std::unique_ptr<const kernels_abi::XlaFfiAttributes> attributes_;
  std::unique_ptr<kernels_abi::XlaFfiState> state_;
  std::vector<shlo::Type> operand_types_;
  std::vector<shlo::Type> result_types_;
};

Status CheckFfiType(const shlo::Operation& op, std::string_view target, const char* what,
                    size_t index, const shlo::Type& type, bool need_static) {
  if (!type.is_tensor() || !kernels_abi::ToXlaFfiDataType(type.element_type()) ||
      (need_static && !type.has_static_shape())) {
    return OpError(op, StatusCode::kUnimplemented,
                   StrCat("custom call target '", target, "' (an XLA FFI handler's): ", what, " ",
                          index, " is ", type.ToString(), "; XLA FFI handlers take tensors",
                          need_static ? " of static shape" : "", " with an XLA data type"));
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<CompiledOp>> CompileXlaFfiCustomCall(
    const shlo::Operation& op, std::string_view target,
    const kernels_abi::XlaFfiHandlerEntry& entry, std::shared_ptr<const void> keep_alive) {
  std::vector<shlo::Type> operand_types, result_types;
  PLUGRT_RETURN_IF_ERROR(
      CustomCallTypes(op, target, &CheckFfiType, &operand_types, &result_types));
  StatusOr<std::unique_ptr<const kernels_abi::XlaFfiAttributes>> attributes =
      kernels_abi::XlaFfiAttributes::FromOperation(op);
  if (!attributes.ok()) {
    return OpError(op, attributes.status().code(),
                   StrCat("custom call target '", target, "': ", attributes.status().message()));
  }
  auto state = std::make_unique<kernels_abi::XlaFfiState>();
  // XLA:CPU instantiates each call site once, before any execution, with the
  // attributes but no buffers or device.
  if (entry.bundle.instantiate != nullptr) {
    XLA_FFI_ExecutionContext ctx;
    ctx.stage = XLA_FFI_ExecutionStage_INSTANTIATE;
    ctx.target = target;
    ctx.state = state.get();
    XLA_FFI_CallFrame frame = EmptyFrame(**attributes, &ctx);
    Status status = RunStage(target, entry.bundle.instantiate, frame);
    if (!status.ok()) return OpError(op, status.code(), status.message());
  }
  return std::unique_ptr<CompiledOp>(new XlaFfiCustomCallOp(
      StrCat(op.location.ToString(), ": ", op.name), std::string(target), entry,
      std::move(*attributes), std::move(state), std::move(operand_types),
      std::move(result_types), std::move(keep_alive)));
}

}  // namespace plugrt::cpu
