#include "cpu/buffer_storage.h"

#include <new>

#include "cpu/kernels/host_memory.h"

namespace plugrt::cpu {

StatusOr<std::shared_ptr<BufferStorage>> BufferStorage::Allocate(
    size_t size, std::shared_ptr<MemoryAccounting> accounting) {
  // A zero-byte array still gets a distinct, valid address.
  void* data = AllocateHostMemory(size);
  if (data == nullptr) {
    return ResourceExhausted("cannot allocate ", size, " bytes of CPU device memory");
  }
  auto storage = std::make_shared<BufferStorage>(Key());
  storage->data_ = data;
  storage->size_ = size;
  storage->owned_ = true;
  storage->accounting_ = std::move(accounting);
  if (storage->accounting_) storage->accounting_->RecordAllocation(static_cast<int64_t>(size));
  return storage;
}

StatusOr<std::shared_ptr<BufferStorage>> BufferStorage::Deferred(
    size_t size, std::shared_ptr<MemoryAccounting> accounting) {
  if (size == 0) return Allocate(size, std::move(accounting));
  auto storage = std::make_shared<BufferStorage>(Key());
  storage->size_ = size;
  storage->owned_ = true;
  storage->accounting_ = std::move(accounting);
  if (storage->accounting_) storage->accounting_->RecordAllocation(static_cast<int64_t>(size));
  return storage;
}

void BufferStorage::Adopt(std::shared_ptr<void> keepalive, void* data) {
  adopted_ = std::move(keepalive);
  data_ = data;
}

Status BufferStorage::Materialize() {
  data_ = AllocateHostMemory(size_);
  if (data_ == nullptr) {
    return ResourceExhausted("cannot allocate ", size_, " bytes of CPU device memory");
  }
  return OkStatus();
}

std::shared_ptr<BufferStorage> BufferStorage::Alias(void* data, size_t size, bool writable,
                                                    std::function<void()> on_release) {
  auto storage = std::make_shared<BufferStorage>(Key());
  storage->data_ = data;
  storage->size_ = size;
  storage->owned_ = false;
  storage->writable_ = writable;
  storage->on_release_ = std::move(on_release);
  return storage;
}

BufferStorage::~BufferStorage() {
  if (owned_) {
    if (adopted_ == nullptr) FreeHostMemory(data_, size_);  // adopted bytes go with adopted_
    if (accounting_) accounting_->RecordRelease(static_cast<int64_t>(size_));
  } else if (on_release_) {
    on_release_();
  }
}

}  // namespace plugrt::cpu
