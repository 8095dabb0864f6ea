#include "cpu/kernels/parallel.h"


#include <thread>

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

}  // namespace plugrt::cpu
