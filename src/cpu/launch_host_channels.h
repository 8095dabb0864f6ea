// plugrt CPU backend: the executor's HostChannels served by the host
// callbacks of one PJRT launch (PJRT_ExecuteOptions' send/recv callbacks,
// one list per device, bound to channels by id).
#ifndef PLUGRT_CPU_LAUNCH_HOST_CHANNELS_H_
#define PLUGRT_CPU_LAUNCH_HOST_CHANNELS_H_

#include <chrono>

#include "cpu/exec/host_channels.h"
#include "sdk/executable.h"

namespace plugrt::cpu {

class LaunchHostChannels final : public HostChannels {
 public:
  // `options` must outlive this object; a recv waits at most `recv_timeout`
  // for the host's bytes.
  LaunchHostChannels(const sdk::ExecuteOptions& options, std::chrono::milliseconds recv_timeout)
      : options_(options), recv_timeout_(recv_timeout) {}

  Status Send(int64_t device_index, int64_t channel, std::string_view bytes) override;
  Status Recv(int64_t device_index, int64_t channel, void* out, size_t size) override;

 private:
  const sdk::ExecuteOptions& options_;
  std::chrono::milliseconds recv_timeout_;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_LAUNCH_HOST_CHANNELS_H_
