// plugrt passes: the small edits the IR passes share.
#ifndef PLUGRT_COMPILER_PASSES_IR_REWRITE_H_
#define PLUGRT_COMPILER_PASSES_IR_REWRITE_H_

#include <functional>
#include <string>

#include "stablehlo/ir.h"

namespace plugrt::passes {

// "<location>: <op name>", how the passes' errors name an op.
std::string Where(const shlo::Operation& op);

// Calls `visit` for every block of `function`: its body, then nested regions'
// blocks, outer before inner.
void ForEachBlock(shlo::Function& function, const std::function<void(shlo::Block&)>& visit);

// Every operand of an op in `function` (nested regions included) that reads
// `from` reads `to` instead. `to` must have `from`'s type.
void ReplaceAllUses(shlo::Function& function, const shlo::Value* from, shlo::Value* to);

// Replaces all uses of each `pairs[i].first` with `pairs[i].second` in one
// walk (the passes batch their replacements: one walk per block, not per op).
void ReplaceAllUses(shlo::Function& function,
                    const std::vector<std::pair<const shlo::Value*, shlo::Value*>>& pairs);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_IR_REWRITE_H_
