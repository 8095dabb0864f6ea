#include "sdk/event.h"

#include <atomic>

namespace plugrt::sdk {

std::shared_ptr<Event> Event::Create() { return std::shared_ptr<Event>(new Event()); }

std::shared_ptr<Event> Event::MakeReady(Status status) {
  auto event = Create();
  event->Set(std::move(status));
  return event;
}

bool Event::Set(Status status) {
  std::vector<std::function<void(const Status&)>> callbacks;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (ready_.load(std::memory_order_relaxed)) return false;
    status_ = std::move(status);
    ready_.store(true, std::memory_order_release);
    callbacks.swap(callbacks_);
  }
  cv_.notify_all();
  // status_ is immutable once ready_, so reading it unlocked is safe.
  for (auto& callback : callbacks) callback(status_);
  return true;
}

bool Event::IsReady() const { return ready_.load(std::memory_order_acquire); }

Status Event::Await() const {
  if (!IsReady()) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return ready_.load(std::memory_order_relaxed); });
  }
  return status_;
}

Status Event::status() const {
  if (!IsReady()) return FailedPrecondition("event is not ready yet");
  return status_;
}

void Event::OnReady(std::function<void(const Status&)> callback) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!ready_) {
      callbacks_.push_back(std::move(callback));
      return;
    }
  }
  callback(status_);
}

EventRef JoinEvents(const std::vector<EventRef>& events) {
  if (events.empty()) return Event::MakeReady();
  if (events.size() == 1) return events[0];
  auto joined = Event::Create();
  struct State {
    std::mutex mu;
    size_t remaining;
    Status first_error;
  };
  auto state = std::make_shared<State>();
  state->remaining = events.size();
  for (const auto& event : events) {
    event->OnReady([state, joined](const Status& status) {
      bool done;
      Status result;
      {
        std::lock_guard<std::mutex> lock(state->mu);
        if (!status.ok() && state->first_error.ok()) state->first_error = status;
        done = --state->remaining == 0;
        result = state->first_error;
      }
      if (done) joined->Set(result);
    });
  }
  return joined;
}

}  // namespace plugrt::sdk
