#include "cpu/memory_accounting.h"

#include <algorithm>

namespace plugrt::cpu {

namespace {
void RaiseTo(std::atomic<int64_t>& value, int64_t candidate) {
  int64_t seen = value.load(std::memory_order_relaxed);
  while (candidate > seen &&
         !value.compare_exchange_weak(seen, candidate, std::memory_order_relaxed)) {
  }
}
}  // namespace

void MemoryAccounting::RecordAllocation(int64_t bytes) {
  const int64_t in_use = bytes_in_use_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  RaiseTo(peak_bytes_in_use_, in_use);
  num_allocs_.fetch_add(1, std::memory_order_relaxed);
  RaiseTo(largest_alloc_size_, bytes);
}

void MemoryAccounting::RecordRelease(int64_t bytes) {
  bytes_in_use_.fetch_sub(bytes, std::memory_order_relaxed);
}

sdk::MemoryStats MemoryAccounting::Stats() const {
  sdk::MemoryStats stats;
  stats.bytes_in_use = bytes_in_use_.load(std::memory_order_relaxed);
  stats.peak_bytes_in_use = peak_bytes_in_use_.load(std::memory_order_relaxed);
  stats.num_allocs = num_allocs_.load(std::memory_order_relaxed);
  stats.largest_alloc_size = largest_alloc_size_.load(std::memory_order_relaxed);
  return stats;
}

}  // namespace plugrt::cpu
