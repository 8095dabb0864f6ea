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

#include <memory>
#include <string_view>

#include "common/status.h"
#include "kernels_abi/custom_call_frame.h"

namespace plugrt::kernels_abi {

// Registers `fn` for `target` on `platform` (compared without case; "host"
// names "cpu"). INVALID_ARGUMENT without a name, platform or function;
// registering the same function again is accepted, another one for a taken
// name is ALREADY_EXISTS.
Status RegisterUntypedCustomCall(std::string_view target, std::string_view platform, void* fn);

// The function of `target` for `platform`, or null.
void* FindUntypedCustomCall(std::string_view target, std::string_view platform);

// `fn`, an untyped function of XLA's CPU convention for `api_version` (1:
// out, in; 2: and a status; 3: and the opaque backend_config), bound to the
// call site `op`: tensors of static shape only, since the function gets bare
// pointers. A single result is passed as its buffer, any other count as the
// array of buffers. INVALID_ARGUMENT for another api_version or a
// backend_config that is not a string; UNIMPLEMENTED for a type; each naming
// the target. The handler keeps `keep_alive` until it is destroyed.
StatusOr<std::unique_ptr<const CustomCallHandler>> BindUntypedCustomCall(
    const shlo::Operation& op, std::string_view target, void* fn, int api_version,
    std::shared_ptr<const void> keep_alive = nullptr);

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_UNTYPED_CUSTOM_CALLS_H_
