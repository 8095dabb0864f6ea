// plugrt client: a client call (execute, compile) as the profiler sees it.
// While the client's recorder records (profiler/recorder.h), the call gets a
// fresh trace context id, passed to the plugin in a PJRT_Profiler_Extension
// chained into the call's args (as upstream's C API client does), and a
// "client" event spanning the call that carries the same id: the plugin's
// events for the call (a plugrt plugin's execute and kernels) carry it too,
// so a trace joins the two sides. Inactive, it costs one relaxed load.
#ifndef PLUGRT_CLIENT_CALL_TRACE_H_
#define PLUGRT_CLIENT_CALL_TRACE_H_

#include <optional>
#include <string_view>

#include "plugrt/pjrt_profiler_extension.h"
#include "profiler/recorder.h"

namespace plugrt {

class CallTrace {
 public:
  explicit CallTrace(std::string_view name) {
    if (profiler::Enabled()) Begin(name);
  }
  CallTrace(const CallTrace&) = delete;
  CallTrace& operator=(const CallTrace&) = delete;

  // The extension to put in the args' extension_start (linked to `next`),
  // or `next` itself when inactive.
  PJRT_Extension_Base* Chain(PJRT_Extension_Base* next) {
    if (!active()) return next;
    extension_.base.next = next;
    return &extension_.base;
  }
  profiler::ScopedEvent& event() { return *event_; }
  bool active() const { return event_.has_value(); }

 private:
  void Begin(std::string_view name);

  std::optional<profiler::ScopedEvent> event_;
  PJRT_Profiler_Extension extension_;  // set only when active
};

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_CALL_TRACE_H_
