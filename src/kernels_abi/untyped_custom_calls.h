// plugrt untyped custom calls: the process-wide registry of XLA's untyped
// ("legacy") custom-call targets by name and platform, XLA's
// CustomCallTargetRegistry. Targets arrive through PJRT's FFI extension
// (PJRT_FFI_Register_Handler with api_version 0) and serve
// `stablehlo.custom_call` ops with api_version 1, 2 or 3; the op's version
// says which C signature the function has
// (include/plugrt/xla_custom_call_status.h). As in XLA, they belong to the
// process and stay registered.
#ifndef PLUGRT_KERNELS_ABI_UNTYPED_CUSTOM_CALLS_H_
#define PLUGRT_KERNELS_ABI_UNTYPED_CUSTOM_CALLS_H_

#include <string_view>

#include "common/status.h"

namespace plugrt::kernels_abi {

// Registers `fn` for `target` on `platform` (compared without case; "host"
// names "cpu"). INVALID_ARGUMENT without a name, platform or function;
// registering the same function again is accepted, another one for a taken
// name is ALREADY_EXISTS.
Status RegisterUntypedCustomCall(std::string_view target, std::string_view platform, void* fn);

// The function of `target` for `platform`, or null.
void* FindUntypedCustomCall(std::string_view target, std::string_view platform);

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_UNTYPED_CUSTOM_CALLS_H_
