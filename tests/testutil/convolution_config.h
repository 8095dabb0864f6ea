// plugrt tests: the convolution layout Flax exports, for kernel-level tests.
#ifndef PLUGRT_TESTS_TESTUTIL_CONVOLUTION_CONFIG_H_
#define PLUGRT_TESTS_TESTUTIL_CONVOLUTION_CONFIG_H_

#include <cstdint>

#include "cpu/kernels/convolution.h"

namespace plugrt::testing {

// A 2-D convolution over an NHWC input with an HWIO kernel into an NHWC
// result: the same stride, padding (both sides) and input dilation in both
// spatial dimensions, no kernel dilation or reversal.
inline cpu::ConvolutionConfig Nhwc2D(int64_t stride, int64_t padding, int64_t lhs_dilation) {
  cpu::ConvolutionConfig c;
  c.input_batch_dimension = 0;
  c.input_spatial_dimensions = {1, 2};
  c.input_feature_dimension = 3;
  c.kernel_spatial_dimensions = {0, 1};
  c.kernel_input_feature_dimension = 2;
  c.kernel_output_feature_dimension = 3;
  c.output_batch_dimension = 0;
  c.output_spatial_dimensions = {1, 2};
  c.output_feature_dimension = 3;
  c.window_strides = {stride, stride};
  c.padding_low = {padding, padding};
  c.padding_high = {padding, padding};
  c.lhs_dilation = {lhs_dilation, lhs_dilation};
  c.rhs_dilation = {1, 1};
  c.window_reversal = {false, false};
  return c;
}

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_CONVOLUTION_CONFIG_H_
