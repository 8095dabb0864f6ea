// plugrt CPU backend: allocation statistics of one memory space.
#ifndef PLUGRT_CPU_MEMORY_ACCOUNTING_H_
#define PLUGRT_CPU_MEMORY_ACCOUNTING_H_

#include <atomic>
#include <cstdint>

#include "sdk/types.h"

namespace plugrt::cpu {

// Thread-safe counters updated by every allocation and release. Held by
// shared_ptr from each allocation so that freeing storage that outlives its
// client still has somewhere to report to.
class MemoryAccounting {
 public:
  void RecordAllocation(int64_t bytes);
  void RecordRelease(int64_t bytes);
  sdk::MemoryStats Stats() const;

 private:
  // Atomics: every buffer's allocation and release passes here, often from
  // several threads; the peak and the largest size are raised by CAS only
  // when exceeded.
  std::atomic<int64_t> bytes_in_use_{0};
  std::atomic<int64_t> peak_bytes_in_use_{0};
  std::atomic<int64_t> num_allocs_{0};  // allocations ever made
  std::atomic<int64_t> largest_alloc_size_{0};
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_MEMORY_ACCOUNTING_H_
