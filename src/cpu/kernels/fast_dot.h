// plugrt CPU kernels: dot_general on oneDNN's matmul for f32, bf16 and int8
// (s8/u8 x s8 -> s32, the integer products of quantized dot_general: with
// VNNI on oneDNN's int8 matmul; without it, where oneDNN's int8 kernels
// saturate 16-bit pair sums, on plugrt's own exact AVX2 kernel
// (int8_gemm.h), or on CPUs without AVX2 as f32 sgemm in chunks of depth
// 1024, each exact, summed in s32).
//
// A plan is made once per op at compile time from the static shapes: the
// operands are viewed as [batch, M, K] and [batch, K, N] matrices through
// strides (so transposed operands and the usual attention layouts cost no
// copy); an operand whose dims cannot be merged that way is transposed into
// that order first. Results are row-major [batch..., lhs free..., rhs free...].
// oneDNN accumulates in f32, the reference kernel (dot.h) in double: results
// agree to f32 rounding of a sum, not bit for bit.
#ifndef PLUGRT_CPU_KERNELS_FAST_DOT_H_
#define PLUGRT_CPU_KERNELS_FAST_DOT_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/dot.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

// What an int8 plan can do to its product inside oneDNN's matmul before it
// stores it: subtract lhs_zero_point from every lhs integer, multiply each
// result column's sum (converted to f32) by its scale, add zero_point,
// round to nearest even and saturate to the result type (s8, u8 or s32).
// `scales`: one for the whole result, or one per result column (the last
// result dimension, which must then be the rhs's one free dimension).
struct Int8Rescale {
  int32_t lhs_zero_point = 0;
  std::vector<float> scales;
  int32_t zero_point = 0;
};

class FastDot {
 public:
  // A plan, or null when oneDNN does not take these types (f32 x f32 -> f32,
  // bf16 x bf16 -> f32 or bf16, s8/u8 x s8 -> s32) or the product is too
  // small to gain from it. `kernel_threads`: the budget runs will have.
  // The dims must have passed DotResultDims. With `rescale`, an s8/u8 x s8
  // product applies it and has `result_type` s8, u8 or s32; null unless the
  // CPU has VNNI (the only int8 kernels of oneDNN that are exact).
  static std::shared_ptr<const FastDot> Plan(const std::vector<int64_t>& lhs_dims,
                                             ElementType lhs_type,
                                             const std::vector<int64_t>& rhs_dims,
                                             ElementType rhs_type, const DotDimensions& dims,
                                             ElementType result_type, int kernel_threads,
                                             const Int8Rescale* rescale = nullptr);
  ~FastDot();

  // The product; operands must have the planned dims and types. At most
  // `kernel_threads` threads (the plan prepared oneDNN's primitive for the
  // budget given to Plan; another budget prepares one more).
  StatusOr<Tensor> Run(const Tensor& lhs, const Tensor& rhs, int kernel_threads) const;

  struct Impl;

 private:
  explicit FastDot(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_FAST_DOT_H_
