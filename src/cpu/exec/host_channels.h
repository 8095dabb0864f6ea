// plugrt CPU executor: how a running program talks to its host through
// stablehlo.send / stablehlo.recv with is_host_transfer.
//
// The executor owns this small interface and nothing behind it: a PJRT
// launch serves it from the execute options' host callbacks (cpu_loaded_executable.cc),
// the conformance harness's interpreter.run_parallel from queues between its
// processes (run_parallel.cc). Messages name the channel and device; the ops
// add their location.
#ifndef PLUGRT_CPU_EXEC_HOST_CHANNELS_H_
#define PLUGRT_CPU_EXEC_HOST_CHANNELS_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/status.h"

namespace plugrt::cpu {

class HostChannels {
 public:
  virtual ~HostChannels() = default;
  // Hands the host `bytes` (the op's operands, dense row-major, concatenated)
  // on `channel` for the device at `device_index` of the launch. Fails with
  // FAILED_PRECONDITION when nothing serves that channel, or with the host's
  // own error.
  virtual Status Send(int64_t device_index, int64_t channel, std::string_view bytes) = 0;
  // Fills `out` with exactly `size` bytes from the host on `channel`. Waits
  // for them within a limit of the implementation's (DEADLINE_EXCEEDED after
  // it), never forever.
  virtual Status Recv(int64_t device_index, int64_t channel, void* out, size_t size) = 0;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_HOST_CHANNELS_H_
