// plugrt CPU executor: compile-time simplification of a block.
//
// Dead-code elimination drops pure ops whose results nothing live reads;
// constant folding (done by the interpreter as it compiles, with the ops' own
// kernels) evaluates small pure ops whose operands are all constants once,
// at compile time, instead of on every run.
#ifndef PLUGRT_CPU_EXEC_SIMPLIFY_H_
#define PLUGRT_CPU_EXEC_SIMPLIFY_H_

#include <unordered_set>

#include "stablehlo/ir.h"

namespace plugrt::cpu {

// Results are bigger than this (elements, all results together): not folded,
// so that folding never trades a cheap op for a large constant in memory.
inline constexpr int64_t kMaxFoldedElements = 4096;

// An op dead-code elimination may drop: its only effect is its results,
// which depend only on its operands (the op table's OpEffect::kNone; see
// stablehlo/op_code.h).
bool IsPureOp(const shlo::Operation& op);

// May be folded (shlo::MayFold), not a constant itself, with tensor results of at most
// kMaxFoldedElements in all.
bool IsFoldable(const shlo::Operation& op);

// The ops of `block` dead-code elimination drops.
std::unordered_set<const shlo::Operation*> DeadOps(const shlo::Block& block);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_SIMPLIFY_H_
