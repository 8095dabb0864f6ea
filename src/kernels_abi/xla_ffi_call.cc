#include "kernels_abi/xla_ffi_call.h"

#include <string>
#include <utility>
#include <vector>

#include "kernels_abi/xla_ffi_api.h"
#include "kernels_abi/xla_ffi_attributes.h"
#include "kernels_abi/xla_ffi_data_type.h"

namespace plugrt::kernels_abi {
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
  Status status = TakeXlaFfiError(error);
  if (status.ok() && frame.future != nullptr) {
    status = AwaitXlaFfiFuture(frame.future);
    frame.future = nullptr;
  }
  if (!status.ok()) {
    return Status(status.code(),
                  StrCat("XLA FFI handler of custom call '", target, "' failed: ", status.message()));
  }
  return OkStatus();
}

XLA_FFI_CallFrame EmptyFrame(const XlaFfiAttributes& attributes, XLA_FFI_ExecutionContext* ctx) {
  XLA_FFI_CallFrame frame{};
  frame.struct_size = XLA_FFI_CallFrame_STRUCT_SIZE;
  frame.api = XlaFfiApi();
  frame.ctx = ctx;
  frame.stage = ctx->stage;
  frame.args.struct_size = XLA_FFI_Args_STRUCT_SIZE;
  frame.rets.struct_size = XLA_FFI_Rets_STRUCT_SIZE;
  frame.attrs = attributes.attrs();
  frame.future = nullptr;
  return frame;
}

XLA_FFI_Buffer BufferOf(const CustomCallBuffer& buffer) {
  XLA_FFI_Buffer out{};
  out.struct_size = XLA_FFI_Buffer_STRUCT_SIZE;
  out.extension_start = nullptr;
  // Checked at bind time: every operand and result type has a number.
  out.dtype = ToXlaFfiDataType(buffer.type).value_or(XLA_FFI_DataType_INVALID);
  out.data = buffer.data;
  out.rank = static_cast<int64_t>(buffer.dims.size());
  // The C API has no const; handlers read dims only.
  out.dims = const_cast<int64_t*>(buffer.dims.data());
  return out;
}

class XlaFfiHandler final : public CustomCallHandler {
 public:
  XlaFfiHandler(XlaFfiHandlerEntry entry, std::unique_ptr<const XlaFfiAttributes> attributes,
                std::unique_ptr<XlaFfiState> state, std::shared_ptr<const void> keep_alive)
      : keep_alive_(std::move(keep_alive)),
        entry_(entry),
        attributes_(std::move(attributes)),
        state_(std::move(state)) {}

  Status Call(const CustomCallFrame& call) const override {
    const size_t num_args = call.args.size(), num_rets = call.rets.size();
    std::vector<XLA_FFI_Buffer> buffers;
    buffers.reserve(num_args + num_rets);
    for (const CustomCallBuffer& arg : call.args) buffers.push_back(BufferOf(arg));
    for (const CustomCallBuffer& ret : call.rets) buffers.push_back(BufferOf(ret));
    std::vector<XLA_FFI_ArgType> arg_types(num_args, XLA_FFI_ArgType_BUFFER);
    std::vector<XLA_FFI_RetType> ret_types(num_rets, XLA_FFI_RetType_BUFFER);
    std::vector<void*> args(num_args), rets(num_rets);
    for (size_t i = 0; i < num_args; ++i) args[i] = &buffers[i];
    for (size_t i = 0; i < num_rets; ++i) rets[i] = &buffers[num_args + i];

    XLA_FFI_ExecutionContext ctx;
    ctx.stage = XLA_FFI_ExecutionStage_EXECUTE;
    ctx.target = call.target;
    ctx.device_ordinal = static_cast<int32_t>(call.device_ordinal);
    ctx.run_id = call.run_id;
    ctx.state = state_.get();
    ctx.user_data = call.user_data;
    XLA_FFI_CallFrame frame = EmptyFrame(*attributes_, &ctx);
    frame.args.size = static_cast<int64_t>(num_args);
    frame.args.types = arg_types.data();
    frame.args.args = args.data();
    frame.rets.size = static_cast<int64_t>(num_rets);
    frame.rets.types = ret_types.data();
    frame.rets.rets = rets.data();
    return RunStage(call.target, entry_.bundle.execute, frame);
  }

 private:
  std::shared_ptr<const void> keep_alive_;  // destroyed last: may hold the handler's code
  XlaFfiHandlerEntry entry_;
  std::unique_ptr<const XlaFfiAttributes> attributes_;
  std::unique_ptr<XlaFfiState> state_;
};

Status FfiTypeRule(std::string_view target, bool is_result, size_t index,
                   const shlo::Type& type) {
  if (!type.is_tensor() || !ToXlaFfiDataType(type.element_type()) ||
      (is_result && !type.has_static_shape())) {
    return Unimplemented("custom call target '", target, "' (an XLA FFI handler's): ",
                         OperandOrResult(is_result), " ", index, " is ", type.ToString(),
                         "; XLA FFI handlers take tensors",
                         is_result ? " of static shape" : "", " with an XLA data type");
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<const CustomCallHandler>> BindXlaFfiHandler(
    const shlo::Operation& op, std::string_view target, const XlaFfiHandlerEntry& entry,
    std::shared_ptr<const void> keep_alive) {
  PLUGRT_RETURN_IF_ERROR(CheckCustomCallTypes(op, target, &FfiTypeRule));
  auto convert = [&]() -> StatusOr<std::unique_ptr<const XlaFfiAttributes>> {
    PLUGRT_ASSIGN_OR_RETURN(CustomCallAttributes decoded, CustomCallAttributes::FromOperation(op));
    return XlaFfiAttributes::Convert(decoded);
  };
  StatusOr<std::unique_ptr<const XlaFfiAttributes>> attributes = convert();
  if (!attributes.ok()) {
    return Status(attributes.status().code(),
                  StrCat("custom call target '", target, "': ", attributes.status().message()));
  }
  auto state = std::make_unique<XlaFfiState>();
  if (entry.bundle.instantiate != nullptr) {
    XLA_FFI_ExecutionContext ctx;
    ctx.stage = XLA_FFI_ExecutionStage_INSTANTIATE;
    ctx.target = target;
    ctx.state = state.get();
    XLA_FFI_CallFrame frame = EmptyFrame(**attributes, &ctx);
    PLUGRT_RETURN_IF_ERROR(RunStage(target, entry.bundle.instantiate, frame));
  }
  return std::unique_ptr<const CustomCallHandler>(
      new XlaFfiHandler(entry, std::move(*attributes), std::move(state), std::move(keep_alive)));
}

}  // namespace plugrt::kernels_abi
