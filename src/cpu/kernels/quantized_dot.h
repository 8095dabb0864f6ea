// plugrt CPU kernels: "plugrt.quantized_dot", a quantized dot_general as
// integers (kernels_abi/custom_call_targets.h defines the op): the product
// of 8-bit storage integers, its lhs zero-point correction and its rescaling
// to the result's storage integers.
//
// Where the CPU has VNNI, the product is big enough for oneDNN and the
// scales are one or one per result column, all of it is one oneDNN int8
// matmul writing the result's integers (FastDot with an Int8Rescale). Else
// the i32 product (FastDot, or the reference kernel) is corrected and
// rescaled here, with the same arithmetic: the exact integer sum converted
// to f32 once, times the f32 scale, plus the zero point, rounded to nearest
// even and clamped.
#ifndef PLUGRT_CPU_KERNELS_QUANTIZED_DOT_H_
#define PLUGRT_CPU_KERNELS_QUANTIZED_DOT_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/dot.h"
#include "cpu/kernels/fast_dot.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

// How the integer product becomes the result's storage integers.
struct QuantizedDotParams {
  int64_t lhs_zero_point = 0;
  std::vector<float> scales;        // one, or one per index of scale_dimension
  std::vector<int64_t> zero_points; // as many as scales
  int64_t scale_dimension = -1;     // of the result; -1: one scale
  int64_t storage_min = 0, storage_max = 0;
  bool full_range = false;  // [storage_min, storage_max] is all of `storage`
  ElementType storage = ElementType::kSI8;  // the result's element type
};

class QuantizedDot {
 public:
  // Checks the types and parameters against the static operand dims. The
  // fused oneDNN plan is made when `fast_paths` allows it and it applies.
  static StatusOr<std::shared_ptr<const QuantizedDot>> Plan(
      const std::vector<int64_t>& lhs_dims, ElementType lhs_type,
      const std::vector<int64_t>& rhs_dims, ElementType rhs_type, const DotDimensions& dims,
      QuantizedDotParams params, bool fast_paths, int kernel_threads);

  // The result for operands of the planned dims and types.
  StatusOr<Tensor> Run(const Tensor& lhs, const Tensor& rhs, int kernel_threads) const;

  // batch dims, then lhs free dims, then rhs free dims.
  const std::vector<int64_t>& result_dims() const { return result_dims_; }
  // True when Run is one oneDNN matmul (tests and benchmarks ask).
  bool fused() const { return fused_ != nullptr; }

 private:
  QuantizedDot() = default;
  // The rescaling of the i32 `product`, corrected by the column sums of
  // `rhs` (ordered [batch, contracted, free]).
  Tensor Rescale(const Tensor& product, const Tensor& rhs, int threads) const;

  DotDimensions dims_;
  QuantizedDotParams params_;
  std::vector<int64_t> result_dims_;
  std::vector<int64_t> rhs_order_;  // the rhs transposed for its column sums (empty: as it is)
  std::shared_ptr<const FastDot> fused_;    // the whole op on oneDNN
  std::shared_ptr<const FastDot> product_;  // the i32 product only (else reference)
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_QUANTIZED_DOT_H_
