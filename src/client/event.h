// plugrt client: Future, the RAII owner of a PJRT_Event.
#ifndef PLUGRT_CLIENT_EVENT_H_
#define PLUGRT_CLIENT_EVENT_H_

#include <functional>
#include <utility>

#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

class Future {
 public:
  // An already completed, successful future (no event).
  Future() = default;
  static Future Ready() { return Future(); }
  // Takes ownership of `event` (may be nullptr: already done and OK).
  Future(const PJRT_Api* api, PJRT_Event* event) : api_(api), event_(event) {}
  // Inline: futures are moved and destroyed on every execute.
  ~Future() {
    if (event_ != nullptr) Reset();
  }
  Future(Future&& other) noexcept
      : api_(other.api_), event_(std::exchange(other.event_, nullptr)) {}
  Future& operator=(Future&& other) noexcept;
  Future(const Future&) = delete;
  Future& operator=(const Future&) = delete;

  // Blocks until the event completes; its error, if any. May be called again.
  Status Await();
  // Whether the event has completed (successfully or not).
  StatusOr<bool> IsReady() const;
  // Runs `callback` exactly once with the event's status: at once on this
  // thread if already complete, otherwise on whatever thread completes it.
  // Errors setting up the callback are returned and the callback is not run.
  Status OnReady(std::function<void(Status)> callback);

  PJRT_Event* raw() const { return event_; }
  PJRT_Event* release();

 private:
  void Reset();
  const PJRT_Api* api_ = nullptr;
  PJRT_Event* event_ = nullptr;
};

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_EVENT_H_
