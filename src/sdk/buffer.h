// plugrt SDK: the interface a backend implements for device buffers.
#ifndef PLUGRT_SDK_BUFFER_H_
#define PLUGRT_SDK_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.h"
#include "sdk/device.h"
#include "sdk/event.h"
#include "sdk/types.h"

namespace plugrt::sdk {

// One array on one device. The SDK owns each Buffer through its PJRT_Buffer
// handle; Delete() frees the device memory early while the object lives on,
// and every later data access must fail with an error, never crash.
class Buffer {
 public:
  virtual ~Buffer() = default;

  virtual PJRT_Buffer_Type element_type() const = 0;
  virtual const std::vector<int64_t>& dimensions() const = 0;
  virtual StatusOr<std::vector<int64_t>> unpadded_dimensions() const { return dimensions(); }
  // Indices of dimensions whose size is dynamic; none by default.
  virtual StatusOr<std::vector<size_t>> dynamic_dimension_indices() const {
    return std::vector<size_t>{};
  }
  virtual StatusOr<Layout> layout() const { return Layout::RowMajor(dimensions().size()); }
  virtual StatusOr<size_t> on_device_size() const = 0;
  virtual Device* device() const = 0;
  virtual Memory* memory() const = 0;

  virtual void Delete() = 0;
  virtual bool is_deleted() const = 0;
  virtual bool is_on_cpu() const = 0;
  // Ready when the buffer's contents are defined (or carries the error that
  // prevented it).
  virtual StatusOr<EventRef> ready_event() = 0;

  virtual StatusOr<std::unique_ptr<Buffer>> CopyToDevice(Device* device) = 0;
  virtual StatusOr<std::unique_ptr<Buffer>> CopyToMemory(Memory* memory) = 0;

  // Bytes ToHost needs for `host_layout` (row-major when null).
  virtual StatusOr<size_t> HostSize(const Layout* host_layout) const = 0;
  // Copies the contents into `dst` (of `dst_size` bytes) in `host_layout`
  // (row-major when null). The event fires when `dst` holds the data.
  virtual StatusOr<EventRef> ToHost(void* dst, size_t dst_size, const Layout* host_layout) = 0;
  virtual StatusOr<EventRef> CopyRawToHost(void* dst, int64_t offset, int64_t size) {
    (void)dst, (void)offset, (void)size;
    return Unimplemented("PJRT_Buffer_CopyRawToHost is not supported by this backend");
  }

  virtual StatusOr<uintptr_t> unsafe_pointer() {
    return Unimplemented("PJRT_Buffer_UnsafePointer is not supported by this backend");
  }
  virtual Status IncreaseExternalReferenceCount() {
    return Unimplemented("external references are not supported by this backend");
  }
  virtual Status DecreaseExternalReferenceCount() {
    return Unimplemented("external references are not supported by this backend");
  }
  virtual StatusOr<void*> opaque_device_memory_pointer() {
    return Unimplemented("opaque device pointers are not supported by this backend");
  }
};

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_BUFFER_H_
