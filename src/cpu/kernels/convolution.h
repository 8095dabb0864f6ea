// plugrt CPU kernels: convolution with the full StableHLO generality
// (dimension numbers, strides, padding, lhs/rhs dilation, window reversal,
// feature and batch groups).
#ifndef PLUGRT_CPU_KERNELS_CONVOLUTION_H_
#define PLUGRT_CPU_KERNELS_CONVOLUTION_H_

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

struct ConvolutionConfig {
  int64_t input_batch_dimension = 0;
  int64_t input_feature_dimension = 1;
  std::vector<int64_t> input_spatial_dimensions;
  int64_t kernel_input_feature_dimension = 0;
  int64_t kernel_output_feature_dimension = 1;
  std::vector<int64_t> kernel_spatial_dimensions;
  int64_t output_batch_dimension = 0;
  int64_t output_feature_dimension = 1;
  std::vector<int64_t> output_spatial_dimensions;
  // One entry per spatial dimension (defaults filled in by the caller).
  std::vector<int64_t> window_strides;
  std::vector<int64_t> padding_low;
  std::vector<int64_t> padding_high;
  std::vector<int64_t> lhs_dilation;
  std::vector<int64_t> rhs_dilation;
  std::vector<bool> window_reversal;
  int64_t feature_group_count = 1;
  int64_t batch_group_count = 1;
};

// Checks the configuration against the operand shapes and returns the
// result dims.
StatusOr<std::vector<int64_t>> ConvolutionResultDims(const std::vector<int64_t>& lhs_dims,
                                                     const std::vector<int64_t>& rhs_dims,
                                                     const ConvolutionConfig& config);

// The convolution, accumulated in double / complex<double> / 64-bit integers
// and rounded once into `result_type`. `config` must have passed
// ConvolutionResultDims.
Tensor Convolution(const Tensor& lhs, const Tensor& rhs, const ConvolutionConfig& config,
                   ElementType result_type);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_CONVOLUTION_H_
