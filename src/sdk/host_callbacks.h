// plugrt SDK: host callbacks of one execution, the C++ side of
// PJRT_SendCallbackInfo / PJRT_RecvCallbackInfo.
//
// A program's stablehlo.send with is_host_transfer hands its bytes to the
// send callback bound to its channel; a stablehlo.recv with is_host_transfer
// hands the recv callback of its channel a CopyToDeviceStream and waits until
// the host has added all the bytes it expects.
#ifndef PLUGRT_SDK_HOST_CALLBACKS_H_
#define PLUGRT_SDK_HOST_CALLBACKS_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt::sdk {

// The bytes a host callback feeds to one recv op. Thread-safe: the host adds
// chunks from any thread while the executor waits.
class CopyToDeviceStream {
 public:
  CopyToDeviceStream(int64_t total_bytes, int64_t granule_size_in_bytes);

  int64_t total_bytes() const { return total_bytes_; }
  int64_t granule_size_in_bytes() const { return granule_; }
  int64_t current_bytes() const;

  // Appends `size` bytes. INVALID_ARGUMENT when the stream is already full,
  // the bytes would exceed total_bytes, or `size` is not a multiple of the
  // granule; FAILED_PRECONDITION once the receiver has given up.
  Status AddChunk(const void* data, size_t size);

  // Blocks until all total_bytes arrived (returns them) or `timeout` passed
  // (DEADLINE_EXCEEDED); afterwards the stream refuses further chunks.
  StatusOr<std::string> Await(std::chrono::milliseconds timeout);

 private:
  const int64_t total_bytes_;
  const int64_t granule_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::string data_;
  bool closed_ = false;  // the receiver took the data or gave up
};

// Called once per send op execution with the tensor's bytes (dense,
// row-major). `done` marks the last chunk of the transfer. A non-OK status
// fails the execution.
using SendCallback =
    std::function<Status(const void* data, size_t size, size_t total_size_in_bytes, bool done)>;
// Called once per recv op execution; the callee fills the stream (now or
// later, from any thread).
using RecvCallback = std::function<void(std::shared_ptr<CopyToDeviceStream> stream)>;

struct SendCallbackInfo {
  int64_t channel_id = 0;
  SendCallback callback;
};
struct RecvCallbackInfo {
  int64_t channel_id = 0;
  RecvCallback callback;
};

// SDK-internal (api_stream.cc): the PJRT_CopyToDeviceStream_* slots, and
// the C callbacks of PJRT_ExecuteOptions turned into the forms above for
// `num_devices` devices. `fn` names the entry point in errors.
void FillStreamSlots(PJRT_Api& api);
Status ConvertHostCallbacks(const PJRT_ExecuteOptions& c_options, size_t num_devices,
                            const char* fn, std::vector<std::vector<SendCallbackInfo>>* send,
                            std::vector<std::vector<RecvCallbackInfo>>* recv);

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_HOST_CALLBACKS_H_
