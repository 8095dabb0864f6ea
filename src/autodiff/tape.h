// plugrt autodiff: Tape, reverse-mode differentiation of eager ops (after
// TensorFlow's GradientTape). While a tape lives it records, on the thread
// that made it, every op whose inputs include a watched tensor or a tensor a
// recorded op made, on any device (physical, custom, parallel: it hears of
// ops where the eager layer executes them, eager/op_observer.h). Gradient
// then walks the record backwards, calling each op's VJP (vjp_registry.h).
//
//   Tape tape(ctx);
//   tape.Watch(x);
//   Tensor y = ...ops on x...;
//   std::vector<Tensor> dx = *tape.Gradient({y}, {x});
//
// Gradients are eager ops too: a tape alive while another computes its
// gradient records them, so nesting two tapes gives second derivatives.
// Only real floating-point tensors carry gradients; an integer or boolean
// source gets an empty handle. A tape is used, and destroyed, on the thread
// that made it (it is one of that thread's op observers).
#ifndef PLUGRT_AUTODIFF_TAPE_H_
#define PLUGRT_AUTODIFF_TAPE_H_

#include <cstdint>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "autodiff/tensor_math.h"
#include "common/status.h"
#include "eager/op.h"
#include "eager/op_observer.h"
#include "eager/variable.h"

namespace plugrt::autodiff {

// What a source that no target depends on gets: an empty handle, or zeros
// shaped like it.
enum class UnconnectedGradients { kNone, kZero };

// Counts of the last Gradient call.
struct GradientStats {
  int64_t ops_on_tape = 0;  // recorded ops when it began
  int64_t vjps_run = 0;     // ops whose VJP ran
  int64_t ops_pruned = 0;   // ops on no path from a source to a target: skipped
};

class Tape : private eager::OpObserver, private eager::VariableObserver {
 public:
  // Starts recording. A non-persistent tape computes one gradient, then
  // releases what it recorded; a persistent one computes many and releases
  // it when destroyed.
  // With `watch_accessed_variables`, every trainable variable read on this
  // thread while the tape lives (eager/variable.h) is watched: its value,
  // the tensor to ask the gradient for.
  explicit Tape(Context& ctx, bool persistent = false, bool watch_accessed_variables = true);
  ~Tape() override;
  Tape(const Tape&) = delete;
  Tape& operator=(const Tape&) = delete;

  // Ops on `t` are recorded from now on.
  void Watch(const Tensor& t);
  bool IsWatched(const Tensor& t) const;
  bool persistent() const { return persistent_; }
  // Recorded ops (what a non-persistent tape released counts no longer).
  int64_t num_recorded() const { return static_cast<int64_t>(entries_.size()); }

  // d(targets)/d(sources) weighted by `output_gradients` (one per target,
  // of its type and shape; empty, or an empty handle for one target: ones):
  // for each source, the sum over targets of output_gradient^T J, summed
  // over every use of every tensor on the way. `unconnected` says what a
  // source no target depends on gets.
  StatusOr<std::vector<Tensor>> Gradient(
      const std::vector<Tensor>& targets, const std::vector<Tensor>& sources,
      const std::vector<Tensor>& output_gradients = {},
      UnconnectedGradients unconnected = UnconnectedGradients::kNone);

  const GradientStats& last_stats() const { return stats_; }

 private:
  struct Entry {
    eager::Op op;
    std::vector<Tensor> outputs;
  };
  Status OnExecuted(const eager::Op& op, std::span<const Tensor> outputs) override;
  void OnVariableRead(const eager::Variable& variable, const Tensor& value) override;
  bool Tracks(const void* id) const;

  Context& ctx_;
  const bool persistent_;
  const bool watch_accessed_variables_;
  bool spent_ = false;      // a non-persistent tape after its gradient
  bool computing_ = false;  // in Gradient: its own ops are not recorded
  std::vector<Entry> entries_;
  std::unordered_set<const void*> watched_;
  std::unordered_set<const void*> produced_;
  // The watched tensors themselves, kept alive so that their ids stay theirs.
  std::vector<Tensor> watched_tensors_;
  GradientStats stats_;
};

// A tensor equal to `t` that no tape or accumulator connects to anything:
// gradients stop there.
StatusOr<Tensor> StopGradient(Context& ctx, const Tensor& t);

// While one lives, no tape or accumulator on this thread records.
using StopRecording = eager::ScopedOpObserverPause;

}  // namespace plugrt::autodiff

#endif  // PLUGRT_AUTODIFF_TAPE_H_
