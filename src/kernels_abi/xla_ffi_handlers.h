// plugrt XLA FFI: the process-wide registry of XLA FFI handlers by custom
// call target and platform. Handlers arrive through PJRT's FFI extension
// (PJRT_FFI_Register_Handler) or XLA_FFI_Handler_Register; as in XLA, they
// belong to the process (every client sees them) and stay registered.
#ifndef PLUGRT_KERNELS_ABI_XLA_FFI_HANDLERS_H_
#define PLUGRT_KERNELS_ABI_XLA_FFI_HANDLERS_H_

#include <optional>
#include <string_view>

#include "common/status.h"
#include "plugrt/xla_ffi_c_api.h"

namespace plugrt::kernels_abi {

struct XlaFfiHandlerEntry {
  XLA_FFI_Handler_Bundle bundle{};
  XLA_FFI_Handler_Traits traits = 0;
};

// Registers `bundle` for `target` on `platform` (compared without case;
// "host" names "cpu"). INVALID_ARGUMENT without a name, platform or execute
// handler; registering the same bundle again is accepted, a different one
// for a taken name is ALREADY_EXISTS.
Status RegisterXlaFfiHandler(std::string_view target, std::string_view platform,
                             const XLA_FFI_Handler_Bundle& bundle, XLA_FFI_Handler_Traits traits);

// The handler of `target` for `platform`, if any.
std::optional<XlaFfiHandlerEntry> FindXlaFfiHandler(std::string_view target,
                                                    std::string_view platform);

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_XLA_FFI_HANDLERS_H_
