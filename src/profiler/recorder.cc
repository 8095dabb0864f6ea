#include "profiler/recorder.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

namespace plugrt::profiler {

namespace internal {
std::atomic<int> active_sessions{0};
}  // namespace internal

namespace {

// One thread's events. Shared with the registry so that events of a thread
// that has ended are still collected.
struct ThreadBuffer {
  std::mutex mutex;  // taken by its thread per event and by collectors: never contended for long
  std::vector<TraceEvent> events;
  int64_t dropped = 0;  // events past kMaxEventsPerThread
  int64_t thread_id = 0;
  std::string name;
};

struct Registry {
  std::mutex mutex;
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;
  // Sessions still running, by start time, and stopped sessions whose window
  // buffers must keep until the last one stops.
  int running = 0;
};

Registry& GetRegistry() {
  static Registry* registry = new Registry;  // never destroyed: threads may record at exit
  return *registry;
}

ThreadBuffer& ThisThreadBuffer() {
  thread_local std::shared_ptr<ThreadBuffer> buffer = [] {
    auto made = std::make_shared<ThreadBuffer>();
    made->thread_id = CurrentThreadId();
    char name[32] = {};
    if (pthread_getname_np(pthread_self(), name, sizeof(name)) == 0) made->name = name;
    Registry& registry = GetRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    registry.buffers.push_back(made);
    return made;
  }();
  return *buffer;
}

thread_local KernelContext* current_kernel = nullptr;

}  // namespace

int64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

int64_t ProcessCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

int64_t CurrentThreadId() {
  thread_local const int64_t id = static_cast<int64_t>(syscall(SYS_gettid));
  return id;
}

uint64_t NewFlowId() {
  static std::atomic<uint64_t> next{1};
  // Distinct between the plugin's and the client's recorders, which merge
  // into one trace: the pid in the high bits keeps processes apart, and a
  // per-recorder salt (this copy's address) keeps two copies in one process
  // apart.
  static const uint64_t salt =
      (static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&next)) >> 4) & 0xfffff;
  return (salt << 40) | next.fetch_add(1, std::memory_order_relaxed);
}

void Record(TraceEvent event) {
  if (!Enabled()) return;
  ThreadBuffer& buffer = ThisThreadBuffer();
  event.thread_id = buffer.thread_id;
  std::lock_guard<std::mutex> lock(buffer.mutex);
  // A session left running for a process's life must not take all memory:
  // past the cap events are counted, not kept.
  if (buffer.events.size() >= kMaxEventsPerThread) {
    ++buffer.dropped;
    return;
  }
  buffer.events.push_back(std::move(event));
}

void NameCurrentThread(std::string_view name) {
  ThreadBuffer& buffer = ThisThreadBuffer();
  std::lock_guard<std::mutex> lock(buffer.mutex);
  buffer.name = std::string(name);
}

Session::Session() = default;

Session::~Session() {
  if (running_) Stop();
}

void Session::Start() {
  if (running_) return;
  Registry& registry = GetRegistry();
  {
    std::lock_guard<std::mutex> lock(registry.mutex);
    ++registry.running;
  }
  start_ns_ = NowNs();
  stopped_ = Trace();
  running_ = true;
  internal::active_sessions.fetch_add(1, std::memory_order_relaxed);
}

namespace {

// Events of every buffer that started in [start_ns, stop_ns].
Trace Gather(int64_t start_ns, int64_t stop_ns, bool clear_after) {
  Registry& registry = GetRegistry();
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;
  {
    std::lock_guard<std::mutex> lock(registry.mutex);
    buffers = registry.buffers;
  }
  Trace trace;
  for (const auto& buffer : buffers) {
    std::lock_guard<std::mutex> lock(buffer->mutex);
    bool any = false;
    for (const TraceEvent& event : buffer->events) {
      if (event.start_ns < start_ns || event.start_ns > stop_ns) continue;
      trace.events.push_back(event);
      any = true;
    }
    if (any) trace.threads.push_back(ThreadInfo{buffer->thread_id, buffer->name});
    trace.dropped_events += buffer->dropped;
    if (clear_after) {
      buffer->events.clear();
      buffer->dropped = 0;
    }
  }
  std::stable_sort(trace.events.begin(), trace.events.end(),
                   [](const TraceEvent& a, const TraceEvent& b) { return a.start_ns < b.start_ns; });
  return trace;
}

}  // namespace

void Session::Stop() {
  if (!running_) return;
  stop_ns_ = NowNs();
  internal::active_sessions.fetch_sub(1, std::memory_order_relaxed);
  Registry& registry = GetRegistry();
  bool last = false;
  {
    std::lock_guard<std::mutex> lock(registry.mutex);
    last = --registry.running == 0;
  }
  // The last session out empties the buffers; an overlapping one that still
  // runs needs them.
  stopped_ = Gather(start_ns_, stop_ns_, last);
  running_ = false;
}

Trace Session::Collect() const {
  if (running_) return Gather(start_ns_, NowNs(), /*clear_after=*/false);
  return stopped_;
}

KernelContext* CurrentKernel() { return current_kernel; }

void AnnotateKernel(std::string_view name, std::string value) {
  if (current_kernel == nullptr || current_kernel->notes == nullptr) return;
  for (Stat& stat : *current_kernel->notes) {
    if (stat.name == name) {  // a kernel that runs several primitives keeps the last
      stat.value = std::move(value);
      return;
    }
  }
  current_kernel->notes->push_back(Stat{std::string(name), std::move(value)});
}

KernelScope::KernelScope(const std::string* name, uint64_t flow_id, std::vector<Stat>* notes)
    : saved_(current_kernel) {
  context_.name = name;
  context_.flow_id = flow_id;
  context_.notes = notes;
  current_kernel = &context_;
}

KernelScope::~KernelScope() { current_kernel = saved_; }

void ScopedEvent::Begin(std::string_view category, std::string_view name, uint64_t flow_id) {
  event_ = std::make_unique<TraceEvent>();
  event_->category = std::string(category);
  event_->name = std::string(name);
  event_->flow_id = flow_id;
  event_->start_ns = NowNs();
}

void ScopedEvent::End() {
  event_->end_ns = NowNs();
  Record(std::move(*event_));
}

void ScopedEvent::AddStat(std::string_view name, int64_t value) {
  if (event_ != nullptr) event_->stats.push_back(Stat{std::string(name), value});
}
void ScopedEvent::AddStat(std::string_view name, double value) {
  if (event_ != nullptr) event_->stats.push_back(Stat{std::string(name), value});
}
void ScopedEvent::AddStat(std::string_view name, std::string value) {
  if (event_ != nullptr) event_->stats.push_back(Stat{std::string(name), std::move(value)});
}

}  // namespace plugrt::profiler
