// plugrt StableHLO: the CHLO lowering of chlo.ragged_dot (a part of
// chlo_lowering.cc kept in its own file).
#ifndef PLUGRT_COMPILER_PASSES_LOWER_CHLO_RAGGED_DOT_H_
#define PLUGRT_COMPILER_PASSES_LOWER_CHLO_RAGGED_DOT_H_

#include "common/status.h"
#include "stablehlo/ir_builder.h"

namespace plugrt::shlo {

// chlo.ragged_dot(lhs, rhs, group_sizes) whose ragged dimension is a
// non-contracting dimension of lhs (rhs has a group dimension): rows of the
// ragged dimension are split into consecutive groups of group_sizes[g] rows,
// and group g is multiplied by rhs's slice g; rows past the last group give
// zeros. Lowered as one dot_general over all groups, a select of each row's
// own group and a sum over the group dimension (exactly one term is
// non-zero, so each result equals the plain dot of its row). Other ragged
// kinds (contracting or batch dimension) and batched group sizes are
// UNIMPLEMENTED.
StatusOr<Value*> LowerRaggedDot(IrBuilder& b, const Operation& op);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_PASSES_LOWER_CHLO_RAGGED_DOT_H_
