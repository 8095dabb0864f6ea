// plugrt CPU kernels: reductions and window ops (reduce, reduce_window,
// select_and_scatter, map).
#ifndef PLUGRT_CPU_KERNELS_REDUCE_H_
#define PLUGRT_CPU_KERNELS_REDUCE_H_

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/compute_common.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

// A reduction body recognised at compile time as one elementwise binary op.
enum class ReduceKind { kAdd, kMultiply, kMaximum, kMinimum, kAnd, kOr, kXor };

// Whether `kind` is defined for `type` (e.g. no bitwise ops on floats, no
// ordering on complex numbers).
bool ReduceKindSupports(ReduceKind kind, ElementType type);

// reduce with a known binary body: one input, `init` rank 0 of the same type,
// `dimensions` sorted or not, each valid and distinct (checked by the caller).
Tensor ReduceFast(const Tensor& input, const Tensor& init, const std::vector<int64_t>& dimensions,
                  ReduceKind kind);

// reduce with a general body over N inputs and N inits. The body takes
// (acc_0..acc_{N-1}, x_0..x_{N-1}) and returns N values; result i has the
// element type of init i.
StatusOr<std::vector<Tensor>> ReduceWithBody(const std::vector<Tensor>& inputs,
                                             const std::vector<Tensor>& inits,
                                             const std::vector<int64_t>& dimensions,
                                             const ScalarBody& body);

// The geometry of a window op; every vector has the operand's rank.
struct WindowGeometry {
  std::vector<int64_t> window_dimensions;
  std::vector<int64_t> window_strides;
  std::vector<int64_t> base_dilations;
  std::vector<int64_t> window_dilations;
  std::vector<int64_t> padding_low;
  std::vector<int64_t> padding_high;
};

// The result dims of a window op over `operand_dims` (INVALID_ARGUMENT for
// non-positive sizes, strides or dilations).
StatusOr<std::vector<int64_t>> WindowResultDims(const std::vector<int64_t>& operand_dims,
                                                const WindowGeometry& window);

// reduce_window with a known binary body (one input).
Tensor ReduceWindowFast(const Tensor& input, const Tensor& init, const WindowGeometry& window,
                        const std::vector<int64_t>& result_dims, ReduceKind kind);

// reduce_window with a general body over N inputs: padding and dilation
// holes read as the init values, as the spec defines.
StatusOr<std::vector<Tensor>> ReduceWindowWithBody(const std::vector<Tensor>& inputs,
                                                   const std::vector<Tensor>& inits,
                                                   const WindowGeometry& window,
                                                   const std::vector<int64_t>& result_dims,
                                                   const ScalarBody& body);

// select_and_scatter: for each window (one per element of `source`), picks
// one operand element with `select` (a (a, b) -> i1 body: keep a when true)
// among the elements inside the operand (padding is never selected), and
// combines the source value into the result there with `scatter`. The result
// starts as `init` everywhere.
StatusOr<Tensor> SelectAndScatter(const Tensor& operand, const Tensor& source, const Tensor& init,
                                  const WindowGeometry& window, const ScalarBody& select,
                                  const ScalarBody& scatter);

// map: result[i] = body(inputs_0[i], ..., inputs_{N-1}[i]).
StatusOr<Tensor> Map(const std::vector<Tensor>& inputs, ElementType result_type,
                     const ScalarBody& body);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_REDUCE_H_
