// plugrt passes: common-subexpression elimination.
//
// Within each block, a pure op without regions (shlo::MayRemove) that reads
// the same operands with the same attributes and result types as an earlier
// one is replaced by that earlier op's results (and left for dead-code
// elimination). Ops with regions (reduce, sort, while, ...) are left alone.
#ifndef PLUGRT_COMPILER_PASSES_CSE_H_
#define PLUGRT_COMPILER_PASSES_CSE_H_

#include "stablehlo/ir.h"

namespace plugrt::passes {

// True when any op's results were replaced.
bool EliminateCommonSubexpressions(shlo::Module& module);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_CSE_H_
