// plugrt passes: `custom_call @ApproxTopK` (what jax.lax.approx_max_k /
// approx_min_k lower to, and what shape refinement makes of
// stablehlo.dynamic_approx_top_k) rewritten into an exact top-k: a stable
// sort of the inputs along reduction_dim with the call's comparator, then
// the first top_k of each sorted result. An exact answer has recall 1, so
// it meets any recall_target; it is what XLA's CPU backend computes too.
#ifndef PLUGRT_COMPILER_PASSES_APPROX_TOP_K_H_
#define PLUGRT_COMPILER_PASSES_APPROX_TOP_K_H_

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::passes {

// Rewrites every ApproxTopK call of the module (static shapes). Calls with
// aggregate_to_topk = false (whose result size is the approximate
// algorithm's own) are UNIMPLEMENTED; malformed calls INVALID_ARGUMENT.
Status LowerApproxTopK(shlo::Module& module);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_APPROX_TOP_K_H_
