// plugrt CPU kernels: shape and data movement (broadcast, reshape, transpose,
// slices, concatenate, pad, reverse). Each is a type-generic byte mover
// built on StridedCopy. Every kernel checks its arguments against the
// operand shapes and returns INVALID_ARGUMENT instead of reading or writing
// out of bounds, so a malformed program cannot crash the process.
#ifndef PLUGRT_CPU_KERNELS_DATA_MOVEMENT_H_
#define PLUGRT_CPU_KERNELS_DATA_MOVEMENT_H_

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

// Operand dim k becomes result dim broadcast_dimensions[k]; operand size 1
// broadcasts, other sizes must match. A large result is written by up to
// `threads` threads (bands of its outermost dimension).
StatusOr<Tensor> BroadcastInDim(const Tensor& operand, const std::vector<int64_t>& result_dims,
                                const std::vector<int64_t>& broadcast_dimensions,
                                int threads = 1);

// Same elements, new dims (shares storage with the operand).
StatusOr<Tensor> Reshape(const Tensor& operand, const std::vector<int64_t>& result_dims);

// result dim k is operand dim permutation[k]. A large result is written by up
// to `threads` threads (bands of its outermost dimension).
StatusOr<Tensor> Transpose(const Tensor& operand, const std::vector<int64_t>& permutation,
                           int threads = 1);

// Elements start[k], start[k] + strides[k], ... below limit[k].
StatusOr<Tensor> Slice(const Tensor& operand, const std::vector<int64_t>& start,
                       const std::vector<int64_t>& limit, const std::vector<int64_t>& strides);

// A slice of `sizes` at `start`, each start clamped to [0, dim - size].
StatusOr<Tensor> DynamicSlice(const Tensor& operand, const std::vector<int64_t>& start,
                              const std::vector<int64_t>& sizes);

// The operand with `update` written at `start` (clamped to [0, dim - update
// dim]).
StatusOr<Tensor> DynamicUpdateSlice(const Tensor& operand, const Tensor& update,
                                    const std::vector<int64_t>& start);
// The same, written into `operand`'s own memory: for a caller holding the
// only reference to it (Tensor::HasUniqueStorage), so a scan's outputs
// buffer or a donated KV cache gets one slot written, not a copy of itself.
Status DynamicUpdateSliceInPlace(Tensor& operand, const Tensor& update,
                                 const std::vector<int64_t>& start);

// The inputs joined along `dimension`.
StatusOr<Tensor> Concatenate(const std::vector<Tensor>& inputs, int64_t dimension);

// Pads with the one element of `padding_value`: `low`/`high` before/after
// each dim (negative values crop), `interior` between neighbours (>= 0).
StatusOr<Tensor> Pad(const Tensor& operand, const Tensor& padding_value,
                     const std::vector<int64_t>& low, const std::vector<int64_t>& high,
                     const std::vector<int64_t>& interior);

// The operand with the order of elements along each of `dimensions` flipped.
StatusOr<Tensor> Reverse(const Tensor& operand, const std::vector<int64_t>& dimensions);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_DATA_MOVEMENT_H_
