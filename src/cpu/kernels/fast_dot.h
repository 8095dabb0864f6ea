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

#include <memory>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/dot.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

class FastDot {
 public:
  // A plan, or null when oneDNN does not take these types (f32 x f32 -> f32,
  // bf16 x bf16 -> f32 or bf16, s8/u8 x s8 -> s32) or the product is too
  // small to gain from it. `kernel_threads`: the budget runs will have.
  // The dims must have passed DotResultDims.
  static std::shared_ptr<const FastDot> Plan(const std::vector<int64_t>& lhs_dims,
                                             ElementType lhs_type,
                                             const std::vector<int64_t>& rhs_dims,
                                             ElementType rhs_type, const DotDimensions& dims,
                                             ElementType result_type,
                                             int kernel_threads);
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
