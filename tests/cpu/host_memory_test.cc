// Host memory (cpu/kernels/host_memory.h): freed large blocks are kept for the
// next request of their size, and a full cache makes room by giving back the
// blocks freed longest ago, so a process that runs one program after another
// keeps serving the latest program's sizes without fresh pages.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cpu/kernels/host_memory.h"

namespace plugrt {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

int64_t FreshBytes() { return cpu::ThreadHostAllocations().fresh_bytes; }

TEST(HostMemoryTest, AFreedLargeBlockServesTheNextRequestOfItsSize) {
  void* block = cpu::AllocateHostMemory(3 * kMiB + 5);
  ASSERT_NE(block, nullptr);
  cpu::FreeHostMemory(block, 3 * kMiB + 5);
  const int64_t fresh = FreshBytes();
  void* again = cpu::AllocateHostMemory(3 * kMiB + 100);  // the same 4 MiB class
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(FreshBytes(), fresh);
  cpu::FreeHostMemory(again, 3 * kMiB + 100);
}

TEST(HostMemoryTest, AFullCacheGivesBackTheOldestBlocksForNewSizes) {
  // Fill the cache (1 GiB) with blocks of one size, as an earlier program
  // would; the blocks are never touched, so they cost no physical memory.
  std::vector<void*> earlier;
  for (int i = 0; i < 520; ++i) {
    void* block = cpu::AllocateHostMemory(2 * kMiB);
    ASSERT_NE(block, nullptr);
    earlier.push_back(block);
  }
  for (void* block : earlier) cpu::FreeHostMemory(block, 2 * kMiB);
  // A later program's size: freed into the full cache, then asked for again.
  const size_t later = 6 * kMiB;
  void* block = cpu::AllocateHostMemory(later);
  ASSERT_NE(block, nullptr);
  cpu::FreeHostMemory(block, later);
  const int64_t fresh = FreshBytes();
  void* again = cpu::AllocateHostMemory(later);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(FreshBytes(), fresh) << "the later size was not kept";
  cpu::FreeHostMemory(again, later);
}

}  // namespace
}  // namespace plugrt
