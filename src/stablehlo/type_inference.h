// plugrt StableHLO: the result types of ops from their operands' types and
// attributes, one rule per op, beside the op table: the IR's one place for
// how an op's result shape follows (what StableHLO's TypeInference.cpp is
// upstream). Shape refinement (compiler/passes/refine_shapes.h) fills '?'
// dims with it. Only the '?' dims of the declared result types are filled;
// static dims are kept as declared (the verifier, run on the refined
// module, checks them against the operands).
#ifndef PLUGRT_STABLEHLO_TYPE_INFERENCE_H_
#define PLUGRT_STABLEHLO_TYPE_INFERENCE_H_

#include <cstdint>
#include <vector>

#include "stablehlo/ir.h"

namespace plugrt::shlo {

// The op's result types with every '?' dim the rules of its op can work out
// from the operand types and attributes filled in; dims it cannot are left
// '?' (the caller reports them). Ops with regions whose results follow their
// regions (while, case, if, calls) are refined by the caller, not here.
std::vector<Type> InferResultTypes(const Operation& op);

// `declared` with its '?' dims taken from `dims` (same rank); static dims of
// `declared` are kept.
Type FillDynamicDims(const Type& declared, const std::vector<int64_t>& dims);

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_TYPE_INFERENCE_H_
