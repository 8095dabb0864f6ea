#include "cpu/cpu_buffer.h"

#include <cstring>

#include "cpu/cpu_client.h"
#include "cpu/cpu_device.h"

namespace plugrt::cpu {

CpuBuffer::CpuBuffer(CpuClient* client, CpuMemory* memory, const ElementFormat& format,
                     std::vector<int64_t> dims, StorageRef storage, sdk::EventRef ready)
    : client_(client),
      memory_(memory),
      format_(format),
      dims_(std::move(dims)),
      device_bytes_(0),
      storage_(std::move(storage)),
      ready_(std::move(ready)) {
  int64_t count = 1;
  for (int64_t dim : dims_) count *= dim;
  device_bytes_ = DeviceByteSize(format_, count);
}

CpuBuffer::~CpuBuffer() = default;

sdk::Device* CpuBuffer::device() const { return memory_->device(); }

void CpuBuffer::Delete() {
  StorageRef released;
  {
    std::lock_guard<SpinLock> lock(mu_);
    deleted_ = true;
    released = std::move(storage_);
  }
  // Dropped outside the lock: releasing aliased storage runs caller code
  // (done_with_host_buffer callbacks, a view's on_delete).
}

bool CpuBuffer::is_deleted() const {
  std::lock_guard<SpinLock> lock(mu_);
  return deleted_;
}

Status CpuBuffer::CheckLiveLocked(std::string_view operation) const {
  if (donated_) {
    return FailedPrecondition(operation,
                              ": buffer has been donated to an execution and can no longer be used");
  }
  if (deleted_) return FailedPrecondition(operation, ": buffer has been deleted");
  return OkStatus();
}

StatusOr<CpuBuffer::LiveState> CpuBuffer::Live(std::string_view operation) const {
  std::lock_guard<SpinLock> lock(mu_);
  PLUGRT_RETURN_IF_ERROR(CheckLiveLocked(operation));
  return LiveState{storage_, ready_};
}

StatusOr<CpuBuffer::Donation> CpuBuffer::Donate() {
  std::lock_guard<SpinLock> lock(mu_);
  if (donated_) {
    return FailedPrecondition("buffer has already been donated to an execution");
  }
  if (deleted_) return FailedPrecondition("buffer has been deleted");
  Donation donation;
  // Every holder of the storage (a pending transfer or copy, an external
  // reference's hold) owns a reference; ours is the only one when the count
  // is 1. The buffer is deleted below, so no new holder can appear.
  donation.exclusive = storage_ != nullptr && storage_.use_count() == 1 &&
                       external_references_ == 0 && storage_->owned() && storage_->writable();
  donation.storage = std::move(storage_);
  donation.ready = ready_;
  deleted_ = true;
  donated_ = true;
  return donation;
}

StatusOr<StorageRef> CpuBuffer::LiveStorage(std::string_view operation, bool* defined) const {
  StorageRef storage;
  {
    std::lock_guard<SpinLock> lock(mu_);
    if (deleted_) return CheckLiveLocked(operation);
    storage = storage_;
  }
  // ready_ is set once, at construction: read outside the lock.
  *defined = ready_->IsReady() && ready_->status().ok();
  return storage;
}

StatusOr<StorageRef> CpuBuffer::storage() const {
  PLUGRT_ASSIGN_OR_RETURN(LiveState live, Live("storage"));
  return live.storage;
}

StatusOr<sdk::EventRef> CpuBuffer::definition_event() const {
  PLUGRT_ASSIGN_OR_RETURN(LiveState live, Live("definition_event"));
  return live.ready;
}

StatusOr<sdk::EventRef> CpuBuffer::ready_event() {
  std::lock_guard<SpinLock> lock(mu_);
  PLUGRT_RETURN_IF_ERROR(CheckLiveLocked("ReadyEvent"));
  return ready_;  // the event alone (Live would copy the storage's count too)
}

sdk::EventRef CpuBuffer::CopyWhenReady(const sdk::EventRef& ready, size_t bytes,
                                       std::function<void()> copy) const {
  if (ready->IsReady()) {
    Status status = ready->status();
    if (!status.ok()) return sdk::Event::MakeReady(std::move(status));
    if (bytes <= kInlineCopyBytes) {
      copy();
      return sdk::Event::MakeReady();
    }
  }
  // The copy (and the storage it holds) lives in one shared slot that the
  // task empties before signalling, so that by the time the caller sees the
  // event no reference of ours keeps the storage, and its accounting, alive.
  auto pending = std::make_shared<std::function<void()>>(std::move(copy));
  sdk::EventRef done = sdk::Event::Create();
  client_->RunWhenReady(ready, [pending, done](const Status& status) {
    std::function<void()> work = std::move(*pending);
    *pending = nullptr;
    if (status.ok()) work();
    work = nullptr;
    done->Set(status);
  });
  return done;
}

StatusOr<std::unique_ptr<sdk::Buffer>> CpuBuffer::CopyToDevice(sdk::Device* device) {
  CpuDevice* target = client_->FindDevice(device);
  if (target == nullptr) {
    return InvalidArgument("CopyToDevice: the destination device does not belong to this client");
  }
  return CopyToMemory(target->device_memory());
}

StatusOr<std::unique_ptr<sdk::Buffer>> CpuBuffer::CopyToMemory(sdk::Memory* memory) {
  CpuMemory* target = client_->FindMemory(memory);
  if (target == nullptr) {
    return InvalidArgument("CopyToMemory: the destination memory does not belong to this client");
  }
  PLUGRT_ASSIGN_OR_RETURN(LiveState live, Live("CopyToMemory"));
  PLUGRT_ASSIGN_OR_RETURN(StorageRef copy,
                          BufferStorage::Allocate(device_bytes_, target->accounting()));
  sdk::EventRef copied = CopyWhenReady(live.ready, device_bytes_, [src = live.storage, dst = copy] {
    std::memcpy(dst->data(), src->data(), src->size());
  });
  return std::unique_ptr<sdk::Buffer>(
      new CpuBuffer(client_, target, format_, dims_, std::move(copy), std::move(copied)));
}

StatusOr<size_t> CpuBuffer::HostSize(const sdk::Layout* host_layout) const {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides,
                          HostStridesForLayout(format_, dims_, host_layout));
  return HostSpan(format_, dims_, strides);
}

StatusOr<sdk::EventRef> CpuBuffer::ToHost(void* dst, size_t dst_size,
                                          const sdk::Layout* host_layout) {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides,
                          HostStridesForLayout(format_, dims_, host_layout));
  const size_t needed = HostSpan(format_, dims_, strides);
  if (dst_size < needed) {
    return InvalidArgument("ToHostBuffer: the destination holds ", dst_size,
                           " bytes but the array needs ", needed, " bytes");
  }
  if (dst == nullptr && needed > 0) {
    return InvalidArgument("ToHostBuffer: the destination pointer is null");
  }
  PLUGRT_ASSIGN_OR_RETURN(LiveState live, Live("ToHostBuffer"));
  return CopyWhenReady(live.ready, device_bytes_,
                       [format = format_, dims = dims_, src = live.storage, dst,
                        strides = std::move(strides), bytes = device_bytes_] {
                         TracedTransfer traced("device to host", bytes);
                         CopyDeviceToHost(format, dims, src->data(), dst, strides);
                       });
}

StatusOr<sdk::EventRef> CpuBuffer::CopyRawToHost(void* dst, int64_t offset, int64_t size) {
  const int64_t total = static_cast<int64_t>(device_bytes_);
  if (offset < 0 || size < 0 || offset > total || size > total - offset) {
    return InvalidArgument("CopyRawToHost: range [", offset, ", ", offset, " + ", size,
                           ") is outside the buffer's ", total, " bytes on the device");
  }
  if (dst == nullptr && size > 0) {
    return InvalidArgument("CopyRawToHost: the destination pointer is null");
  }
  PLUGRT_ASSIGN_OR_RETURN(LiveState live, Live("CopyRawToHost"));
  return CopyWhenReady(live.ready, static_cast<size_t>(size),
                       [src = live.storage, dst, offset, size] {
                         TracedTransfer traced("device to host", static_cast<size_t>(size));
                         std::memcpy(dst, static_cast<const char*>(src->data()) + offset,
                                     static_cast<size_t>(size));
                       });
}

// An execution output gets its bytes when the execution ends (see
// BufferStorage::Deferred): a pointer to them waits for that.
Status CpuBuffer::AwaitSettled(const LiveState& live) {
  if (!live.storage->deferred()) return OkStatus();
  Status ready = live.ready->Await();
  if (!ready.ok()) return ready;
  if (live.storage->deferred()) return Internal("buffer memory was never settled");
  return OkStatus();
}

StatusOr<uintptr_t> CpuBuffer::unsafe_pointer() {
  PLUGRT_ASSIGN_OR_RETURN(LiveState live, Live("UnsafePointer"));
  PLUGRT_RETURN_IF_ERROR(AwaitSettled(live));
  return reinterpret_cast<uintptr_t>(live.storage->data());
}

StatusOr<void*> CpuBuffer::opaque_device_memory_pointer() {
  PLUGRT_ASSIGN_OR_RETURN(LiveState live, Live("OpaqueDeviceMemoryDataPointer"));
  PLUGRT_RETURN_IF_ERROR(AwaitSettled(live));
  return live.storage->data();
}

Status CpuBuffer::IncreaseExternalReferenceCount() {
  std::lock_guard<SpinLock> lock(mu_);
  if (deleted_) {
    return FailedPrecondition("IncreaseExternalReferenceCount: buffer has been ",
                              donated_ ? "donated to an execution" : "deleted");
  }
  if (external_references_++ == 0) external_hold_ = storage_;
  return OkStatus();
}

Status CpuBuffer::DecreaseExternalReferenceCount() {
  StorageRef released;
  {
    std::lock_guard<SpinLock> lock(mu_);
    if (external_references_ == 0) {
      return FailedPrecondition(
          "DecreaseExternalReferenceCount: the buffer has no external references to release");
    }
    if (--external_references_ == 0) released = std::move(external_hold_);
  }
  return OkStatus();
}

}  // namespace plugrt::cpu
