// plugrt passes: the small edits the IR passes share.
#ifndef PLUGRT_COMPILER_PASSES_IR_REWRITE_H_
#define PLUGRT_COMPILER_PASSES_IR_REWRITE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

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

// An integer list attribute that may be left out (dimension numbers print
// empty lists that way): its values, an empty list when `attribute` is null,
// nullopt when it is not a list of integers.
std::optional<std::vector<int64_t>> OptionalIntList(const shlo::Attribute* attribute);

// The constant every element of `v` holds, as the bit pattern of one
// element (its storage bytes), when `v` is a constant whose elements are all
// equal.
std::optional<std::vector<std::byte>> SplatBits(const shlo::Value* v);

// The value every element of integer constant `v` holds (sign-extended for
// signed types), when all are equal.
std::optional<int64_t> IntegerSplat(const shlo::Value* v);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_IR_REWRITE_H_
