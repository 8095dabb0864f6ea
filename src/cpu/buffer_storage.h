// plugrt CPU backend: the bytes behind a buffer.
#ifndef PLUGRT_CPU_BUFFER_STORAGE_H_
#define PLUGRT_CPU_BUFFER_STORAGE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "common/status.h"
#include "cpu/memory_accounting.h"

namespace plugrt::cpu {

// Either memory we allocated (64-byte aligned, counted in a MemoryAccounting)
// or caller memory we alias (zero-copy host buffers, views). Always held by
// shared_ptr: a buffer, an in-flight copy and an outstanding external
// reference each keep it alive, and the memory goes away (or the caller is
// told, through `on_release`) when the last of them lets go.
class BufferStorage {
 public:
  static constexpr size_t kAlignment = 64;

  static StatusOr<std::shared_ptr<BufferStorage>> Allocate(
      size_t size, std::shared_ptr<MemoryAccounting> accounting);
  // `on_release` (may be empty) runs once, when the storage is destroyed.
  // `writable` is false for memory the caller lent us read-only: code that
  // would update a buffer in place (donation) must copy instead.
  static std::shared_ptr<BufferStorage> Alias(void* data, size_t size, bool writable,
                                              std::function<void()> on_release);
  // Storage whose bytes are settled later, by Adopt or Materialize, before
  // the buffer's ready event fires (nothing reads data() before that; until
  // then it is null). Execution outputs start so, so that a result computed
  // into memory of its own becomes the buffer without a copy.
  static StatusOr<std::shared_ptr<BufferStorage>> Deferred(
      size_t size, std::shared_ptr<MemoryAccounting> accounting);
  bool deferred() const { return data_ == nullptr && size_ != 0; }
  // Deferred storage takes `data` (size() bytes, kept alive by `keepalive`).
  void Adopt(std::shared_ptr<void> keepalive, void* data);
  // Deferred storage gets bytes of its own.
  Status Materialize();

  // For make_shared inside the factories only (one allocation for the
  // object and its count); Key cannot be named outside.
  class Key {
    friend class BufferStorage;
    Key() = default;
  };
  explicit BufferStorage(Key) {}

  ~BufferStorage();
  BufferStorage(const BufferStorage&) = delete;
  BufferStorage& operator=(const BufferStorage&) = delete;

  void* data() const { return data_; }
  size_t size() const { return size_; }
  bool owned() const { return owned_; }
  bool writable() const { return writable_; }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
  bool owned_ = false;
  bool writable_ = true;
  std::shared_ptr<MemoryAccounting> accounting_;
  std::function<void()> on_release_;
  std::shared_ptr<void> adopted_;  // holds adopted bytes
};

using StorageRef = std::shared_ptr<BufferStorage>;

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_BUFFER_STORAGE_H_
