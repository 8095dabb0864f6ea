// plugrt passes: compile-time values of small integer tensors, as shape
// refinement needs them. Shape-polymorphic programs compute the operands of
// their dynamic ops (output shapes, paddings, slice bounds) from dimension
// sizes with ordinary ops on tensor<Nxi32/i64>; once the sizes are known,
// these computations have constant results, which this evaluator finds.
#ifndef PLUGRT_COMPILER_PASSES_SHAPE_FOLDING_H_
#define PLUGRT_COMPILER_PASSES_SHAPE_FOLDING_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::passes {

// Values of an integer or boolean tensor of static shape, row-major, each
// normalized to its element type (sign- or zero-extended from its width;
// i1 as 0/1).
using IntValues = std::vector<int64_t>;

// Tensors up to this many elements are evaluated (shape computations are
// tiny; larger constants are left to the executor's own folding).
inline constexpr int64_t kMaxFoldedElements = 4096;

// Whether `type` is a tensor of static shape with integer or i1 elements and
// at most kMaxFoldedElements elements.
bool IsFoldableType(const shlo::Type& type);

// `value` wrapped to the width of `element` (an integer type or i1).
int64_t NormalizeInt(shlo::ElementType element, int64_t value);

// The elements of an integer dense constant (a splat expanded).
std::optional<IntValues> ReadDenseInts(const shlo::Attribute& dense);
// A dense constant attribute of integer/boolean tensor type `type`.
shlo::Attribute MakeDenseInts(const shlo::Type& type, const IntValues& values);

// Evaluates `op` from its operands' values (`operands[i]` null when unknown)
// when the op is one of the integer ops shape computations use and its
// result is IsFoldableType. nullopt: not evaluated (unknown operands or an op
// it does not fold); never an error for well-typed ops.
std::optional<IntValues> FoldIntOp(const shlo::Operation& op,
                                   const std::vector<const IntValues*>& operands);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_SHAPE_FOLDING_H_
