// plugrt passes: transposes folded into the dot_general that reads them.
//
// Exporters spell nn.Linear as dot_general(x, transpose(W)) with W stored
// [out, in]; without this pass every execution copies every weight. A
// dot_general only names which operand dimensions it contracts and batches,
// so reading the transpose's operand with those dimension numbers mapped
// through the permutation computes the same products, and the CPU backend's
// matmul reads the operand through strides (cpu/kernels/fast_dot.h). The
// fold applies when the operand's free dimensions keep their relative order
// under the permutation (the result's layout lists them in operand order);
// the transpose is left to dead-code elimination when nothing else reads it.
// A transpose of a dot_general's result that only puts the rhs's free dims
// before the lhs's is the product with its operands swapped (JAX's autodiff
// writes one after every weight gradient); the dot, read by nothing else,
// becomes that product. Results equal the unfolded program's up to the
// summation order a matmul kernel picks for the other layout (f32 rounding
// of a sum).
#ifndef PLUGRT_COMPILER_PASSES_TRANSPOSE_FOLDING_H_
#define PLUGRT_COMPILER_PASSES_TRANSPOSE_FOLDING_H_

#include "stablehlo/ir.h"

namespace plugrt::passes {

// True when any dot_general was changed.
bool FoldTransposesIntoDots(shlo::Module& module);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_TRANSPOSE_FOLDING_H_
