// plugrt StableHLO: the shape functions of ops, as plain arithmetic on dims.
//
// Each function computes a result shape from operand shapes and attribute
// values, the way the StableHLO spec states it. They are written once here
// and used by everything that needs an op's result shape:
//   - the verifier (stablehlo/verifier_*.cc), which checks a declared result
//     shape against them once it has checked the attributes;
//   - type inference (stablehlo/type_inference.h), which fills the '?' dims of
//     shape-polymorphic programs from them (shape refinement);
//   - the eager op definitions (eager/op_defs.cc), which build result types;
//   - the kernels that size their results (cpu/kernels/data_movement.cc).
// The op table (stablehlo/op_code.h) names, for each op, which rule its
// result shape follows (its OpShape column).
//
// The inputs are assumed valid (ranks match, indices in range): callers check
// attributes first. '?' (kDynamicSize) in gives '?' out where it matters; a
// size that would overflow int64 is '?' rather than wrapping.
#ifndef PLUGRT_STABLEHLO_SHAPE_RULES_H_
#define PLUGRT_STABLEHLO_SHAPE_RULES_H_

#include <cstdint>
#include <vector>

namespace plugrt::shlo {

// A dimension size of '?' in tensor<?x4xf32>.
inline constexpr int64_t kDynamicSize = INT64_MIN;

namespace shape {

using Dims = std::vector<int64_t>;

// Window arithmetic (convolution, reduce_window, select_and_scatter).
// `size = 0 ? 0 : (size - 1) * dilation + 1`.
int64_t Dilated(int64_t size, int64_t dilation);
// `low + size + high`.
int64_t Padded(int64_t low, int64_t size, int64_t high);
// How many windows of `window` elements, `stride` apart, fit in `padded`.
int64_t NumWindows(int64_t padded, int64_t window, int64_t stride);
// The windows over one dimension of `in` elements: base-dilated, padded,
// then windows of the window-dilated size.
int64_t WindowedSize(int64_t in, int64_t window, int64_t stride, int64_t pad_low,
                     int64_t pad_high, int64_t base_dilation, int64_t window_dilation);

// broadcast: broadcast_sizes followed by the operand's dims.
Dims Broadcast(const Dims& sizes, const Dims& operand);
// transpose: dim(operand, permutation...).
Dims Transpose(const Dims& operand, const Dims& permutation);
// slice: ceil((limit - start) / stride) per dimension.
Dims Slice(const Dims& start, const Dims& limit, const Dims& strides);
// concatenate: the first input's dims, with `dimension` the sum over all.
Dims Concatenate(const std::vector<Dims>& inputs, int64_t dimension);
// pad: low + size + max(size - 1, 0) * interior + high.
Dims Pad(const Dims& operand, const Dims& low, const Dims& high, const Dims& interior);
// reduce: the operand's dims without `dimensions`.
Dims Reduce(const Dims& operand, const Dims& dimensions);

struct DotDimensions {
  Dims lhs_batching, rhs_batching, lhs_contracting, rhs_contracting;
};
// dot_general: batch dims, lhs free dims, rhs free dims.
Dims DotGeneral(const Dims& lhs, const Dims& rhs, const DotDimensions& dn);
// dot (legacy): [m] x [m] -> [], [m,k] x [k] -> [m], [k] x [k,n] -> [n], [m,k] x [k,n] -> [m,n].
Dims Dot(const Dims& lhs, const Dims& rhs);

struct Window {
  Dims dimensions, strides, base_dilations, window_dilations;
  Dims padding;  // (low, high) per dimension, flattened
};
// reduce_window: the number of windows per dimension (every list has one
// entry per operand dimension; padding two).
Dims ReduceWindow(const Dims& operand, const Window& window);

struct ConvDimensions {
  int64_t input_batch = 0, input_feature = 1;
  Dims input_spatial;
  int64_t kernel_input_feature = 0, kernel_output_feature = 1;
  Dims kernel_spatial;
  int64_t output_batch = 0, output_feature = 1;
  Dims output_spatial;
};
// convolution: batch / batch_group_count, the kernel's output features, and
// the windows per spatial dimension (strides, lhs/rhs dilations one entry per
// spatial dimension, padding two).
Dims Convolution(const Dims& lhs, const Dims& rhs, const ConvDimensions& dn, const Dims& strides,
                 const Dims& padding, const Dims& lhs_dilation, const Dims& rhs_dilation,
                 int64_t batch_group_count);

struct GatherDimensions {
  Dims offset_dims, collapsed_slice_dims, operand_batching_dims;
  int64_t index_vector_dim = 0;
};
// gather: the indices' batch dims, with the slice's kept dims at offset_dims.
Dims Gather(const Dims& indices, const Dims& slice_sizes, const GatherDimensions& dn);

// reshape of `elements` elements (-1: unknown) to `declared` with at most
// one '?': that dim worked out; `declared` unchanged otherwise.
Dims Reshape(int64_t elements, const Dims& declared);

}  // namespace shape
}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_SHAPE_RULES_H_
