// plugrt client: Buffer, the RAII owner of a PJRT_Buffer.
#ifndef PLUGRT_CLIENT_BUFFER_H_
#define PLUGRT_CLIENT_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "client/device.h"
#include "client/event.h"
#include "common/layout.h"
#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

namespace internal {
struct ClientHandle;
}

// Move-only; destroying it destroys the PJRT_Buffer. A Buffer keeps the
// PJRT_Client it belongs to alive, so it may outlive the Client object.
class Buffer {
 public:
  Buffer() = default;
  // Takes ownership of `raw`. `owner` (may be null) is kept alive as long as
  // the buffer.
  Buffer(std::shared_ptr<internal::ClientHandle> owner, const PJRT_Api* api, PJRT_Buffer* raw);
  // Inline: results are moved and destroyed on every execute; only a live
  // handle needs the out-of-line Reset.
  ~Buffer() {
    if (raw_ != nullptr) Reset();
  }
  Buffer(Buffer&& other) noexcept
      : owner_(std::move(other.owner_)), api_(other.api_), raw_(std::exchange(other.raw_, nullptr)) {}
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  explicit operator bool() const { return raw_ != nullptr; }

  StatusOr<PJRT_Buffer_Type> element_type() const;
  StatusOr<std::vector<int64_t>> dimensions() const;
  StatusOr<std::vector<int64_t>> unpadded_dimensions() const;
  StatusOr<std::vector<size_t>> dynamic_dimension_indices() const;
  StatusOr<Layout> layout() const;
  StatusOr<size_t> on_device_size() const;
  StatusOr<Device> device() const;
  StatusOr<Memory> memory() const;
  StatusOr<bool> is_on_cpu() const;

  // Frees the device memory; the Buffer object stays valid for is_deleted()
  // and destruction, every other call returns an error.
  Status Delete();
  StatusOr<bool> is_deleted() const;

  StatusOr<Buffer> CopyToDevice(const Device& device) const;
  StatusOr<Buffer> CopyToMemory(const Memory& memory) const;

  // Completes when the buffer's data is ready (or failed).
  StatusOr<Future> ReadyFuture() const;

  StatusOr<uintptr_t> unsafe_pointer() const;
  StatusOr<void*> opaque_device_memory_pointer() const;
  Status IncreaseExternalReferenceCount();
  Status DecreaseExternalReferenceCount();

  // Bytes ToHost needs for the whole buffer in `host_layout` (default: the
  // buffer's own layout).
  StatusOr<size_t> HostSize(const Layout* host_layout = nullptr) const;
  // Starts copying the whole buffer into `dst` (`size` bytes available); `dst`
  // must stay valid until the Future completes.
  StatusOr<Future> ToHostAsync(void* dst, size_t size, const Layout* host_layout = nullptr) const;
  // ToHostAsync and wait.
  Status ToHost(void* dst, size_t size, const Layout* host_layout = nullptr) const;
  // The whole buffer as host bytes in its own layout.
  StatusOr<std::vector<std::byte>> ToHostVector(const Layout* host_layout = nullptr) const;
  // Copies `size` raw device bytes starting at `offset` into `dst`.
  StatusOr<Future> CopyRawToHostAsync(void* dst, int64_t offset, int64_t size) const;
  Status CopyRawToHost(void* dst, int64_t offset, int64_t size) const;

  PJRT_Buffer* raw() const { return raw_; }
  const PJRT_Api* api() const { return api_; }
  // Gives up ownership: the caller destroys the returned buffer.
  PJRT_Buffer* release();

 private:
  void Reset();
  std::shared_ptr<internal::ClientHandle> owner_;
  const PJRT_Api* api_ = nullptr;
  PJRT_Buffer* raw_ = nullptr;
};

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_BUFFER_H_
