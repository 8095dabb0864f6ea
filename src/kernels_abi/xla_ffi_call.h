// plugrt XLA FFI: calling a handler (api_version = 4) with a custom call's
// frame. The call site is bound once at compile time: its types checked,
// its attributes built as XLA_FFI_Attrs, and the handler's instantiate
// stage run (as XLA:CPU does, before any execution, with the attributes but
// no buffers). Each call then fills an XLA_FFI_CallFrame from the shared
// frame (custom_call_frame.h) and runs the execute stage, waiting for a
// future the handler returns.
#ifndef PLUGRT_KERNELS_ABI_XLA_FFI_CALL_H_
#define PLUGRT_KERNELS_ABI_XLA_FFI_CALL_H_

#include <memory>
#include <string_view>

#include "common/status.h"
#include "kernels_abi/custom_call_frame.h"
#include "kernels_abi/xla_ffi_handlers.h"

namespace plugrt::kernels_abi {

// UNIMPLEMENTED for a type XLA FFI cannot carry (tensors with an XLA data
// type, results of static shape), INVALID_ARGUMENT for its attributes, and
// the instantiate stage's error; each naming the target. The handler keeps
// `keep_alive` (what holds the handler's code) until it is destroyed.
StatusOr<std::unique_ptr<const CustomCallHandler>> BindXlaFfiHandler(
    const shlo::Operation& op, std::string_view target, const XlaFfiHandlerEntry& entry,
    std::shared_ptr<const void> keep_alive = nullptr);

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_XLA_FFI_CALL_H_
