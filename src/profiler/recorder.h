// plugrt profiler: the recorder every traced layer writes to.
//
// Off by default and free when off: Enabled() is one relaxed atomic load, and
// every producer checks it before building an event. While at least one
// Session is active, events go to a per-thread buffer (no lock shared between
// threads on the recording path); a session's Stop() copies out the events
// that started while it ran. Sessions may overlap (an environment-variable
// trace and a framework's profiler): each sees its own window, and the
// buffers are emptied when the last one stops.
//
// Each binary that links plugrt_profiler has its own recorder (the CPU
// plugin's is not the client's); traces cross the PJRT boundary through the
// profiler extension as XSpace (xspace.h).
#ifndef PLUGRT_PROFILER_RECORDER_H_
#define PLUGRT_PROFILER_RECORDER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "profiler/trace_event.h"

namespace plugrt::profiler {

namespace internal {
extern std::atomic<int> active_sessions;
}  // namespace internal

// True while any session records.
inline bool Enabled() { return internal::active_sessions.load(std::memory_order_relaxed) > 0; }

// CLOCK_REALTIME in nanoseconds (what every event's times use).
int64_t NowNs();
// CPU time of all the process's threads (CLOCK_PROCESS_CPUTIME_ID), ns.
int64_t ProcessCpuNs();
// The calling thread's OS id.
int64_t CurrentThreadId();
// A fresh nonzero id for flows (one per execution or compile).
uint64_t NewFlowId();

// The most events one thread keeps for the sessions (about 0.5 GB at most);
// later ones are counted in Trace::dropped_events.
inline constexpr size_t kMaxEventsPerThread = size_t{1} << 21;

// Adds a finished event on the calling thread's buffer (its thread_id is set
// here). Dropped when no session is active.
void Record(TraceEvent event);

// Names the calling thread in traces ("device 0", "pool"); kept for the
// process's life. Threads never named show their OS name.
void NameCurrentThread(std::string_view name);

class Session {
 public:
  Session();
  ~Session();  // stops if still running
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void Start();
  // Stops recording for this session and keeps what it saw.
  void Stop();
  bool running() const { return running_; }
  // The events of [Start, Stop], ordered by start time, with the names of
  // their threads. Before Stop: what has been recorded so far.
  Trace Collect() const;

 private:
  bool running_ = false;
  int64_t start_ns_ = 0;
  int64_t stop_ns_ = 0;
  Trace stopped_;  // filled by Stop
};

// The kernel a thread is running now, so that work it hands to pool threads
// (ParallelFor chunks) is recorded under it. Set by KernelScope.
struct KernelContext {
  const std::string* name = nullptr;
  uint64_t flow_id = 0;
  // Stats the kernel's code adds while it runs (AnnotateKernel), and what
  // pool threads allocated for it (added by their chunks).
  std::vector<Stat>* notes = nullptr;
  std::atomic<int64_t> pool_blocks{0};
  std::atomic<int64_t> pool_bytes{0};
};
KernelContext* CurrentKernel();

// Adds a stat (the implementation a kernel chose: "oneDNN brg:avx512_core")
// to the kernel running on this thread; nothing when none is traced.
void AnnotateKernel(std::string_view name, std::string value);

// Marks the calling thread as running `name` (part of flow `flow_id`) for
// the scope's life. Cheap; used only when Enabled().
class KernelScope {
 public:
  KernelScope(const std::string* name, uint64_t flow_id, std::vector<Stat>* notes = nullptr);
  KernelContext& context() { return context_; }
  ~KernelScope();
  KernelScope(const KernelScope&) = delete;
  KernelScope& operator=(const KernelScope&) = delete;

 private:
  KernelContext context_;
  KernelContext* saved_;
};

// Records [construction, destruction) as one event when a session was
// active at construction. Stats can be added while it runs.
class ScopedEvent {
 public:
  // Inline: when nothing records, a scope costs one load and a test.
  ScopedEvent(std::string_view category, std::string_view name, uint64_t flow_id = 0) {
    if (Enabled()) Begin(category, name, flow_id);
  }
  ~ScopedEvent() {
    if (event_ != nullptr) End();
  }
  ScopedEvent(const ScopedEvent&) = delete;
  ScopedEvent& operator=(const ScopedEvent&) = delete;

  bool active() const { return event_ != nullptr; }
  // No-ops when inactive.
  void AddStat(std::string_view name, int64_t value);
  void AddStat(std::string_view name, double value);
  void AddStat(std::string_view name, std::string value);

 private:
  void Begin(std::string_view category, std::string_view name, uint64_t flow_id);
  void End();

  std::unique_ptr<TraceEvent> event_;
};

}  // namespace plugrt::profiler

#endif  // PLUGRT_PROFILER_RECORDER_H_
