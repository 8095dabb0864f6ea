// plugrt profiler: a text summary of a trace, for the engineer reading it in
// a terminal. Kernel time is grouped three ways (each op instance, each op
// kind, each source location), each kernel counted for its own time (a
// while loop's row holds what its body's kernels do not: their rows hold
// the rest), with share of kernel time, count, achieved
// GFLOP/s and GB/s (flops and bytes from the cost analysis, stored on each
// kernel event) and, when the machine's ceilings are known, the fraction of
// the nearer one, and how many cores were busy (process CPU time over wall
// time: a kernel that should use every core and shows 1.0 ran on one); then
// compile phases and the memory of each execution.
#ifndef PLUGRT_PROFILER_SUMMARY_H_
#define PLUGRT_PROFILER_SUMMARY_H_

#include <string>
#include <vector>

#include "profiler/trace_event.h"

namespace plugrt::profiler {

// What the machine can do (what `plugrt bench` measures); 0 when unknown.
struct Ceilings {
  double gflops = 0;  // f32 GEMM on the threads the run used
  double gbps = 0;    // memory copy bandwidth (read + written bytes per second)
};

struct SummaryOptions {
  Ceilings ceilings;
  size_t top = 15;  // rows per table
};

// One row of a grouping (exposed for tests and for JSON output).
struct SummaryRow {
  std::string key;        // op kind, "kind @ location", or the instance's label
  int64_t count = 0;
  int64_t total_ns = 0;
  double flops = 0;
  double bytes = 0;       // read + written
  double cpu_ns = 0;      // process CPU time while these kernels ran
  double share = 0;       // of all kernel time
};

struct Summary {
  int64_t executions = 0;
  int64_t execute_ns = 0;  // sum of execute events (device time)
  int64_t kernel_ns = 0;   // sum of kernel events
  std::vector<SummaryRow> by_instance;  // sorted by total time, descending
  std::vector<SummaryRow> by_kind;
  std::vector<SummaryRow> by_location;
  std::vector<SummaryRow> compile_phases;
  int64_t peak_live_bytes = 0;        // the largest of any execution
  int64_t allocations_per_execute = 0;  // mean over executions
  int64_t allocated_bytes_per_execute = 0;
  int64_t dropped_events = 0;  // not in the tables: the recorder's cap was reached
};

Summary Summarize(const std::vector<Trace>& traces);
std::string FormatSummary(const Summary& summary, const SummaryOptions& options);

}  // namespace plugrt::profiler

#endif  // PLUGRT_PROFILER_SUMMARY_H_
