// plugrt CPU backend: an array in one memory of one CPU device.
#ifndef PLUGRT_CPU_CPU_BUFFER_H_
#define PLUGRT_CPU_CPU_BUFFER_H_

#include <mutex>
#include <string_view>
#include <vector>

#include "common/recycled.h"
#include "common/spin_lock.h"
#include "cpu/buffer_storage.h"
#include "cpu/cpu_memory.h"
#include "cpu/host_transfer.h"
#include "sdk/buffer.h"

namespace plugrt::cpu {

class CpuClient;

// Thread-safe. Metadata (type, shape, device, memory, size) stays readable
// after Delete; every access to the data then fails with FAILED_PRECONDITION.
// Recycled: every execute makes one per output and its caller destroys it.
class CpuBuffer final : public sdk::Buffer, public Recycled<CpuBuffer> {
 public:
  // Reads and writes of at most this many bytes whose source is ready run on
  // the calling thread: queueing them would cost more than the copy.
  static constexpr size_t kInlineCopyBytes = size_t{64} << 10;

  // `ready` fires when `storage` holds the array's contents.
  CpuBuffer(CpuClient* client, CpuMemory* memory, const ElementFormat& format,
            std::vector<int64_t> dims, StorageRef storage, sdk::EventRef ready);
  ~CpuBuffer() override;

  PJRT_Buffer_Type element_type() const override { return format_.type; }
  const std::vector<int64_t>& dimensions() const override { return dims_; }
  StatusOr<size_t> on_device_size() const override { return device_bytes_; }
  sdk::Device* device() const override;
  sdk::Memory* memory() const override { return memory_; }

  void Delete() override;
  bool is_deleted() const override;
  bool is_on_cpu() const override { return true; }
  StatusOr<sdk::EventRef> ready_event() override;

  StatusOr<std::unique_ptr<sdk::Buffer>> CopyToDevice(sdk::Device* device) override;
  StatusOr<std::unique_ptr<sdk::Buffer>> CopyToMemory(sdk::Memory* memory) override;

  StatusOr<size_t> HostSize(const sdk::Layout* host_layout) const override;
  StatusOr<sdk::EventRef> ToHost(void* dst, size_t dst_size,
                                 const sdk::Layout* host_layout) override;
  StatusOr<sdk::EventRef> CopyRawToHost(void* dst, int64_t offset, int64_t size) override;

  StatusOr<uintptr_t> unsafe_pointer() override;
  Status IncreaseExternalReferenceCount() override;
  Status DecreaseExternalReferenceCount() override;
  StatusOr<void*> opaque_device_memory_pointer() override;

  // For the rest of the CPU backend (execution): the device representation
  // (dense row-major, sub-byte types packed) and the event that says when it
  // is defined. FAILED_PRECONDITION once deleted.
  StatusOr<StorageRef> storage() const;
  StatusOr<sdk::EventRef> definition_event() const;
  const ElementFormat& format() const { return format_; }
  CpuMemory* cpu_memory() const { return memory_; }

  // Hands the buffer's contents to an execution: the buffer becomes deleted
  // (later use fails naming the donation) and the caller gets its storage
  // and definition event. `exclusive` says nobody else can see the storage
  // (no external references, no copy in flight, memory we own and may
  // write), so the execution may overwrite it with an output.
  struct Donation {
    StorageRef storage;
    sdk::EventRef ready;
    bool exclusive = false;
  };
  StatusOr<Donation> Donate();

  // The storage, and in `defined` whether the contents are there (the ready
  // event fired without error), or the "deleted" error naming `operation`:
  // what an inline run needs, in one lock and without touching the event's
  // count.
  StatusOr<StorageRef> LiveStorage(std::string_view operation, bool* defined) const;

 private:
  struct LiveState {
    StorageRef storage;
    sdk::EventRef ready;
  };
  // The storage and ready event, or the "deleted" error naming `operation`.
  StatusOr<LiveState> Live(std::string_view operation) const;
  // The "donated"/"deleted" error naming `operation`; mu_ held.
  Status CheckLiveLocked(std::string_view operation) const;
  Status AwaitSettled(const LiveState& live);
  // Runs `copy` once `ready` fires: inline when it already has and the copy
  // is small, otherwise on the client's worker queue. The returned event
  // carries `ready`'s error, if any, or completes after `copy`.
  sdk::EventRef CopyWhenReady(const sdk::EventRef& ready, size_t bytes,
                              std::function<void()> copy) const;

  CpuClient* client_;
  CpuMemory* memory_;
  ElementFormat format_;
  std::vector<int64_t> dims_;
  size_t device_bytes_;

  mutable SpinLock mu_;  // guards the fields below; held only to read or swap them
  StorageRef storage_;  // null once deleted
  sdk::EventRef ready_;
  bool deleted_ = false;
  bool donated_ = false;
  int64_t external_references_ = 0;
  // Keeps the storage alive while external references exist, even after
  // Delete.
  StorageRef external_hold_;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_BUFFER_H_
