// plugrt passes: result shapes of StableHLO ops from their operands' shapes
// and attributes, for shape refinement. Only the '?' dims of the declared
// result types are filled; static dims are kept as declared (the verifier,
// run on the refined module, checks them against the operands).
#ifndef PLUGRT_COMPILER_PASSES_SHAPE_INFERENCE_H_
#define PLUGRT_COMPILER_PASSES_SHAPE_INFERENCE_H_

#include <cstdint>
#include <vector>

#include "stablehlo/ir.h"

namespace plugrt::passes {

// The op's result types with every '?' dim the rules of its op can work out
// from the operand types and attributes filled in; dims it cannot are left
// '?' (the caller reports them). Ops with regions whose results follow their
// regions (while, case, if, calls) are refined by the caller, not here.
std::vector<shlo::Type> InferResultTypes(const shlo::Operation& op);

// `declared` with its '?' dims taken from `dims` (same rank); static dims of
// `declared` are kept.
shlo::Type FillDynamicDims(const shlo::Type& declared, const std::vector<int64_t>& dims);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_SHAPE_INFERENCE_H_
