// plugrt SDK: a one-shot completion event shared between a backend and the
// PJRT_Event handles that wrap it.
#ifndef PLUGRT_SDK_EVENT_H_
#define PLUGRT_SDK_EVENT_H_

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "common/status.h"

namespace plugrt::sdk {

// Becomes ready exactly once, with an OK or error Status. Thread-safe.
// Callbacks registered with OnReady run exactly once: on the thread that sets
// the event, or at once on the registering thread if it is already ready.
class Event {
 public:
  static std::shared_ptr<Event> Create();
  static std::shared_ptr<Event> MakeReady(Status status = OkStatus());

  // Completes the event. Returns false (and changes nothing) if it was
  // already completed.
  bool Set(Status status);
  bool IsReady() const;
  // Blocks until ready; returns the event's status.
  Status Await() const;
  // The status of a ready event; FAILED_PRECONDITION if not yet ready.
  Status status() const;
  void OnReady(std::function<void(const Status&)> callback);

 private:
  Event() = default;
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  // Written under mu_; read without it where only readiness matters (status_
  // never changes once ready_ is seen true: acquire pairs with Set's release).
  std::atomic<bool> ready_{false};
  Status status_;
  std::vector<std::function<void(const Status&)>> callbacks_;
};

using EventRef = std::shared_ptr<Event>;

// Ready when all `events` are ready; carries the first error among them.
EventRef JoinEvents(const std::vector<EventRef>& events);

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_EVENT_H_
