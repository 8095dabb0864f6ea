// plugrt passes: work a `stablehlo.while` would repeat in every iteration on
// values that do not change across iterations, done once before the loop.
//
// A value of a loop body is invariant when the body returns it unchanged
// (a carried value passed through: how JAX carries a scan's closed-over
// weights), when it is captured from outside the loop, or when it is a
// constant. Two rewrites, both exact:
//
//  * invariant ops: a pure, region-free op of the body whose operands are all
//    invariant moves before the loop, unless its results hold more bytes than
//    its operands (a broadcast or an iota costs less fused into its readers
//    than kept whole for the loop's lifetime);
//  * a scan's input projection: `dot_general(row_t(X), W)` with X and W
//    invariant, where row_t is the dynamic_slice (and the reshape dropping its
//    unit dimension) taking row t of X's leading dimension in iteration t of a
//    counted loop (a counter from 0, plus 1 per iteration, while below N, N
//    being X's leading size: how lax.scan lowers), becomes one dot_general of
//    all of X with W before the loop, whose row t iteration t reads. Every row
//    is used, so no work is added, and one tall product runs at the GEMM's
//    rate where N thin ones ran at the memory's (an LSTM's input weights are
//    read once instead of once per step).
#ifndef PLUGRT_COMPILER_PASSES_WHILE_LOOP_HOISTING_H_
#define PLUGRT_COMPILER_PASSES_WHILE_LOOP_HOISTING_H_

#include "stablehlo/ir.h"

namespace plugrt::passes {

// Applies both rewrites to every while loop of `module` (nested loops
// included, inner loops first); true when anything moved.
bool HoistWhileLoopInvariants(shlo::Module& module);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_WHILE_LOOP_HOISTING_H_
