#include "cpu/kernels/parallel.h"


#include <atomic>
#include <exception>
#include <thread>

#include <omp.h>

#include "cpu/kernels/host_memory.h"

namespace plugrt::cpu {

int HardwareThreads() {
  static const int cores = [] {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
  }();
  return cores;
}

TracedChunk::TracedChunk(profiler::KernelContext* parent, int64_t caller_thread)
    : parent_(parent) {
  // The calling thread's share is inside the kernel's own event.
  if (profiler::CurrentThreadId() == caller_thread) {
    parent_ = nullptr;
    return;
  }
  thread_local bool named = false;
  if (!named) {
    profiler::NameCurrentThread("OpenMP pool");
    named = true;
  }
  const HostAllocations before = ThreadHostAllocations();
  blocks_ = before.blocks;
  bytes_ = before.bytes;
  start_ns_ = profiler::NowNs();
}

TracedChunk::~TracedChunk() {
  if (parent_ == nullptr) return;
  profiler::TraceEvent event;
  event.name = parent_->name != nullptr ? *parent_->name : "kernel";
  event.category = std::string(profiler::category::kWorker);
  event.start_ns = start_ns_;
  event.end_ns = profiler::NowNs();
  event.flow_id = parent_->flow_id;
  const HostAllocations after = ThreadHostAllocations();
  if (after.blocks > blocks_) {
    parent_->pool_blocks.fetch_add(after.blocks - blocks_, std::memory_order_relaxed);
    parent_->pool_bytes.fetch_add(after.bytes - bytes_, std::memory_order_relaxed);
  }
  profiler::Record(std::move(event));
}

void RunWithTeamAsleep(int threads, void (*fn)(void*), void* context) {
  if (threads <= 1) {
    fn(context);
    return;
  }
  std::atomic<int> done{0};
  std::exception_ptr failure;
#pragma omp parallel num_threads(threads)
  {
    if (omp_get_thread_num() == 0) {
      try {
        fn(context);
      } catch (...) {
        failure = std::current_exception();
      }
      done.store(1, std::memory_order_release);
      done.notify_all();
    } else {
      // A futex wait (after a short spin in libstdc++): asleep, off the cores.
      while (done.load(std::memory_order_acquire) == 0) done.wait(0, std::memory_order_acquire);
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace plugrt::cpu
