// plugrt CPU kernels: batched dense linear algebra (triangular_solve,
// cholesky).
#ifndef PLUGRT_CPU_KERNELS_LINALG_H_
#define PLUGRT_CPU_KERNELS_LINALG_H_

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

enum class TransposeKind { kNoTranspose, kTranspose, kAdjoint };

// Solves op(a) x = b (left_side) or x op(a) = b for x, batched over the
// leading dims. Only the `lower` (or upper) triangle of each a is read; with
// `unit_diagonal` its diagonal is taken as ones. Float and complex types.
StatusOr<Tensor> TriangularSolve(const Tensor& a, const Tensor& b, bool left_side, bool lower,
                                 bool unit_diagonal, TransposeKind transpose);

// The Cholesky factor of each matrix of `a` (batched over leading dims): L
// with a = L L^H from the lower triangle when `lower`, else U with
// a = U^H U from the upper triangle. The other triangle is zero; factors of
// matrices that are not positive definite hold NaNs from the failing column
// on.
StatusOr<Tensor> Cholesky(const Tensor& a, bool lower);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_LINALG_H_
