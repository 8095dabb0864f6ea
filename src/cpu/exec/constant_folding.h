// plugrt CPU executor: compile-time constant folding of a block.
//
// Constant folding (done by the program compiler as it compiles, with the ops' own
// kernels) evaluates small pure ops whose operands are all constants once,
// at compile time, instead of on every run. Dead-code elimination is the
// passes layer's (compiler/passes/dead_code.h).
#ifndef PLUGRT_CPU_EXEC_CONSTANT_FOLDING_H_
#define PLUGRT_CPU_EXEC_CONSTANT_FOLDING_H_

#include "stablehlo/ir.h"

namespace plugrt::cpu {

// Results are bigger than this (elements, all results together): not folded,
// so that folding never trades a cheap op for a large constant in memory.
inline constexpr int64_t kMaxFoldedElements = 4096;

// Index values (an iota, and what ops compute from index values alone: the
// masks JAX builds as iota / compare / select, such as `tril` or the
// diagonal of a matrix) are folded up to this many elements: recomputed
// they cost several passes over memory per run, where the folded value
// is read in one (a 512x512 diagonal mask: 0.4 ms against 0.02).
inline constexpr int64_t kMaxFoldedIndexElements = int64_t{1} << 20;

// May be folded (shlo::MayFold), not a constant itself, with tensor results of at most
// kMaxFoldedElements in all, or kMaxFoldedIndexElements for `index_values`: the
// op is an iota or reads index values only.
bool IsFoldable(const shlo::Operation& op, bool index_values = false);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_CONSTANT_FOLDING_H_
