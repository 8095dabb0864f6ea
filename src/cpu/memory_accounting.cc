#include "cpu/memory_accounting.h"

#include <algorithm>

namespace plugrt::cpu {

void MemoryAccounting::RecordAllocation(int64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  bytes_in_use_ += bytes;
  peak_bytes_in_use_ = std::max(peak_bytes_in_use_, bytes_in_use_);
  ++num_allocs_;
  largest_alloc_size_ = std::max(largest_alloc_size_, bytes);
}

void MemoryAccounting::RecordRelease(int64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  bytes_in_use_ -= bytes;
}

sdk::MemoryStats MemoryAccounting::Stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  sdk::MemoryStats stats;
  stats.bytes_in_use = bytes_in_use_;
  stats.peak_bytes_in_use = peak_bytes_in_use_;
  stats.num_allocs = num_allocs_;
  stats.largest_alloc_size = largest_alloc_size_;
  return stats;
}

}  // namespace plugrt::cpu
