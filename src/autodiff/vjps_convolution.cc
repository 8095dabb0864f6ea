// convolution's VJP. Both gradients are convolutions again (lhs dilation
// and batch groups reduced to plain and feature-grouped ones), written in a
// canonical layout ([batch, feature, spatial...] x [out, in, spatial...])
// that the operands are transposed into and the gradients out of:
//  - the input's: the output gradient, dilated by the strides, convolved
//    with the kernel flipped in space and with in/out features swapped
//    (per feature group);
//  - the kernel's: the input convolved with the output gradient, batch and
//    feature swapped on both, the strides becoming the kernel's dilation
//    and the kernel's dilation the strides; feature groups become batch
//    groups.
#include "autodiff/builtin_rules.h"

namespace plugrt::autodiff::internal {

namespace {

// [0, 1, 2, ...] with the first two swapped.
std::vector<int64_t> SwapFirstTwo(size_t rank) {
  std::vector<int64_t> perm;
  for (size_t d = 0; d < rank; ++d) perm.push_back(static_cast<int64_t>(d));
  std::swap(perm[0], perm[1]);
  return perm;
}

struct CanonicalConv {
  std::vector<int64_t> strides, padding, lhs_dilation, rhs_dilation;
  int64_t feature_groups = 1, batch_groups = 1;
};

// A convolution of canonical layouts.
StatusOr<Tensor> Convolve(Context& ctx, const Tensor& lhs, const Tensor& rhs,
                          const CanonicalConv& c) {
  const int64_t n = static_cast<int64_t>(c.strides.size());
  std::vector<int64_t> spatial;
  for (int64_t j = 0; j < n; ++j) spatial.push_back(j + 2);
  eager::Op op(ctx, "stablehlo.convolution");
  for (const char* name : {"input_batch_dimension", "output_batch_dimension",
                           "kernel_output_feature_dimension"}) {
    PLUGRT_RETURN_IF_ERROR(op.SetAttr(name, int64_t{0}));
  }
  for (const char* name : {"input_feature_dimension", "output_feature_dimension",
                           "kernel_input_feature_dimension"}) {
    PLUGRT_RETURN_IF_ERROR(op.SetAttr(name, int64_t{1}));
  }
  for (const char* name : {"input_spatial_dimensions", "kernel_spatial_dimensions",
                           "output_spatial_dimensions"}) {
    PLUGRT_RETURN_IF_ERROR(op.SetAttr(name, spatial));
  }
  PLUGRT_RETURN_IF_ERROR(op.SetAttr("window_strides", c.strides));
  PLUGRT_RETURN_IF_ERROR(op.SetAttr("padding", c.padding));
  PLUGRT_RETURN_IF_ERROR(op.SetAttr("lhs_dilation", c.lhs_dilation));
  PLUGRT_RETURN_IF_ERROR(op.SetAttr("rhs_dilation", c.rhs_dilation));
  PLUGRT_RETURN_IF_ERROR(op.SetAttr("feature_group_count", c.feature_groups));
  PLUGRT_RETURN_IF_ERROR(op.SetAttr("batch_group_count", c.batch_groups));
  PLUGRT_RETURN_IF_ERROR(op.AddInput(lhs));
  PLUGRT_RETURN_IF_ERROR(op.AddInput(rhs));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> out, op.Execute());
  return out[0];
}

StatusOr<Grads> ConvolutionVjp(const VjpCall& call) {
  const eager::AttrReader a(call.op.name(), call.op.attrs());
  PLUGRT_ASSIGN_OR_RETURN(int64_t ib, a.Int("input_batch_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t if_, a.Int("input_feature_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> is, a.Ints("input_spatial_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t ki, a.Int("kernel_input_feature_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t ko, a.Int("kernel_output_feature_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> ks, a.Ints("kernel_spatial_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t ob, a.Int("output_batch_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t of, a.Int("output_feature_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> os, a.Ints("output_spatial_dimensions"));
  const size_t n = is.size();
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides, a.IntsOrEmpty("window_strides"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> padding, a.IntsOrEmpty("padding"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> lhs_dil, a.IntsOrEmpty("lhs_dilation"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> rhs_dil, a.IntsOrEmpty("rhs_dilation"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t groups, a.Int("feature_group_count", 1));
  PLUGRT_ASSIGN_OR_RETURN(int64_t batch_groups, a.Int("batch_group_count", 1));
  if (strides.empty()) strides.assign(n, 1);
  if (padding.empty()) padding.assign(2 * n, 0);
  if (rhs_dil.empty()) rhs_dil.assign(n, 1);
  if (lhs_dil.empty()) lhs_dil.assign(n, 1);
  if (batch_groups > 1 && groups > 1) {
    // No such convolution exists to differentiate.
    return InvalidArgument(call.op.name(), ": feature_group_count ", groups,
                           " and batch_group_count ", batch_groups,
                           " (the StableHLO spec's C23: one of them must be 1)");
  }

  TensorMath m(call.context());
  std::vector<int64_t> lhs_perm{ib, if_}, rhs_perm{ko, ki}, out_perm{ob, of};
  lhs_perm.insert(lhs_perm.end(), is.begin(), is.end());
  rhs_perm.insert(rhs_perm.end(), ks.begin(), ks.end());
  out_perm.insert(out_perm.end(), os.begin(), os.end());
  PLUGRT_ASSIGN_OR_RETURN(Tensor lhs, m.Transpose(call.op.inputs()[0], lhs_perm));
  PLUGRT_ASSIGN_OR_RETURN(Tensor rhs, m.Transpose(call.op.inputs()[1], rhs_perm));
  PLUGRT_ASSIGN_OR_RETURN(Tensor g, m.Transpose(call.output_grads[0], out_perm));
  // Reduced to the case below: an lhs dilation is zeros between the input's
  // elements (a pad), and batch groups are feature groups once group j of
  // the batch is moved next to the features ([N, C] -> [N/B, B*C]).
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type ltype, lhs.dtype());
  PLUGRT_ASSIGN_OR_RETURN(Tensor zero, m.Filled(ltype, {}, 0.0, lhs.device_name()));
  std::vector<int64_t> interior{0, 0}, edges(n + 2, 0);
  bool dilated = false;
  for (int64_t d : lhs_dil) {
    interior.push_back(d - 1);
    dilated |= d != 1;
  }
  if (dilated) {
    PLUGRT_ASSIGN_OR_RETURN(lhs, m.Pad(lhs, zero, edges, edges, interior));
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> spread, lhs.dims());  // N, C, X'...
  std::vector<int64_t> by_group{batch_groups, spread[0] / batch_groups, spread[1]};
  std::vector<int64_t> group_major{1, 0, 2}, merged_lhs{spread[0] / batch_groups,
                                                        batch_groups * spread[1]};
  for (size_t j = 0; j < n; ++j) {
    by_group.push_back(spread[2 + j]);
    group_major.push_back(static_cast<int64_t>(3 + j));
    merged_lhs.push_back(spread[2 + j]);
  }
  if (batch_groups > 1) {
    PLUGRT_ASSIGN_OR_RETURN(lhs, m.Reshape(lhs, by_group));
    PLUGRT_ASSIGN_OR_RETURN(lhs, m.Transpose(lhs, group_major));
    PLUGRT_ASSIGN_OR_RETURN(lhs, m.Reshape(lhs, merged_lhs));
    groups = batch_groups;
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> ldims, lhs.dims());  // N, C, X...
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> rdims, rhs.dims());  // O, Ci, K...
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> gdims, g.dims());    // N, O, Y...
  const int64_t out_features = rdims[0], in_per_group = rdims[1];
  std::vector<int64_t> ones(n, 1);
  Grads grads(2);

  PLUGRT_ASSIGN_OR_RETURN(bool lhs_float, IsDifferentiable(call.op.inputs()[0]));
  if (lhs_float) {
    // Kernel [O, Ci, K] -> [G, O/G, Ci, K] -> [G, Ci, O/G, K] -> [C, O/G, K],
    // flipped in space.
    std::vector<int64_t> split{groups, out_features / groups, in_per_group};
    std::vector<int64_t> merged{groups * in_per_group, out_features / groups};
    std::vector<int64_t> swap{0, 2, 1}, spatial_dims;
    for (size_t j = 0; j < n; ++j) {
      split.push_back(rdims[2 + j]);
      merged.push_back(rdims[2 + j]);
      swap.push_back(static_cast<int64_t>(3 + j));
      spatial_dims.push_back(static_cast<int64_t>(2 + j));
    }
    PLUGRT_ASSIGN_OR_RETURN(Tensor k, m.Reshape(rhs, split));
    PLUGRT_ASSIGN_OR_RETURN(k, m.Transpose(k, swap));
    PLUGRT_ASSIGN_OR_RETURN(k, m.Reshape(k, merged));
    PLUGRT_ASSIGN_OR_RETURN(k, m.Run1("stablehlo.reverse", {k}, {{"dimensions", spatial_dims}}));
    CanonicalConv c;
    c.strides = ones;
    c.lhs_dilation = strides;
    c.rhs_dilation = rhs_dil;
    c.feature_groups = groups;
    for (size_t j = 0; j < n; ++j) {
      const int64_t span = (rdims[2 + j] - 1) * rhs_dil[j] + 1;
      c.padding.push_back(span - 1 - padding[2 * j]);
      c.padding.push_back(ldims[2 + j] + padding[2 * j] - (gdims[2 + j] - 1) * strides[j] - 1);
    }
    PLUGRT_ASSIGN_OR_RETURN(Tensor gl, Convolve(call.context(), g, k, c));
    if (batch_groups > 1) {
      std::vector<int64_t> split_back{spread[0] / batch_groups, batch_groups, spread[1]};
      for (size_t j = 0; j < n; ++j) split_back.push_back(spread[2 + j]);
      PLUGRT_ASSIGN_OR_RETURN(gl, m.Reshape(gl, split_back));
      PLUGRT_ASSIGN_OR_RETURN(gl, m.Transpose(gl, group_major));
      PLUGRT_ASSIGN_OR_RETURN(gl, m.Reshape(gl, spread));
    }
    if (dilated) {
      std::vector<int64_t> start(n + 2, 0), stride{1, 1};
      stride.insert(stride.end(), lhs_dil.begin(), lhs_dil.end());
      PLUGRT_ASSIGN_OR_RETURN(gl, m.Slice(gl, start, spread, stride));
    }
    PLUGRT_ASSIGN_OR_RETURN(grads[0], m.Transpose(gl, Inverse(lhs_perm)));
  }

  PLUGRT_ASSIGN_OR_RETURN(bool rhs_float, IsDifferentiable(call.op.inputs()[1]));
  if (rhs_float) {
    PLUGRT_ASSIGN_OR_RETURN(Tensor in, m.Transpose(lhs, SwapFirstTwo(n + 2)));  // C, N, X
    PLUGRT_ASSIGN_OR_RETURN(Tensor kg, m.Transpose(g, SwapFirstTwo(n + 2)));    // O, N, Y
    CanonicalConv c;
    c.strides = rhs_dil;
    c.lhs_dilation = ones;
    c.rhs_dilation = strides;
    c.batch_groups = groups;
    for (size_t j = 0; j < n; ++j) {
      c.padding.push_back(padding[2 * j]);
      c.padding.push_back((rdims[2 + j] - 1) * rhs_dil[j] + (gdims[2 + j] - 1) * strides[j] + 1 -
                          ldims[2 + j] - padding[2 * j]);
    }
    PLUGRT_ASSIGN_OR_RETURN(Tensor gr, Convolve(call.context(), in, kg, c));  // Ci, O, K
    PLUGRT_ASSIGN_OR_RETURN(gr, m.Transpose(gr, SwapFirstTwo(n + 2)));
    PLUGRT_ASSIGN_OR_RETURN(grads[1], m.Transpose(gr, Inverse(rhs_perm)));
  }
  return grads;
}

}  // namespace

void AddConvolutionVjp(const AddVjp& add) { add("stablehlo.convolution", ConvolutionVjp); }

}  // namespace plugrt::autodiff::internal
