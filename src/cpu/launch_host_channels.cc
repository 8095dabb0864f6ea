#include "cpu/launch_host_channels.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace plugrt::cpu {
namespace {

// The callback bound to `channel` for device `device_index`, or null; `any`
// tells whether the device was given callbacks of this kind at all.
template <typename Info>
const decltype(Info::callback)* Find(const std::vector<std::vector<Info>>& all,
                                     int64_t device_index, int64_t channel, bool* any) {
  *any = false;
  if (device_index < 0 || static_cast<size_t>(device_index) >= all.size()) return nullptr;
  for (const Info& info : all[device_index]) {
    *any = true;
    if (info.channel_id == channel && info.callback) return &info.callback;
  }
  return nullptr;
}

Status NoCallback(const char* kind, int64_t channel, int64_t device_index, bool any) {
  return FailedPrecondition("no ", kind, " callback for channel ", channel, " on device ",
                            device_index,
                            any ? "" : StrCat(" (the Execute call gave no ", kind,
                                              " callbacks for it)"));
}

}  // namespace

Status LaunchHostChannels::Send(int64_t device_index, int64_t channel, std::string_view bytes) {
  bool any = false;
  const sdk::SendCallback* callback = Find(options_.send_callbacks, device_index, channel, &any);
  if (callback == nullptr) return NoCallback("send", channel, device_index, any);
  Status status = (*callback)(bytes.data(), bytes.size(), bytes.size(), /*done=*/true);
  if (status.ok()) return status;
  return Status(status.code(), StrCat("the send callback of channel ", channel, " failed: ",
                                      status.message()));
}

Status LaunchHostChannels::Recv(int64_t device_index, int64_t channel, void* out, size_t size) {
  bool any = false;
  const sdk::RecvCallback* callback = Find(options_.recv_callbacks, device_index, channel, &any);
  if (callback == nullptr) return NoCallback("recv", channel, device_index, any);
  auto stream = std::make_shared<sdk::CopyToDeviceStream>(static_cast<int64_t>(size),
                                                          /*granule=*/1);
  (*callback)(stream);
  StatusOr<std::string> bytes = stream->Await(recv_timeout_);
  if (!bytes.ok()) {
    return Status(bytes.status().code(),
                  StrCat("waiting for the recv callback of channel ", channel, ": ",
                         bytes.status().message(),
                         " (the CPU plugin's host_recv_timeout_ms option sets the limit)"));
  }
  if (bytes->size() != size) {
    return Internal("the recv stream of channel ", channel, " delivered ", bytes->size(),
                    " bytes for ", size);
  }
  if (size > 0) std::memcpy(out, bytes->data(), size);
  return OkStatus();
}

}  // namespace plugrt::cpu
