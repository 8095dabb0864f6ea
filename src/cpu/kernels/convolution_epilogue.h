// plugrt CPU kernels: elementwise work a convolution applies to its result
// before storing it (oneDNN post-ops), so that batch norm in inference form,
// a bias, a residual add and relu/relu6 after a convolution cost no second
// pass over its result.
//
// The epilogue is a chain: each step combines the running value with one
// constant or one extra input, in order. An extra input is a vector along
// the result's feature dim (per channel), a tensor of the result's shape, or
// one value. FastConvolution folds the leading per-channel affine steps into
// its weights and a bias (which rounds differently from the steps one at a
// time) and applies the rest as post-ops; max/min take oneDNN's semantics, in
// which a NaN running value comes out as the other operand.
#ifndef PLUGRT_CPU_KERNELS_CONVOLUTION_EPILOGUE_H_
#define PLUGRT_CPU_KERNELS_CONVOLUTION_EPILOGUE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "cpu/kernels/fused_loop.h"

namespace plugrt::cpu {

struct ConvolutionEpilogue {
  enum class Operand : uint8_t {
    kPerChannel,  // one value per output feature
    kFull,        // the result's shape, row-major
    kScalar,      // one value
  };
  enum class Kind : uint8_t { kAdd, kSubtract, kMultiply, kMaximum, kMinimum };
  struct Step {
    Kind kind = Kind::kAdd;
    int input = -1;  // index into `inputs`, or -1 for the constant `value`
    float value = 0;
  };
  std::vector<Operand> inputs;  // the extra f32 inputs, in the order Run takes them
  std::vector<Step> steps;

  // "sub(per-channel 0), mul(per-channel 1), max(0)": for the profiler.
  std::string ToString() const;
};

// Steps [first_step, end) of `epilogue` as a fused loop (fused_loop.h) over
// the result viewed as [rows, features], features last: input 0 is the
// result, then the epilogue's inputs in its order (a per-channel input is a
// column). The steps a convolution leaves to a pass of its own (a residual
// add into a result larger than the caches, see fast_convolution.cc); there
// max/min propagate NaN, as the unfused ops do.
fused::Kernel EpilogueTailKernel(const ConvolutionEpilogue& epilogue, size_t first_step,
                                 const std::vector<int64_t>& result_dims);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_CONVOLUTION_EPILOGUE_H_
