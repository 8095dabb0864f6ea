#include "cpu/kernels/host_memory.h"

#include <sys/mman.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <new>

namespace plugrt::cpu {
namespace {

constexpr size_t kLargeBytes = size_t{1} << 20;
// Blocks this small share one size class, kept in a per-thread list after
// free: an aligned operator new costs several hundred instructions, and a
// small program allocates a few such blocks per execution.
constexpr size_t kSmallBytes = 256;
constexpr int kSmallCacheBlocks = 64;

struct SmallCache {
  void* blocks[kSmallCacheBlocks];
  int count = 0;
  ~SmallCache() {
    while (count > 0) ::operator delete(blocks[--count], std::align_val_t(kHostAlignment));
  }
};
thread_local SmallCache small_cache;
constexpr size_t kHugePage = size_t{2} << 20;
// Freed large blocks kept for reuse, in all.
constexpr size_t kCacheBytes = size_t{1} << 30;

size_t RoundedLarge(size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

struct Cache {
  std::mutex mu;
  std::multimap<size_t, void*> blocks;  // by rounded size
  size_t bytes = 0;
};

Cache& TheCache() {
  static Cache* cache = new Cache();  // never destroyed: blocks may be freed at exit
  return *cache;
}

}  // namespace

void* AllocateHostMemory(size_t bytes) {
  if (bytes <= kSmallBytes) {
    if (small_cache.count > 0) return small_cache.blocks[--small_cache.count];
    return ::operator new(kSmallBytes, std::align_val_t(kHostAlignment), std::nothrow);
  }
  if (bytes < kLargeBytes) {
    return ::operator new(bytes == 0 ? 1 : bytes, std::align_val_t(kHostAlignment), std::nothrow);
  }
  const size_t rounded = RoundedLarge(bytes);
  Cache& cache = TheCache();
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    auto it = cache.blocks.find(rounded);
    if (it != cache.blocks.end()) {
      void* block = it->second;
      cache.blocks.erase(it);
      cache.bytes -= rounded;
      return block;
    }
  }
  void* block = std::aligned_alloc(kHugePage, rounded);
  if (block == nullptr) return nullptr;
  // A hint; kernels without transparent huge pages ignore it.
  madvise(block, rounded, MADV_HUGEPAGE);
  return block;
}

void FreeHostMemory(void* block, size_t bytes) {
  if (block == nullptr) return;
  if (bytes <= kSmallBytes) {
    if (small_cache.count < kSmallCacheBlocks) {
      small_cache.blocks[small_cache.count++] = block;
    } else {
      ::operator delete(block, std::align_val_t(kHostAlignment));
    }
    return;
  }
  if (bytes < kLargeBytes) {
    ::operator delete(block, std::align_val_t(kHostAlignment));
    return;
  }
  const size_t rounded = RoundedLarge(bytes);
  Cache& cache = TheCache();
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    if (cache.bytes + rounded <= kCacheBytes) {
      cache.blocks.emplace(rounded, block);
      cache.bytes += rounded;
      return;
    }
  }
  std::free(block);
}

}  // namespace plugrt::cpu
