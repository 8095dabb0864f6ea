// plugrt profiler: one recorded span of work (a kernel, a compile phase, an
// execute, a host transfer, an eager op) and the facts attached to it.
//
// The same record travels every way a trace leaves plugrt: Chrome trace
// JSON (chrome_trace.h), the text summary (summary.h) and XSpace, the
// protobuf PJRT's profiler extension hands to frameworks (xspace.h); each
// Stat becomes an "args" entry or an XStat.
#ifndef PLUGRT_PROFILER_TRACE_EVENT_H_
#define PLUGRT_PROFILER_TRACE_EVENT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace plugrt::profiler {

// Names of the stats the summary reads; producers use these constants so
// that a reader and a writer never spell one fact two ways.
namespace stat {
inline constexpr std::string_view kOps = "ops";                  // "stablehlo.add,stablehlo.exponential"
inline constexpr std::string_view kLocation = "location";        // source location of the (last) op
inline constexpr std::string_view kShapes = "shapes";            // "f32[8,16], f32[16] -> f32[8,16]"
inline constexpr std::string_view kFlops = "flops";              // double
inline constexpr std::string_view kBytesRead = "bytes_read";     // int64
inline constexpr std::string_view kBytesWritten = "bytes_written";  // int64
inline constexpr std::string_view kImplementation = "implementation";  // "brg:avx512_core"
inline constexpr std::string_view kLiveBytes = "live_bytes";     // int64: the plan's live set
inline constexpr std::string_view kAllocations = "allocations";  // int64: blocks allocated
inline constexpr std::string_view kAllocatedBytes = "allocated_bytes";  // int64
inline constexpr std::string_view kPeakLiveBytes = "peak_live_bytes";   // int64 (execute)
inline constexpr std::string_view kProgram = "program";          // the program's name
inline constexpr std::string_view kThreads = "threads";          // int64: thread budget
// int64: CPU time of every thread of the process while the kernel ran (its
// library's own threads included, which no slice shows; spinning idle
// OpenMP threads count too)
inline constexpr std::string_view kProcessCpuNs = "process_cpu_ns";
inline constexpr std::string_view kCacheHit = "cache_hit";       // int64 0/1 (eager)
inline constexpr std::string_view kDevice = "device";            // int64
inline constexpr std::string_view kParent = "parent";            // the kernel a pool chunk serves
}  // namespace stat

// Categories: one track kind each in a viewer, one grouping in the summary.
namespace category {
inline constexpr std::string_view kKernel = "kernel";        // one step of an execution
inline constexpr std::string_view kWorker = "worker";        // a pool thread's share of a kernel
inline constexpr std::string_view kExecute = "execute";      // one PJRT execute on one device
inline constexpr std::string_view kCompile = "compile";      // a compile and its phases
inline constexpr std::string_view kTransfer = "transfer";    // host <-> device copies
inline constexpr std::string_view kEager = "eager";          // one eager op
inline constexpr std::string_view kClient = "client";        // a client-side call
}  // namespace category

struct Stat {
  std::string name;
  std::variant<int64_t, double, std::string> value;
};

struct TraceEvent {
  std::string name;      // "stablehlo.dot_general", "fusion", "execute", "compile: verify"
  std::string category;  // one of category::*
  int64_t start_ns = 0;  // CLOCK_REALTIME, nanoseconds since the Unix epoch
  int64_t end_ns = 0;
  int64_t thread_id = 0;  // the OS thread id (gettid)
  // Nonzero: the execution (or compile) this event belongs to. The execute
  // event carries it too, so viewers draw flows from it to its kernels.
  uint64_t flow_id = 0;
  std::vector<Stat> stats;
  // Stats many events share (a kernel's description, the same for each run
  // of it), read after `stats`; null when none.
  std::shared_ptr<const std::vector<Stat>> shared_stats;

  // Every stat: `stats`, then `shared_stats`.
  template <typename Fn>
  void ForEachStat(Fn&& fn) const {
    for (const Stat& s : stats) fn(s);
    if (shared_stats != nullptr) {
      for (const Stat& s : *shared_stats) fn(s);
    }
  }
  const Stat* Find(std::string_view stat_name) const;
  // The stat as a number (0 when absent or a string) or text ("" when absent).
  double Number(std::string_view stat_name) const;
  std::string Text(std::string_view stat_name) const;
};

// A thread's id and the name the trace shows for it.
struct ThreadInfo {
  int64_t thread_id = 0;
  std::string name;
};

// What one collection holds.
struct Trace {
  std::vector<TraceEvent> events;  // ordered by start time
  std::vector<ThreadInfo> threads;
  std::string process_name;  // "plugrt CPU plugin", "plugrt client"
  // Events not kept because a thread's buffer was full (recorder.h).
  int64_t dropped_events = 0;
};

}  // namespace plugrt::profiler

#endif  // PLUGRT_PROFILER_TRACE_EVENT_H_
