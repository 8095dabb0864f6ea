// plugrt passes: algebraic simplification by exact identities.
//
// Only rewrites that give bit-identical results for every input, NaN and
// signed zero included: x + (-0.0) and integer x + 0, x - (+0.0) and integer
// x - 0, x * 1, x / 1, -(-x), not(not(x)); and shape ops that change nothing
// (reshape, convert, broadcast_in_dim to the operand's own type; transpose by
// the identity permutation; slice of everything with unit strides; reverse of
// no dimension; pad by nothing). The op's result is replaced by its operand
// and left for dead-code elimination. (x + 0.0 is not x: -0.0 + 0.0 is +0.0;
// x * 0 is not 0: NaN and infinities.) Two shape rewrites keep the op: a
// transpose that moves only size-1 dims becomes a reshape (its elements keep
// their order, and a reshape copies nothing), and a reshape of a reshape reads
// the inner one's operand.
#ifndef PLUGRT_COMPILER_PASSES_ALGEBRAIC_SIMPLIFY_H_
#define PLUGRT_COMPILER_PASSES_ALGEBRAIC_SIMPLIFY_H_

#include "stablehlo/ir.h"

namespace plugrt::passes {

// True when any result was replaced.
bool SimplifyAlgebra(shlo::Module& module);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_ALGEBRAIC_SIMPLIFY_H_
