// plugrt CPU kernels: where tensors and device buffers get their memory.
//
// Small blocks come from operator new (64-byte aligned); those of 256 bytes
// or less are kept in a short per-thread list after free and reused. Large
// blocks (1 MiB and up) are aligned to 2 MiB and marked for transparent huge
// pages, and when freed they are kept (up to kCacheBytes in all) for the next request
// of the same rounded size: first touches of fresh pages cost a page fault
// per 4 KiB, which on some machines (VMs) is slower than computing on the
// data, and a program run many times asks for the same sizes every run.
#ifndef PLUGRT_CPU_KERNELS_HOST_MEMORY_H_
#define PLUGRT_CPU_KERNELS_HOST_MEMORY_H_

#include <cstddef>

namespace plugrt::cpu {

inline constexpr size_t kHostAlignment = 64;

// Memory for `bytes` bytes (at least 1), aligned to kHostAlignment; null
// when the system has none.
void* AllocateHostMemory(size_t bytes);
// Gives back a block from AllocateHostMemory(bytes).
void FreeHostMemory(void* block, size_t bytes);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_HOST_MEMORY_H_
