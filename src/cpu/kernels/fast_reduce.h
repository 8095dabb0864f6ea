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

// reduce_window of f32 with add, max or min, as pooling is written (NHWC:
// window [1, kh, kw, 1]): the trailing dims the window leaves alone are
// combined a whole row at a time, so the loop over the channels vectorizes;
// padding reads as the init value. Threads split the output positions.
struct FastWindowPlan {
  // The dims before the channels: operand and result sizes, window geometry.
  std::vector<int64_t> input_dims, output_dims, window, strides, padding_low, window_dilations;
  int64_t channels = 1;
  std::vector<int64_t> result_dims;
  ReduceKind kind = ReduceKind::kMaximum;
};

// A plan, or nullopt when the kernel does not take it (other kinds, base
// dilation, fewer than 8 channels, a window over the last dim).
std::optional<FastWindowPlan> PlanFastReduceWindow(const std::vector<int64_t>& dims,
                                                   const WindowGeometry& window, ReduceKind kind);

// The windowed reduction of f32 `input` (planned dims) starting from `init`.
Tensor FastReduceWindow(const FastWindowPlan& plan, const Tensor& input, float init, int threads);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_FAST_REDUCE_H_
