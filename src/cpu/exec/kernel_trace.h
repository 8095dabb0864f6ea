// plugrt CPU executor: what the profiler says about each step of a compiled
// region (profiler/recorder.h). A step's description is built from the IR
// once, the first time a session sees the region run, and then reused by
// every traced run: the kernel's name (the op, or "fusion" for a fused
// group), its ops and source location, shapes, flops and bytes from the
// cost analysis, and the live bytes of the buffer plan at that step.
#ifndef PLUGRT_CPU_EXEC_KERNEL_TRACE_H_
#define PLUGRT_CPU_EXEC_KERNEL_TRACE_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "profiler/recorder.h"
#include "stablehlo/ir.h"

namespace plugrt::cpu {

struct KernelDescription {
  std::string name;
  // Shared by every event of the kernel (profiler::TraceEvent::shared_stats).
  std::shared_ptr<const std::vector<profiler::Stat>> stats;
  // Control flow (while, if, case, call): the steps of its regions are
  // kernels too. Other ops' regions (reduce bodies, comparators) run per
  // element and are not traced.
  bool traces_regions = false;
};

// `op`: the step's op (a fused group's last member); `fused`: the group's
// members, empty for a plain op; `inputs` and `outputs`: the values the step
// reads and writes.
KernelDescription DescribeKernel(const shlo::Module& module, const shlo::Operation& op,
                                 std::span<const shlo::Operation* const> fused,
                                 std::span<const shlo::Value* const> inputs,
                                 std::span<const shlo::Value* const> outputs);

// "f32[8,16]" for a tensor type, "(f32[2], i32[])" for a tuple.
std::string ShapeText(const shlo::Type& type);

// Where an op came from, for people: the user's source location when the
// program has one, else the program's file:line:col.
std::string KernelLocation(const shlo::Operation& op);

// Records one traced step: [start_ns, now) on this thread, the description's
// stats plus what the run added (live bytes, allocations, notes).
struct KernelRun {
  const KernelDescription* description = nullptr;
  uint64_t flow_id = 0;
  int64_t start_ns = 0;
  int64_t start_cpu_ns = 0;  // profiler::ProcessCpuNs at the start
  int64_t live_bytes = 0;
  int64_t blocks = 0, bytes = 0, fresh_bytes = 0;  // allocations
  int threads = 0;
  std::vector<profiler::Stat> notes;
};
void RecordKernel(KernelRun run);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_KERNEL_TRACE_H_
