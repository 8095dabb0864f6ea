// plugrt eager: observers of the ops run on a thread. The gradient tape and
// the forward accumulator (src/autodiff/) are observers: they learn of every
// op the caller runs, on any device (physical, custom, parallel), from the
// one place all of them pass, Context::Execute.
//
// Observers are per thread, as a tape is in TensorFlow: ops other threads run
// are not theirs. An op a custom device runs for the caller's op is not
// reported (only the caller's op is), and an observer never hears of the ops
// it runs itself from its callback (other observers do: that is how an outer
// tape records an inner tape's gradient ops).
#ifndef PLUGRT_EAGER_OP_OBSERVER_H_
#define PLUGRT_EAGER_OP_OBSERVER_H_

#include <span>

#include "common/status.h"
#include "eager/tensor.h"

namespace plugrt::eager {

class Op;

class OpObserver {
 public:
  virtual ~OpObserver() = default;
  // `op` ran (or was queued, under the async executor) and made `outputs`.
  // An error fails the op's Execute (its outputs are made nonetheless).
  virtual Status OnExecuted(const Op& op, std::span<const Tensor> outputs) = 0;
};

// Adds `observer` to this thread's observers (last notified last); removes it.
void AddThreadOpObserver(OpObserver* observer);
void RemoveThreadOpObserver(OpObserver* observer);

// While one lives, ops run on this thread are reported to no observer.
class ScopedOpObserverPause {
 public:
  ScopedOpObserverPause();
  ~ScopedOpObserverPause();
  ScopedOpObserverPause(const ScopedOpObserverPause&) = delete;
  ScopedOpObserverPause& operator=(const ScopedOpObserverPause&) = delete;
};

// Reports `op` to this thread's observers (Context::Execute's call); the
// first error.
Status NotifyOpExecuted(const Op& op, std::span<const Tensor> outputs);
// Whether any observer would hear of an op now (the cheap check first).
bool OpObserversActive();

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_OP_OBSERVER_H_
