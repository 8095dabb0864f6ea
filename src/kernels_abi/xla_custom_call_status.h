// plugrt untyped custom calls: the runtime's side of XlaCustomCallStatus
// (include/plugrt/xla_custom_call_status.h). The struct is defined here, in
// one place, so the two exported C functions and the executor that reads the
// outcome agree on it.
#ifndef PLUGRT_KERNELS_ABI_XLA_CUSTOM_CALL_STATUS_H_
#define PLUGRT_KERNELS_ABI_XLA_CUSTOM_CALL_STATUS_H_

#include <optional>
#include <string>

#include "plugrt/xla_custom_call_status.h"

struct XlaCustomCallStatus_ {
  std::optional<std::string> failure;  // set by XlaCustomCallStatusSetFailure
};

#endif  // PLUGRT_KERNELS_ABI_XLA_CUSTOM_CALL_STATUS_H_
