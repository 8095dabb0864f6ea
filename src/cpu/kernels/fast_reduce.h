// plugrt CPU kernels: f32 add/max/min reductions at memory speed.
//
// Taken when the reduced dims are adjacent in memory (after dropping size-1
// dims), which is every row or column reduction: the input is then
// [outer, reduced, inner]. inner == 1 sums along rows with 16 vector lanes of
// partial results; otherwise whole rows of `inner` elements are combined
// into an accumulator row, in blocks of rows so f32 sums stay accurate.
// Threads split the outer rows, or the columns of the accumulator.
#ifndef PLUGRT_CPU_KERNELS_FAST_REDUCE_H_
#define PLUGRT_CPU_KERNELS_FAST_REDUCE_H_

#include <optional>
#include <vector>

#include "cpu/kernels/reduce.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

struct FastReducePlan {
  int64_t outer = 1, reduced = 1, inner = 1;
  std::vector<int64_t> result_dims;
  ReduceKind kind = ReduceKind::kAdd;
};

// A plan for reducing f32 `dims` over `dimensions` with `kind`, or nullopt
// when the kernel does not take it (other kinds, non-adjacent dims).
std::optional<FastReducePlan> PlanFastReduce(const std::vector<int64_t>& dims,
                                             const std::vector<int64_t>& dimensions,
                                             ReduceKind kind);

// The reduction of f32 `input` (planned dims) starting from f32 `init`.
Tensor FastReduce(const FastReducePlan& plan, const Tensor& input, float init, int threads);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_FAST_REDUCE_H_
