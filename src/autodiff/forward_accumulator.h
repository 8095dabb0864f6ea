// plugrt autodiff: ForwardAccumulator, forward-mode differentiation of eager
// ops (after TensorFlow's ForwardAccumulator). Watch a tensor with a tangent;
// every op run afterwards on this thread with a tangent on an input gets
// tangents for its outputs at once, from its JVP (jvp_registry.h), on
// whatever device it ran.
//
//   ForwardAccumulator acc(ctx);
//   acc.Watch(x, v);
//   Tensor y = ...ops on x...;
//   Tensor jv = *acc.Jvp(y);   // J v
//
// The tangent ops are eager ops: a tape alive meanwhile records them
// (forward-over-reverse), and an outer accumulator differentiates them.
// Used, and destroyed, on the thread that made it.
#ifndef PLUGRT_AUTODIFF_FORWARD_ACCUMULATOR_H_
#define PLUGRT_AUTODIFF_FORWARD_ACCUMULATOR_H_

#include <span>
#include <unordered_map>
#include <vector>

#include "autodiff/tape.h"
#include "autodiff/tensor_math.h"
#include "eager/op_observer.h"

namespace plugrt::autodiff {

class ForwardAccumulator : private eager::OpObserver {
 public:
  explicit ForwardAccumulator(Context& ctx);
  ~ForwardAccumulator() override;
  ForwardAccumulator(const ForwardAccumulator&) = delete;
  ForwardAccumulator& operator=(const ForwardAccumulator&) = delete;

  // `primal` gets `tangent` (of its element type and dimensions; a floating
  // type). Watching a tensor again replaces its tangent.
  Status Watch(const Tensor& primal, const Tensor& tangent);
  // The tangent of `t`: an empty handle (or zeros, as `unconnected` says)
  // where no watched tensor leads to it.
  StatusOr<Tensor> Jvp(const Tensor& t,
                       UnconnectedGradients unconnected = UnconnectedGradients::kNone) const;
  // Ops whose output tangents were computed.
  int64_t num_jvps() const { return num_jvps_; }

 private:
  Status OnExecuted(const eager::Op& op, std::span<const Tensor> outputs) override;

  Context& ctx_;
  // By the primal's identity; the primals are kept so that it stays theirs.
  std::unordered_map<const void*, Tensor> tangents_;
  std::vector<Tensor> primals_;
  int64_t num_jvps_ = 0;
};

}  // namespace plugrt::autodiff

#endif  // PLUGRT_AUTODIFF_FORWARD_ACCUMULATOR_H_
