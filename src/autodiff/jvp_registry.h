// plugrt autodiff: the JVP registry, from an op's name to its Jacobian-vector
// product: given tangents of an op's inputs, the tangents of its outputs. The
// forward accumulator (forward_accumulator.h) calls it for every op run with
// a tangent on an input. Built in (jvps.cc): elementwise ops (their
// Jacobians are diagonal, so the JVP is the VJP applied per input), linear
// ops (the op itself on the tangents) and dot_general (bilinear). An op with
// a VJP and no JVP is still differentiated forward: by transposing its VJP
// (J v is the gradient, with respect to u, of <J^T u, v>, J^T u being linear
// in u), which costs a tape and twice the ops.
#ifndef PLUGRT_AUTODIFF_JVP_REGISTRY_H_
#define PLUGRT_AUTODIFF_JVP_REGISTRY_H_

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "autodiff/tensor_math.h"
#include "common/status.h"
#include "eager/op.h"

namespace plugrt::autodiff {

struct JvpCall {
  // The op as it ran, and its outputs.
  const eager::Op& op;
  std::span<const Tensor> outputs;
  // One per flat input: its tangent, or an empty handle for none (zero).
  std::span<const Tensor> input_tangents;
  Context& context() const { return op.context(); }
};

// One tangent per output; an empty handle for none (an integer output).
using JvpFunction = std::function<StatusOr<std::vector<Tensor>>(const JvpCall&)>;

// As RegisterVjp (vjp_registry.h), for JVPs.
Status RegisterJvp(std::string op, JvpFunction jvp, bool replace = false);
// Null when `op` has no JVP of its own (the accumulator then transposes its
// VJP, if it has one).
const JvpFunction* FindJvp(std::string_view op);
std::vector<std::string> JvpOpNames();

}  // namespace plugrt::autodiff

#endif  // PLUGRT_AUTODIFF_JVP_REGISTRY_H_
