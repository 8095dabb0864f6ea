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
#ifdef PLUGRT_SANITIZER_BUILD
  // LeakSanitizer's exit-time scan crashes ("Tracer caught signal 11") in a
  // process with live libgomp worker threads, so sanitizer builds never start
  // an OpenMP team: every kernel runs on the calling thread.
  return 1;
#else
  return kernel_threads > 0 ? kernel_threads : HardwareThreads();
#endif
}

void SetKernelThreads(int threads) {
  kernel_threads = std::clamp(threads, 1, HardwareThreads() * 4);
}

}  // namespace plugrt::cpu
