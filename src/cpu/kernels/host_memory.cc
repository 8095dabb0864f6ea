#include "cpu/kernels/host_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <list>
#include <map>
#include <mutex>
#include <new>
#include <vector>

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

// Freed large blocks by rounded size; when a block does not fit, the blocks
// freed longest ago go back to the system first: a process that runs one
// program after another would otherwise keep the first program's sizes and
// hand every later program fresh pages on every run.
struct Cache {
  std::mutex mu;
  std::list<std::pair<size_t, void*>> order;  // oldest first
  std::multimap<size_t, std::list<std::pair<size_t, void*>>::iterator> blocks;
  size_t bytes = 0;
};

Cache& TheCache() {
  static Cache* cache = new Cache();  // never destroyed: blocks may be freed at exit
  return *cache;
}

// Fault injection (InjectHostAllocationFailure): calls made, and the call
// that fails (0: none).
std::atomic<int64_t> allocation_calls{0};
std::atomic<int64_t> failing_call{0};

bool InjectedFailure() {
  if (failing_call.load(std::memory_order_relaxed) == 0) return false;
  const int64_t call = allocation_calls.fetch_add(1, std::memory_order_relaxed) + 1;
  int64_t expected = call;
  // Exactly one caller sees its call fail, then injection is off again.
  return failing_call.compare_exchange_strong(expected, 0, std::memory_order_relaxed);
}

}  // namespace

AllocationFailure::AllocationFailure(size_t bytes) : bytes_(bytes) {
  std::snprintf(message_, sizeof(message_), "cannot allocate %zu bytes", bytes);
}

Status OutOfMemory(const std::bad_alloc& failure) {
  if (const auto* sized = dynamic_cast<const AllocationFailure*>(&failure)) {
    return ResourceExhausted("out of memory: cannot allocate ", sized->bytes(), " bytes");
  }
  return ResourceExhausted("out of memory (a host allocation failed)");
}

int64_t InjectHostAllocationFailure(int64_t n) {
  const int64_t calls = allocation_calls.exchange(0, std::memory_order_relaxed);
  failing_call.store(n > 0 ? n : 0, std::memory_order_relaxed);
  return calls;
}

// No single block can be larger than the machine's memory. Asking the
// system anyway may "succeed" under overcommit and end in the OOM killer once
// the pages are touched; refusing here turns that into an error.
static size_t PhysicalMemoryBytes() {
  static const size_t bytes = [] {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page_size <= 0) return SIZE_MAX;
    return static_cast<size_t>(pages) * static_cast<size_t>(page_size);
  }();
  return bytes;
}

namespace {
thread_local HostAllocations thread_allocations;
}  // namespace

HostAllocations ThreadHostAllocations() { return thread_allocations; }

void* AllocateHostMemory(size_t bytes) {
  if (InjectedFailure()) return nullptr;
  ++thread_allocations.blocks;
  thread_allocations.bytes += static_cast<int64_t>(bytes);
  if (bytes <= kSmallBytes) {
    if (small_cache.count > 0) return small_cache.blocks[--small_cache.count];
    return ::operator new(kSmallBytes, std::align_val_t(kHostAlignment), std::nothrow);
  }
  if (bytes < kLargeBytes) {
    return ::operator new(bytes == 0 ? 1 : bytes, std::align_val_t(kHostAlignment), std::nothrow);
  }
  if (bytes > PhysicalMemoryBytes()) return nullptr;
  const size_t rounded = RoundedLarge(bytes);
  Cache& cache = TheCache();
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    auto it = cache.blocks.find(rounded);
    if (it != cache.blocks.end()) {
      void* block = it->second->second;
      cache.order.erase(it->second);
      cache.blocks.erase(it);
      cache.bytes -= rounded;
      return block;
    }
  }
  void* block = std::aligned_alloc(kHugePage, rounded);
  if (block == nullptr) return nullptr;
  thread_allocations.fresh_bytes += static_cast<int64_t>(rounded);
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
  if (rounded > kCacheBytes) {
    std::free(block);
    return;
  }
  Cache& cache = TheCache();
  std::vector<void*> evicted;
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    while (cache.bytes + rounded > kCacheBytes && !cache.order.empty()) {
      const auto [size, oldest] = cache.order.front();
      auto range = cache.blocks.equal_range(size);
      for (auto it = range.first; it != range.second; ++it) {
        if (it->second == cache.order.begin()) {
          cache.blocks.erase(it);
          break;
        }
      }
      cache.order.pop_front();
      cache.bytes -= size;
      evicted.push_back(oldest);
    }
    cache.order.emplace_back(rounded, block);
    cache.blocks.emplace(rounded, std::prev(cache.order.end()));
    cache.bytes += rounded;
  }
  for (void* old : evicted) std::free(old);
}

}  // namespace plugrt::cpu
