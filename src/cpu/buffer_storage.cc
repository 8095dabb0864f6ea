#include "cpu/buffer_storage.h"

#include <new>

namespace plugrt::cpu {

StatusOr<std::shared_ptr<BufferStorage>> BufferStorage::Allocate(
    size_t size, std::shared_ptr<MemoryAccounting> accounting) {
  // A zero-byte array still gets a distinct, valid address.
  void* data = ::operator new(size == 0 ? 1 : size, std::align_val_t(kAlignment), std::nothrow);
  if (data == nullptr) {
    return ResourceExhausted("cannot allocate ", size, " bytes of CPU device memory");
  }
  std::shared_ptr<BufferStorage> storage(new BufferStorage());
  storage->data_ = data;
  storage->size_ = size;
  storage->owned_ = true;
  storage->accounting_ = std::move(accounting);
  if (storage->accounting_) storage->accounting_->RecordAllocation(static_cast<int64_t>(size));
  return storage;
}

std::shared_ptr<BufferStorage> BufferStorage::Alias(void* data, size_t size, bool writable,
                                                    std::function<void()> on_release) {
  std::shared_ptr<BufferStorage> storage(new BufferStorage());
  storage->data_ = data;
  storage->size_ = size;
  storage->owned_ = false;
  storage->writable_ = writable;
  storage->on_release_ = std::move(on_release);
  return storage;
}

BufferStorage::~BufferStorage() {
  if (owned_) {
    ::operator delete(data_, std::align_val_t(kAlignment));
    if (accounting_) accounting_->RecordRelease(static_cast<int64_t>(size_));
  } else if (on_release_) {
    on_release_();
  }
}

}  // namespace plugrt::cpu
