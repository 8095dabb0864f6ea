// plugrt CPU kernels: sort along one dimension with a comparator body.
#ifndef PLUGRT_CPU_KERNELS_SORT_H_
#define PLUGRT_CPU_KERNELS_SORT_H_

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/compute_common.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

// Sorts every 1-D slice along `dimension` of the same-shaped `operands`
// together. `less` takes (lhs_0, rhs_0, lhs_1, rhs_1, ...) and returns an i1
// that is true when lhs goes before rhs. The sort is always stable (a valid
// choice for is_stable = false too), and never reads out of bounds even if
// the comparator is not a strict weak order.
StatusOr<std::vector<Tensor>> Sort(const std::vector<Tensor>& operands, int64_t dimension,
                                   const ScalarBody& less);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_SORT_H_
