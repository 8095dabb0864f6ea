// plugrt passes: calls replaced by the bodies they call (the pass
// "inlining").
//
// JAX exports every jitted helper it meets (jax.nn.relu, softmax, gelu, a
// Flax module's __call__) as a private function and a func.call to it, and
// stablehlo.composite names its decomposition the same way. A call is a
// boundary no other pass looks across: a relu after a convolution's batch
// norm is a second pass over memory instead of one more op in the fused loop.
// This pass copies the called body in place of each func.call and each
// composite, innermost calls first, leaving the callee itself (other
// modules' tools may still name it); calls that reach themselves again
// (recursion, which StableHLO does not allow but a malformed module may
// have) stay calls.
#ifndef PLUGRT_COMPILER_PASSES_INLINING_H_
#define PLUGRT_COMPILER_PASSES_INLINING_H_

#include "stablehlo/ir.h"

namespace plugrt::passes {

// Inlines every func.call and stablehlo.composite whose callee is in the
// module and calls nothing that is not inlined itself; true when any was.
bool InlineCalls(shlo::Module& module);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_INLINING_H_
