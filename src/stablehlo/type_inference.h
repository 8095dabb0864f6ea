// plugrt StableHLO: the result types of ops from their operands' types and
// attributes: the IR's one place for how an op's result shape follows (what
// StableHLO's TypeInference.cpp is upstream). The op table names each op's
// rule (OpShape, stablehlo/op_code.h); the rules compute with the shape
// functions of stablehlo/shape_rules.h. Shape refinement
// (compiler/passes/refine_shapes.h) fills '?' dims with InferResultTypes;
// the verifier checks every declared result shape against InferResultDims.
#ifndef PLUGRT_STABLEHLO_TYPE_INFERENCE_H_
#define PLUGRT_STABLEHLO_TYPE_INFERENCE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "stablehlo/ir.h"

namespace plugrt::shlo {

// The op's result types with every '?' dim the rules of its op can work out
// from the operand types and attributes filled in; dims it cannot are left
// '?' (the caller reports them). Ops with regions whose results follow their
// regions (while, case, if, calls) are refined by the caller, not here.
std::vector<Type> InferResultTypes(const Operation& op);

// The dims result `r` of `op` has by its op's shape rule, from its operand
// types and attributes; '?' where the rule cannot tell. nullopt where the op's
// results are declared (OpShape::kDeclared), follow its regions, or where its
// attributes do not let the rule apply (the verifier reports those).
std::optional<std::vector<int64_t>> InferResultDims(const Operation& op, size_t r);

// `declared` with its '?' dims taken from `dims` (same rank); static dims of
// `declared` are kept.
Type FillDynamicDims(const Type& declared, const std::vector<int64_t>& dims);

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_TYPE_INFERENCE_H_
