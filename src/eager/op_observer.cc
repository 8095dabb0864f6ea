#include "eager/op_observer.h"

#include <algorithm>
#include <vector>

namespace plugrt::eager {

namespace {

struct Registered {
  OpObserver* observer;
  bool busy;  // inside its own callback: the ops it runs are not reported to it
};

struct ThreadObservers {
  std::vector<Registered> list;
  int paused = 0;
};

ThreadObservers& Mine() {
  thread_local ThreadObservers observers;
  return observers;
}

}  // namespace

void AddThreadOpObserver(OpObserver* observer) {
  if (observer != nullptr) Mine().list.push_back({observer, false});
}

void RemoveThreadOpObserver(OpObserver* observer) {
  auto& list = Mine().list;
  list.erase(std::remove_if(list.begin(), list.end(),
                            [observer](const Registered& r) { return r.observer == observer; }),
             list.end());
}

ScopedOpObserverPause::ScopedOpObserverPause() { ++Mine().paused; }
ScopedOpObserverPause::~ScopedOpObserverPause() { --Mine().paused; }

bool OpObserversActive() {
  const ThreadObservers& mine = Mine();
  return mine.paused == 0 && !mine.list.empty();
}

Status NotifyOpExecuted(const Op& op, std::span<const Tensor> outputs) {
  ThreadObservers& mine = Mine();
  if (mine.paused != 0 || mine.list.empty()) return OkStatus();
  // A callback may add or remove observers: walk a snapshot, and look each
  // one up again before calling it.
  std::vector<OpObserver*> snapshot;
  for (const Registered& r : mine.list) snapshot.push_back(r.observer);
  Status first;
  for (OpObserver* observer : snapshot) {
    auto it = std::find_if(mine.list.begin(), mine.list.end(),
                           [observer](const Registered& r) { return r.observer == observer; });
    if (it == mine.list.end() || it->busy) continue;
    it->busy = true;
    Status status = observer->OnExecuted(op, outputs);
    // Found again: the callback may have moved the list.
    it = std::find_if(mine.list.begin(), mine.list.end(),
                      [observer](const Registered& r) { return r.observer == observer; });
    if (it != mine.list.end()) it->busy = false;
    if (first.ok() && !status.ok()) first = std::move(status);
  }
  return first;
}

}  // namespace plugrt::eager
