// plugrt CPU kernels: where tensors and device buffers get their memory.
//
// Small blocks come from operator new (64-byte aligned); those of 256 bytes
// or less are kept in a short per-thread list after free and reused. Large
// blocks (1 MiB and up) are aligned to 2 MiB and marked for transparent huge
// pages, and when freed they are kept (up to kCacheBytes in all, the blocks
// freed longest ago given back first) for the next request of the same rounded size: first touches of fresh pages cost a page fault
// per 4 KiB, which on some machines (VMs) is slower than computing on the
// data, and a program run many times asks for the same sizes every run.
#ifndef PLUGRT_CPU_KERNELS_HOST_MEMORY_H_
#define PLUGRT_CPU_KERNELS_HOST_MEMORY_H_

#include <cstddef>
#include <cstdint>
#include <new>

#include "common/status.h"

namespace plugrt::cpu {

inline constexpr size_t kHostAlignment = 64;

// Memory for `bytes` bytes (at least 1), aligned to kHostAlignment; null
// when the system has none (or a test's injected fault says so).
void* AllocateHostMemory(size_t bytes);
// Gives back a block from AllocateHostMemory(bytes).
void FreeHostMemory(void* block, size_t bytes);

// What the calling thread has asked AllocateHostMemory for since it started
// (the profiler reads the difference around a kernel or an execution):
// blocks and bytes requested, and the bytes of large blocks that had to come
// fresh from the system (not the cache of freed ones), whose first touches
// fault page by page. Thread-local counters: free when nobody reads them.
struct HostAllocations {
  int64_t blocks = 0;
  int64_t bytes = 0;
  int64_t fresh_bytes = 0;
};
HostAllocations ThreadHostAllocations();

// Thrown where a kernel cannot go on without memory it could not get (tensor
// storage, oneDNN scratch). It names the size, so that the executor's error
// for the op says what was asked for.
class AllocationFailure : public std::bad_alloc {
 public:
  explicit AllocationFailure(size_t bytes);
  size_t bytes() const { return bytes_; }
  const char* what() const noexcept override { return message_; }

 private:
  size_t bytes_;
  char message_[64];
};

// The error for an allocation that failed: RESOURCE_EXHAUSTED, naming the
// bytes when it is an AllocationFailure. One wording for every place that
// catches one (the interpreter per op, the device tasks as a backstop).
Status OutOfMemory(const std::bad_alloc& failure);

// Fault injection, for tests only (nothing in a plugin calls it; tests that
// link the backend do): the `n`th call to AllocateHostMemory from now, on any
// thread, returns null; n <= 0 switches it off. Calls are counted while it is
// armed, until the failure fires; it returns the count since the previous
// call, so arming with a huge n, running, and calling it with 0 tells a test
// how many allocations a run makes.
int64_t InjectHostAllocationFailure(int64_t n);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_HOST_MEMORY_H_
