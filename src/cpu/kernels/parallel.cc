#include "cpu/kernels/parallel.h"

#include <omp.h>

#include <thread>

namespace plugrt::cpu {
namespace {
thread_local int kernel_threads = 0;  // 0: not set, use the hardware's
}

int HardwareThreads() {
  static const int cores = [] {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
  }();
  return cores;
}

int KernelThreads() {
  return kernel_threads > 0 ? kernel_threads : HardwareThreads();
}

void SetKernelThreads(int threads) {
  kernel_threads = std::clamp(threads, 1, HardwareThreads() * 4);
}

}  // namespace plugrt::cpu
