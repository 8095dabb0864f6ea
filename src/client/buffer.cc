#include "client/buffer.h"

#include <memory>
#include <optional>
#include <utility>

#include "client/api_call.h"
#include "client/client_handle.h"

namespace plugrt {

using internal::Call;
using internal::NewArgs;

Buffer::Buffer(std::shared_ptr<internal::ClientHandle> owner, const PJRT_Api* api,
               PJRT_Buffer* raw)
    : owner_(std::move(owner)), api_(api), raw_(raw) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    Reset();
    owner_ = std::move(other.owner_);
    api_ = other.api_;
    raw_ = std::exchange(other.raw_, nullptr);
  }
  return *this;
}

void Buffer::Reset() {
  if (raw_ != nullptr) {
    auto args = NewArgs<PJRT_Buffer_Destroy_Args>();
    args.buffer = std::exchange(raw_, nullptr);
    // A destructor has nowhere to report a failed destroy.
    Call(api_, args).IgnoreError();
  }
  owner_.reset();
}

PJRT_Buffer* Buffer::release() { return std::exchange(raw_, nullptr); }

StatusOr<PJRT_Buffer_Type> Buffer::element_type() const {
  auto args = NewArgs<PJRT_Buffer_ElementType_Args>();
  args.buffer = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.type;
}

StatusOr<std::vector<int64_t>> Buffer::dimensions() const {
  auto args = NewArgs<PJRT_Buffer_Dimensions_Args>();
  args.buffer = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  if (args.num_dims == 0) return std::vector<int64_t>();
  if (args.dims == nullptr) return Internal("plugin returned null dimensions");
  return std::vector<int64_t>(args.dims, args.dims + args.num_dims);
}

StatusOr<std::vector<int64_t>> Buffer::unpadded_dimensions() const {
  auto args = NewArgs<PJRT_Buffer_UnpaddedDimensions_Args>();
  args.buffer = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  if (args.num_dims == 0) return std::vector<int64_t>();
  if (args.unpadded_dims == nullptr) return Internal("plugin returned null unpadded dimensions");
  return std::vector<int64_t>(args.unpadded_dims, args.unpadded_dims + args.num_dims);
}

StatusOr<std::vector<size_t>> Buffer::dynamic_dimension_indices() const {
  auto args = NewArgs<PJRT_Buffer_DynamicDimensionIndices_Args>();
  args.buffer = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  if (args.num_dynamic_dims == 0) return std::vector<size_t>();
  if (args.dynamic_dim_indices == nullptr) {
    return Internal("plugin returned null dynamic dimension indices");
  }
  return std::vector<size_t>(args.dynamic_dim_indices,
                             args.dynamic_dim_indices + args.num_dynamic_dims);
}

StatusOr<Layout> Buffer::layout() const {
  auto args = NewArgs<PJRT_Buffer_GetMemoryLayout_Args>();
  args.buffer = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return Layout::FromC(args.layout);
}

StatusOr<size_t> Buffer::on_device_size() const {
  auto args = NewArgs<PJRT_Buffer_OnDeviceSizeInBytes_Args>();
  args.buffer = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.on_device_size_in_bytes;
}

StatusOr<Device> Buffer::device() const {
  auto args = NewArgs<PJRT_Buffer_Device_Args>();
  args.buffer = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  if (args.device == nullptr) return Internal("plugin returned a null device for a buffer");
  return Device(api_, args.device);
}

StatusOr<Memory> Buffer::memory() const {
  auto args = NewArgs<PJRT_Buffer_Memory_Args>();
  args.buffer = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  if (args.memory == nullptr) return Internal("plugin returned a null memory for a buffer");
  return Memory(api_, args.memory);
}

StatusOr<bool> Buffer::is_on_cpu() const {
  auto args = NewArgs<PJRT_Buffer_IsOnCpu_Args>();
  args.buffer = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.is_on_cpu;
}

Status Buffer::Delete() {
  auto args = NewArgs<PJRT_Buffer_Delete_Args>();
  args.buffer = raw_;
  return Call(api_, args);
}

StatusOr<bool> Buffer::is_deleted() const {
  auto args = NewArgs<PJRT_Buffer_IsDeleted_Args>();
  args.buffer = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.is_deleted;
}

StatusOr<Buffer> Buffer::CopyToDevice(const Device& device) const {
  auto args = NewArgs<PJRT_Buffer_CopyToDevice_Args>();
  args.buffer = raw_;
  args.dst_device = device.raw();
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  if (args.dst_buffer == nullptr) return Internal("plugin returned a null buffer from a copy");
  return Buffer(owner_, api_, args.dst_buffer);
}

StatusOr<Buffer> Buffer::CopyToMemory(const Memory& memory) const {
  auto args = NewArgs<PJRT_Buffer_CopyToMemory_Args>();
  args.buffer = raw_;
  args.dst_memory = memory.raw();
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  if (args.dst_buffer == nullptr) return Internal("plugin returned a null buffer from a copy");
  return Buffer(owner_, api_, args.dst_buffer);
}

StatusOr<Future> Buffer::ReadyFuture() const {
  auto args = NewArgs<PJRT_Buffer_ReadyEvent_Args>();
  args.buffer = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  if (args.event == nullptr) return Internal("plugin returned a null ready event");
  return Future(api_, args.event);
}

StatusOr<uintptr_t> Buffer::unsafe_pointer() const {
  auto args = NewArgs<PJRT_Buffer_UnsafePointer_Args>();
  args.buffer = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.buffer_pointer;
}

StatusOr<void*> Buffer::opaque_device_memory_pointer() const {
  auto args = NewArgs<PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args>();
  args.buffer = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.device_memory_ptr;
}

Status Buffer::IncreaseExternalReferenceCount() {
  auto args = NewArgs<PJRT_Buffer_IncreaseExternalReferenceCount_Args>();
  args.buffer = raw_;
  return Call(api_, args);
}

Status Buffer::DecreaseExternalReferenceCount() {
  auto args = NewArgs<PJRT_Buffer_DecreaseExternalReferenceCount_Args>();
  args.buffer = raw_;
  return Call(api_, args);
}

StatusOr<size_t> Buffer::HostSize(const Layout* host_layout) const {
  std::optional<CLayoutView> c_layout;
  if (host_layout != nullptr) c_layout.emplace(*host_layout);
  auto args = NewArgs<PJRT_Buffer_ToHostBuffer_Args>();
  args.src = raw_;
  args.host_layout = c_layout ? c_layout->get() : nullptr;
  args.dst = nullptr;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  // A size query starts no copy, but a plugin may still hand out an event.
  Future ignored(api_, args.event);
  return args.dst_size;
}

StatusOr<Future> Buffer::ToHostAsync(void* dst, size_t size, const Layout* host_layout) const {
  if (dst == nullptr) return InvalidArgument("Buffer::ToHostAsync needs a destination");
  std::optional<CLayoutView> c_layout;
  if (host_layout != nullptr) c_layout.emplace(*host_layout);
  auto args = NewArgs<PJRT_Buffer_ToHostBuffer_Args>();
  args.src = raw_;
  args.host_layout = c_layout ? c_layout->get() : nullptr;
  args.dst = dst;
  args.dst_size = size;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return Future(api_, args.event);
}

Status Buffer::ToHost(void* dst, size_t size, const Layout* host_layout) const {
  PLUGRT_ASSIGN_OR_RETURN(Future done, ToHostAsync(dst, size, host_layout));
  return done.Await();
}

StatusOr<std::vector<std::byte>> Buffer::ToHostVector(const Layout* host_layout) const {
  PLUGRT_ASSIGN_OR_RETURN(size_t size, HostSize(host_layout));
  std::vector<std::byte> bytes(size);
  // A zero-byte buffer still goes through the plugin (it may report errors,
  // e.g. a deleted buffer); a scratch byte gives it a valid pointer.
  if (bytes.empty()) {
    std::byte scratch{};
    PLUGRT_RETURN_IF_ERROR(ToHost(&scratch, 0, host_layout));
    return bytes;
  }
  PLUGRT_RETURN_IF_ERROR(ToHost(bytes.data(), bytes.size(), host_layout));
  return bytes;
}

StatusOr<Future> Buffer::CopyRawToHostAsync(void* dst, int64_t offset, int64_t size) const {
  auto args = NewArgs<PJRT_Buffer_CopyRawToHost_Args>();
  args.buffer = raw_;
  args.dst = dst;
  args.offset = offset;
  args.transfer_size = size;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return Future(api_, args.event);
}

Status Buffer::CopyRawToHost(void* dst, int64_t offset, int64_t size) const {
  PLUGRT_ASSIGN_OR_RETURN(Future done, CopyRawToHostAsync(dst, offset, size));
  return done.Await();
}

}  // namespace plugrt
