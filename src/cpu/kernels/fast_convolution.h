// plugrt CPU kernels: convolution on oneDNN for f32 and bf16.
//
// oneDNN describes a convolution by logical dims (batch, feature, spatial...)
// and any memory strides, so every StableHLO dimension numbering maps onto it
// without copying the input or output; the kernel operand is reordered into
// oneDNN's blocked weights format, once for weights that stay the same from
// run to run (a model's weight arguments: kept while their storage lives,
// unchanged, see Tensor::HandOverCount), on each run otherwise. Taken: 1 to 3
// spatial dims, strides, non-negative padding, kernel dilation. Left to the
// reference kernel (convolution.h): input dilation, window reversal, feature
// or batch groups, negative padding, other types.
#ifndef PLUGRT_CPU_KERNELS_FAST_CONVOLUTION_H_
#define PLUGRT_CPU_KERNELS_FAST_CONVOLUTION_H_

#include <memory>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/convolution.h"
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
                                                     int kernel_threads);
  ~FastConvolution();

  // At most `kernel_threads` threads (as FastDot::Run).
  StatusOr<Tensor> Run(const Tensor& lhs, const Tensor& rhs, int kernel_threads) const;

  struct Impl;

 private:
  explicit FastConvolution(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_FAST_CONVOLUTION_H_
