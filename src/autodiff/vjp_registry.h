// plugrt autodiff: the VJP registry, from an op's name to its vector-Jacobian
// product: given the gradients of an op's outputs, the gradients of its
// inputs. The tape (tape.h) calls it for every recorded op on a path from the
// sources to the targets. Built in: the differentiable StableHLO ops the
// eager layer runs (vjps_*.cc); users register their own for loaded
// functions or override a built-in one.
//
//   RegisterVjp("my_square", [](const VjpCall& c) -> StatusOr<std::vector<Tensor>> {
//     TensorMath m(c.context());
//     PLUGRT_ASSIGN_OR_RETURN(Tensor two_x, m.Scale(c.op.inputs()[0], 2.0));
//     PLUGRT_ASSIGN_OR_RETURN(Tensor g, m.Mul(c.output_grads[0], two_x));
//     return std::vector<Tensor>{g};
//   });
//
// A VJP runs eager ops (TensorMath), never host code on the values, so that
// an outer tape records it and second derivatives work.
#ifndef PLUGRT_AUTODIFF_VJP_REGISTRY_H_
#define PLUGRT_AUTODIFF_VJP_REGISTRY_H_

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "autodiff/tensor_math.h"
#include "common/status.h"
#include "eager/op.h"

namespace plugrt::autodiff {

struct VjpCall {
  // The op as it ran: name, attributes, inputs (flat, op.inputs()).
  const eager::Op& op;
  // Its outputs.
  std::span<const Tensor> outputs;
  // One per output: the gradient reaching it (zeros where none does), or an
  // empty handle for an output of a type that carries none (integer, bool).
  std::span<const Tensor> output_grads;
  Context& context() const { return op.context(); }
};

// One gradient per flat input of the op, in order; an empty handle where the
// input gets none (an integer input, an index, a predicate).
using VjpFunction = std::function<StatusOr<std::vector<Tensor>>(const VjpCall&)>;

// Registers `vjp` for ops named `op` (a stablehlo.* name or a loaded
// function's). Replaces one registered before only when `replace` is set;
// ALREADY_EXISTS otherwise.
Status RegisterVjp(std::string op, VjpFunction vjp, bool replace = false);
// Null when `op` has none.
const VjpFunction* FindVjp(std::string_view op);
// Every op with a VJP, sorted.
std::vector<std::string> VjpOpNames();

}  // namespace plugrt::autodiff

#endif  // PLUGRT_AUTODIFF_VJP_REGISTRY_H_
