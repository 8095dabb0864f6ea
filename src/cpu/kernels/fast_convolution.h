// plugrt CPU kernels: convolution on oneDNN for f32 and bf16.
//
// oneDNN describes a convolution by logical dims (batch, feature, spatial...)
// and any memory strides, so every StableHLO dimension numbering maps onto it
// without copying the input or output; the kernel operand is reordered into
// oneDNN's blocked weights format, once for weights that stay the same from
// run to run (a model's weight arguments: kept while their storage lives,
// unchanged, see KeptCopy), on each run otherwise. Taken: 1 to 3
// spatial dims, strides, non-negative padding, kernel dilation. Left to the
// reference kernel (convolution.h): input dilation, window reversal, feature
// or batch groups, negative padding, other types. A plan may also apply an
// epilogue (convolution_epilogue.h) as oneDNN post-ops (from a residual add
// on, into results over 8 MiB: a fused loop after the convolution); such a
// plan is made only for f32 results oneDNN writes in the caller's layout.
#ifndef PLUGRT_CPU_KERNELS_FAST_CONVOLUTION_H_
#define PLUGRT_CPU_KERNELS_FAST_CONVOLUTION_H_

#include <memory>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/convolution.h"
#include "cpu/kernels/convolution_epilogue.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

class FastConvolution {
 public:
  // A plan, or null when oneDNN does not take this convolution (above). The
  // config must have passed ConvolutionResultDims for these dims.
  static std::shared_ptr<const FastConvolution> Plan(const std::vector<int64_t>& lhs_dims,
                                                     ElementType lhs_type,
                                                     const std::vector<int64_t>& rhs_dims,
                                                     ElementType rhs_type,
                                                     const ConvolutionConfig& config,
                                                     ElementType result_type,
                                                     int kernel_threads,
                                                     const ConvolutionEpilogue* epilogue = nullptr);
  ~FastConvolution();

  // At most `kernel_threads` threads (as FastDot::Run). `epilogue_inputs`:
  // the plan's epilogue's extra inputs, f32, in its order and shapes (checked).
  // `overwritable`: per epilogue input, whether the caller owns its storage
  // alone, so that the result may be computed into it (a residual).
  StatusOr<Tensor> Run(const Tensor& lhs, const Tensor& rhs, int kernel_threads,
                       const std::vector<Tensor>& epilogue_inputs = {},
                       const std::vector<bool>& overwritable = {}) const;

  // The result's dims and its feature dim, and the epilogue (empty when none).
  const std::vector<int64_t>& result_dims() const;
  int64_t result_feature_dimension() const;

  struct Impl;

 private:
  explicit FastConvolution(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_FAST_CONVOLUTION_H_
