// plugrt CPU kernels: how many threads a kernel may use, and a parallel loop.
//
// The thread pool is OpenMP's (libgomp): oneDNN, which runs dot_general and
// convolution, uses it, and plugrt's own large kernels share the same team
// so the two never compete for cores. A kernel's thread budget is passed to
// it: the executor hands the client's "threads" option down through
// ExecContext::kernel_threads (and ProgramOptions::kernel_threads to the
// plans made at compile time). Small loops stay on the calling thread, which
// keeps small programs inline and their dispatch in microseconds.
#ifndef PLUGRT_CPU_KERNELS_PARALLEL_H_
#define PLUGRT_CPU_KERNELS_PARALLEL_H_

#include <algorithm>
#include <cstdint>
#include <exception>
#include <type_traits>

#include "profiler/recorder.h"

namespace plugrt::cpu {

// The number of online cores.
int HardwareThreads();

// A thread budget as given (at least 1), or the number of cores for 0 (not
// set).
inline int ThreadBudget(int requested) {
  return requested > 0 ? requested : HardwareThreads();
}

// Threads worth using for `work` units when each thread should get at least
// `min_work_per_thread` of them, within `budget` threads.
inline int ThreadsFor(int64_t work, int64_t min_work_per_thread, int budget) {
  const int64_t wanted = min_work_per_thread <= 0 ? 1 : work / min_work_per_thread;
  return static_cast<int>(std::clamp<int64_t>(wanted, 1, std::max(budget, 1)));
}

// Under the profiler, a chunk on a pool thread is recorded as a "worker"
// event of the kernel that started the loop (profiler::CurrentKernel), and
// what it allocated is added to that kernel's count.
class TracedChunk {
 public:
  explicit TracedChunk(profiler::KernelContext* parent, int64_t caller_thread);
  ~TracedChunk();

 private:
  profiler::KernelContext* parent_;
  int64_t start_ns_ = 0;
  int64_t blocks_ = 0, bytes_ = 0;
};

// Runs fn(begin, end) over [0, n) split into `threads` contiguous chunks on
// OpenMP threads (inline when threads <= 1). An exception thrown by fn (an
// allocation failure in a chunk's scratch) must not leave an OpenMP thread,
// which would end the process: the first one is caught there and rethrown
// on the calling thread once every chunk has finished.
template <typename Fn>
void ParallelFor(int64_t n, int threads, Fn&& fn) {
  if (threads <= 1 || n <= 1) {
    if (n > 0) fn(int64_t{0}, n);
    return;
  }
  if (threads > n) threads = static_cast<int>(n);
  std::exception_ptr failure;
  profiler::KernelContext* traced = profiler::Enabled() ? profiler::CurrentKernel() : nullptr;
  const int64_t caller = traced != nullptr ? profiler::CurrentThreadId() : 0;
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (int t = 0; t < threads; ++t) {
    const int64_t begin = n * t / threads, end = n * (t + 1) / threads;
    try {
      if (begin < end) {
        if (traced != nullptr) {
          TracedChunk chunk(traced, caller);
          fn(begin, end);
        } else {
          fn(begin, end);
        }
      }
    } catch (...) {
#pragma omp critical(plugrt_parallel_for_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

// Runs fn() on the calling thread while the other threads - 1 members of its
// OpenMP team sleep, for work that another runtime spreads over its own
// threads (a large LAPACK call on OpenBLAS's pthreads). An OpenMP thread left
// idle after a loop keeps spinning for milliseconds (libgomp's default wait
// policy, which keeps back-to-back loops cheap), and on the same cores that
// spinning halves what the other runtime's threads get (docs/performance.md,
// "One threading runtime"). Inside the region the team's other members block
// in the kernel until fn returns, so the cores are the other runtime's; the
// team stays alive for the loops that follow. Inline when threads <= 1.
void RunWithTeamAsleep(int threads, void (*fn)(void*), void* context);

template <typename Fn>
void RunWithTeamAsleep(int threads, Fn&& fn) {
  RunWithTeamAsleep(
      threads, [](void* context) { (*static_cast<std::remove_reference_t<Fn>*>(context))(); },
      &fn);
}

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_PARALLEL_H_
