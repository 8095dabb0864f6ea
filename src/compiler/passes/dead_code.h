// plugrt passes: dead-code elimination.
//
// Pure ops (the op table's OpEffect::kNone: their only effect is their
// results, which depend only on their operands) whose results nothing live
// reads are removed. The CPU executor asks DeadOps while it plans a block;
// EliminateDeadCode removes them from the module (the pass of that name).
#ifndef PLUGRT_COMPILER_PASSES_DEAD_CODE_H_
#define PLUGRT_COMPILER_PASSES_DEAD_CODE_H_

#include <unordered_set>

#include "stablehlo/ir.h"

namespace plugrt::passes {

// An op dead-code elimination may drop (shlo::MayRemove).
bool IsPureOp(const shlo::Operation& op);

// The ops of `block` that nothing live reads, transitively.
std::unordered_set<const shlo::Operation*> DeadOps(const shlo::Block& block);

// Removes DeadOps from every block of every function; true when any was
// removed.
bool EliminateDeadCode(shlo::Module& module);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_DEAD_CODE_H_
