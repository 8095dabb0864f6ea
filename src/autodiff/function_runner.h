// plugrt autodiff (internal): a loaded function run op by op as eager ops,
// so that a tape can differentiate it without a rule of its own: its VJP
// runs the body again under a private tape and takes the gradient of that.
// The body's ops are read from the function's text with the StableHLO
// parser; an op the eager layer cannot be given from there (regions other
// than a built-in reducer, ops outside the list in function_runner.cc) is
// UNIMPLEMENTED by name.
#ifndef PLUGRT_AUTODIFF_FUNCTION_RUNNER_H_
#define PLUGRT_AUTODIFF_FUNCTION_RUNNER_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "autodiff/vjp_registry.h"

namespace plugrt::autodiff::internal {

// The results of loaded function `name` on `args`, each op run eagerly;
// with `device`, each op is placed there (so that a trace, trace_device.h,
// also sees the ops that read no traced value, constants among them).
StatusOr<std::vector<Tensor>> RunFunctionOpByOp(
    Context& ctx, std::string_view name, const std::vector<Tensor>& args,
    const std::optional<std::string>& device = std::nullopt);

// The VJP of a loaded function by differentiating its body op by op.
StatusOr<std::vector<Tensor>> FunctionVjp(const VjpCall& call);

// stablehlo.while's VJP: the loop unrolled (its condition and body run op by
// op, as often as the condition says) under a private tape.
StatusOr<std::vector<Tensor>> WhileVjp(const VjpCall& call);

// The op's VJP: its registered one; for a loaded function without one,
// FunctionVjp; else empty.
VjpFunction ResolveVjp(const eager::Op& op);

}  // namespace plugrt::autodiff::internal

#endif  // PLUGRT_AUTODIFF_FUNCTION_RUNNER_H_
