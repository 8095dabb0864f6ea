// plugrt CPU kernels: dot_general (and the 2-D dot built on it).
#ifndef PLUGRT_CPU_KERNELS_DOT_H_
#define PLUGRT_CPU_KERNELS_DOT_H_

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

struct DotDimensions {
  std::vector<int64_t> lhs_batching;
  std::vector<int64_t> rhs_batching;
  std::vector<int64_t> lhs_contracting;
  std::vector<int64_t> rhs_contracting;
};

// The free (neither batching nor contracting) dims of a rank-`rank`
// operand, in order.
std::vector<int64_t> FreeDims(int64_t rank, const std::vector<int64_t>& batching,
                              const std::vector<int64_t>& contracting);

// Checks the dimension numbers against the operand shapes and returns the
// result dims: batch dims, then lhs free dims, then rhs free dims.
StatusOr<std::vector<int64_t>> DotResultDims(const std::vector<int64_t>& lhs_dims,
                                             const std::vector<int64_t>& rhs_dims,
                                             const DotDimensions& dims);

// The product, accumulated in double / complex<double> / 64-bit integers
// (wrapping) and rounded once into `result_type`. Dimension numbers must have
// passed DotResultDims.
Tensor DotGeneral(const Tensor& lhs, const Tensor& rhs, const DotDimensions& dims,
                  ElementType result_type);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_DOT_H_
