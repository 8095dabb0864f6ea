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

// May be folded (shlo::MayFold), not a constant itself, with tensor results of at most
// kMaxFoldedElements in all.
bool IsFoldable(const shlo::Operation& op);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_CONSTANT_FOLDING_H_
