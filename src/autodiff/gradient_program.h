// plugrt autodiff: compiled gradients, a StableHLO -> StableHLO
// transformation (what `plugrt grad` runs). The entry function's ops are
// traced op by op (trace_device.h) under a tape watching the chosen
// arguments, and the tape's gradient is traced too: the program written
// computes, with the eager VJP rules, the gradient a tape would, as one
// program the plugin compiles and fuses like any other. Forward values are
// kept where the gradient reads them; what nothing returned reads is left
// out.
#ifndef PLUGRT_AUTODIFF_GRADIENT_PROGRAM_H_
#define PLUGRT_AUTODIFF_GRADIENT_PROGRAM_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "eager/context.h"

namespace plugrt::autodiff {

struct GradientProgramOptions {
  // The function differentiated.
  std::string entry = "main";
  // The name of the function written (another than "main" to load it into
  // an eager context, which keeps that name for the programs it builds).
  std::string name = "main";
  // The argument indices gradients are taken with respect to; empty: every
  // floating-point argument.
  std::vector<int64_t> wrt;
  // Also return the entry's own results, before the gradients (what
  // jax.value_and_grad gives).
  bool with_value = false;
  // Take one output gradient per entry result as extra arguments, after the
  // entry's (a VJP program); otherwise each result is weighted by ones, so a
  // non-scalar result's gradient is that of its sum.
  bool vjp = false;
  // A training step instead of gradients: each `wrt` argument minus this
  // learning rate times its gradient (plain SGD), in the gradients' places.
  std::optional<double> sgd_learning_rate;
};

// The gradient program of `program` (StableHLO text, a module or bare
// functions): its @main (@options.name) takes the entry's arguments (then,
// with `vjp`, the output gradients) and returns (the entry's results, with
// `with_value`, then) d(results)/d(argument) for each argument of `wrt`, in
// order (or, with `sgd_learning_rate`, each such argument updated by it);
// an argument no result depends on gets zeros. The text is checked by the
// verifier before it is returned. `context` loads the program's functions
// (under new names where they clash with what it holds) and a trace device;
// its plugin runs nothing.
//
// Errors: INVALID_ARGUMENT for a bad `wrt` (out of range, repeated, not a
// floating-point argument) or an entry the program lacks; UNIMPLEMENTED
// naming the op for an op the trace cannot run op by op or one without a
// VJP; FAILED_PRECONDITION for a rule that needs values (`while`'s trip
// count).
StatusOr<std::string> GradientProgram(eager::Context& context, std::string_view program,
                                      const GradientProgramOptions& options);

}  // namespace plugrt::autodiff

#endif  // PLUGRT_AUTODIFF_GRADIENT_PROGRAM_H_
