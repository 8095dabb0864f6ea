// plugrt client: what an Execute call may ask of the plugin beyond its
// arguments, and (internal) its PJRT_ExecuteOptions form.
#ifndef PLUGRT_CLIENT_EXECUTE_OPTIONS_H_
#define PLUGRT_CLIENT_EXECUTE_OPTIONS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "client/device.h"
#include "client/event.h"
#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

// The plugin's side of one stablehlo.recv from the host: add the bytes the
// op expects (TotalBytes in all, in chunks that GranuleSize divides). Owns
// the plugin's stream handle; movable, usable from any thread.
class CopyToDeviceStream {
 public:
  CopyToDeviceStream(const PJRT_Api* api, PJRT_CopyToDeviceStream* stream)
      : api_(api), stream_(stream) {}
  ~CopyToDeviceStream();
  CopyToDeviceStream(CopyToDeviceStream&& other) noexcept;
  CopyToDeviceStream& operator=(CopyToDeviceStream&& other) noexcept;
  CopyToDeviceStream(const CopyToDeviceStream&) = delete;
  CopyToDeviceStream& operator=(const CopyToDeviceStream&) = delete;

  // Copies `size` bytes and queues them; the future reports the transfer
  // (an error when the chunk does not fit the stream).
  StatusOr<Future> AddChunk(const void* data, size_t size);
  StatusOr<int64_t> TotalBytes() const;
  StatusOr<int64_t> GranuleSize() const;
  StatusOr<int64_t> CurrentBytes() const;

 private:
  const PJRT_Api* api_ = nullptr;
  PJRT_CopyToDeviceStream* stream_ = nullptr;
};

// Gets the bytes of one host send (dense, row-major): `data`/`size` of this
// chunk, the transfer's total size, and whether this is its last chunk. A
// non-OK status fails the execution with its message.
using HostSendCallback =
    std::function<Status(const void* data, size_t size, size_t total_size, bool done)>;
// Given the stream of one host recv; fills it now or later from any thread.
using HostRecvCallback = std::function<void(CopyToDeviceStream stream)>;

struct HostSendCallbackInfo {
  int64_t channel_id = 0;  // the op's channel_handle handle
  HostSendCallback callback;
};
struct HostRecvCallbackInfo {
  int64_t channel_id = 0;
  HostRecvCallback callback;
};

struct ExecuteOptions {
  // Nonzero: shared by all parts of one multi-device launch.
  int launch_id = 0;
  // Arguments the plugin must not donate (alias into outputs).
  std::vector<int64_t> non_donatable_input_indices;
  // Set: run on this one addressable device only (one argument list).
  std::optional<Device> execute_device;
  // Host callbacks per device, [device][op], devices in the order of the
  // argument lists. Empty: none. Otherwise one list per device, all lists of
  // the same length. The callables are kept until the execution ends.
  std::vector<std::vector<HostSendCallbackInfo>> send_callbacks;
  std::vector<std::vector<HostRecvCallbackInfo>> recv_callbacks;
  // An execute context made through the plugin's table
  // (PJRT_ExecuteContext_Create; user data for XLA FFI handlers). Not
  // owned; the plugin keeps what it needs of it during the execution.
  PJRT_ExecuteContext* context = nullptr;
};

namespace internal {

// The PJRT_ExecuteOptions for one Execute call over `num_devices` devices,
// valid while this object and `options` live (the call's duration): the
// non-donatable indices point into `options`, the rest is owned here. The
// host callbacks' state is shared: hand it to KeepCallbacksAliveUntil so it
// outlives an asynchronous run. `api` (the plugin's table) is needed for recv
// callbacks.
class CExecuteOptions {
 public:
  static StatusOr<CExecuteOptions> Build(const ExecuteOptions& options, size_t num_devices,
                                         const PJRT_Api* api = nullptr);
  CExecuteOptions(CExecuteOptions&&) = default;
  CExecuteOptions& operator=(CExecuteOptions&&) = default;

  PJRT_ExecuteOptions* get() { return &c_; }

  // Keeps the host callbacks alive until every one of `device_complete` has
  // fired (no-op without callbacks).
  void KeepCallbacksAliveUntil(std::span<Future> device_complete);

  struct CallbackState;

 private:
  CExecuteOptions() = default;

  PJRT_ExecuteOptions c_{};
  std::shared_ptr<CallbackState> callbacks_;
};

}  // namespace internal
}  // namespace plugrt

#endif  // PLUGRT_CLIENT_EXECUTE_OPTIONS_H_
