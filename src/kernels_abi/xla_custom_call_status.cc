// The two C functions of include/plugrt/xla_custom_call_status.h. This file
// holds nothing else: the CPU plugin compiles it in directly to export them
// (the static archives' symbols stay hidden there), and programs linking the
// archive pull it in only when a handler of theirs calls them.
#include "kernels_abi/xla_custom_call_status.h"

#include <cstring>

extern "C" {

__attribute__((visibility("default"))) void XlaCustomCallStatusSetSuccess(
    XlaCustomCallStatus* status) {
  if (status != nullptr) status->failure.reset();
}

__attribute__((visibility("default"))) void XlaCustomCallStatusSetFailure(
    XlaCustomCallStatus* status, const char* message, size_t message_len) {
  if (status == nullptr) return;
  if (message == nullptr) {
    status->failure.emplace("(no message)");
    return;
  }
  status->failure.emplace(message, strnlen(message, message_len));
}

}  // extern "C"
