// plugrt CPU executor: a stablehlo.custom_call with api_version = 4 served by
// an XLA FFI handler (include/plugrt/xla_ffi_c_api.h) registered through
// PJRT's FFI extension (kernels_abi/xla_ffi_handlers.h).
#ifndef PLUGRT_CPU_EXEC_XLA_FFI_CUSTOM_CALL_H_
#define PLUGRT_CPU_EXEC_XLA_FFI_CUSTOM_CALL_H_

#include <memory>
#include <string_view>

#include "cpu/exec/compiled_op.h"
#include "kernels_abi/xla_ffi_handlers.h"

namespace plugrt::cpu {

// Checks the call's operand and result types (tensors with an XLA data type,
// results of static shape), converts its attributes and runs the handler's
// instantiate stage, if it has one; errors name the op and the target. Each
// execution then runs the execute stage on the call's buffers. The op holds
// `keep_alive` (for a handler a kernel plugin registered: its plugin set,
// which keeps the library loaded).
StatusOr<std::unique_ptr<CompiledOp>> CompileXlaFfiCustomCall(
    const shlo::Operation& op, std::string_view target,
    const kernels_abi::XlaFfiHandlerEntry& entry, std::shared_ptr<const void> keep_alive = nullptr);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_XLA_FFI_CUSTOM_CALL_H_
