// plugrt kernel plugins: one custom call as the runtime hands it to a
// handler. The frame is the one internal representation of a call: typed
// buffers for operands and results, the call's attributes, the device.
// plugrt's kernel ABI (include/plugrt/kernel_c_api.h) serves handlers from
// it; an XLA FFI call frame (XLA_FFI_CallFrame: args and rets as typed
// buffers, attrs by name) can be filled from the same frame later, so one
// backend path runs both kinds of handler.
#ifndef PLUGRT_KERNELS_ABI_KERNEL_CALL_FRAME_H_
#define PLUGRT_KERNELS_ABI_KERNEL_CALL_FRAME_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "kernels_abi/kernel_attributes.h"
#include "plugrt/kernel_c_api.h"

namespace plugrt::kernels_abi {

struct KernelCallFrame {
  std::string_view target;
  // The operands (read-only) and results, in the op's order; the buffers'
  // dims and data belong to the caller for the duration of the call.
  std::span<const PLUGRT_KernelInput> inputs;
  std::span<const PLUGRT_KernelOutput> outputs;
  const KernelAttributes* attributes = nullptr;  // never null while a call runs
  int64_t device_ordinal = 0;
  int64_t replica_id = 0;
  int64_t partition_id = 0;
};

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_KERNEL_CALL_FRAME_H_
