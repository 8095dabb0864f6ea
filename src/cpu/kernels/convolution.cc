#include "cpu/kernels/convolution.h"

#include <algorithm>

#include "cpu/kernels/compute_common.h"

namespace plugrt::cpu {
namespace {

// Checks that `dims` (a batch/feature pair plus spatial dims) are distinct
// and within `rank`.
Status CheckDimensionSet(int64_t a, int64_t b, const std::vector<int64_t>& spatial, int64_t rank,
                         const char* what) {
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  std::vector<int64_t> all = spatial;
  all.push_back(a);
  all.push_back(b);
  if (static_cast<int64_t>(all.size()) != rank) {
    return InvalidArgument(what, " dimension numbers must name each of the ", rank,
                           " dimensions once");
  }
  for (int64_t d : all) {
    if (d < 0 || d >= rank || seen[d]) {
      return InvalidArgument(what, " dimension numbers must name each of the ", rank,
                             " dimensions once");
    }
    seen[d] = true;
  }
  return OkStatus();
}

template <typename D, StepRounding R>
Tensor ConvolutionIn(const Tensor& lhs, const Tensor& rhs, const ConvolutionConfig& c,
                     ElementType result_type, const std::vector<int64_t>& out_dims) {
  const size_t ns = c.input_spatial_dimensions.size();
  std::vector<D> a = ToDomain<D>(lhs);
  std::vector<D> b = ToDomain<D>(rhs);
  std::vector<int64_t> ls = RowMajorStrides(lhs.dims());
  std::vector<int64_t> rs = RowMajorStrides(rhs.dims());
  const int64_t in_features = rhs.dims()[c.kernel_input_feature_dimension];
  const int64_t out_features = rhs.dims()[c.kernel_output_feature_dimension];
  const int64_t out_batch = out_dims[c.output_batch_dimension];
  const int64_t per_feature_group = out_features / c.feature_group_count;
  const int64_t per_batch_group = out_features / c.batch_group_count;

  // Per spatial dim: table[p * K + k] = lhs coordinate read by output
  // position p and kernel position k, or -1 for padding / dilation holes.
  std::vector<std::vector<int64_t>> tables(ns);
  std::vector<int64_t> kernel_sizes(ns);
  for (size_t i = 0; i < ns; ++i) {
    const int64_t in_size = lhs.dims()[c.input_spatial_dimensions[i]];
    const int64_t k_size = rhs.dims()[c.kernel_spatial_dimensions[i]];
    const int64_t out_size = out_dims[c.output_spatial_dimensions[i]];
    kernel_sizes[i] = k_size;
    tables[i].assign(static_cast<size_t>(out_size * k_size), -1);
    for (int64_t p = 0; p < out_size; ++p) {
      for (int64_t k = 0; k < k_size; ++k) {
        int64_t pos = p * c.window_strides[i] + k * c.rhs_dilation[i] - c.padding_low[i];
        if (pos < 0 || pos % c.lhs_dilation[i] != 0) continue;
        int64_t x = pos / c.lhs_dilation[i];
        if (x < in_size) tables[i][p * k_size + k] = x;
      }
    }
  }
  const int64_t window = NumElements(kernel_sizes);

  std::vector<D> out(static_cast<size_t>(NumElements(out_dims)), D{});
  if (out.empty()) return FromDomain<D>(result_type, out_dims, out);
  std::vector<int64_t> index(out_dims.size(), 0);
  std::vector<int64_t> k(ns);
  for (size_t flat = 0; flat < out.size(); ++flat) {
    const int64_t n = index[c.output_batch_dimension];
    const int64_t o = index[c.output_feature_dimension];
    const int64_t feature_group = o / per_feature_group;
    const int64_t batch_group = o / per_batch_group;
    const int64_t lhs_n = batch_group * out_batch + n;
    D acc{};
    std::fill(k.begin(), k.end(), 0);
    for (int64_t w = 0; w < window; ++w) {
      int64_t lhs_off = lhs_n * ls[c.input_batch_dimension];
      int64_t rhs_off = o * rs[c.kernel_output_feature_dimension];
      bool inside = true;
      for (size_t i = 0; i < ns; ++i) {
        int64_t x = tables[i][index[c.output_spatial_dimensions[i]] * kernel_sizes[i] + k[i]];
        if (x < 0) {
          inside = false;
          break;
        }
        lhs_off += x * ls[c.input_spatial_dimensions[i]];
        int64_t kk = c.window_reversal[i] ? kernel_sizes[i] - 1 - k[i] : k[i];
        rhs_off += kk * rs[c.kernel_spatial_dimensions[i]];
      }
      if (inside) {
        const int64_t lf = ls[c.input_feature_dimension];
        const int64_t rf = rs[c.kernel_input_feature_dimension];
        lhs_off += feature_group * in_features * lf;
        for (int64_t f = 0; f < in_features; ++f) {
          acc = RoundStep<R>(acc + RoundStep<R>(a[lhs_off + f * lf] * b[rhs_off + f * rf], result_type),
                             result_type);
        }
      }
      NextIndex(k, kernel_sizes);
    }
    out[flat] = acc;
    NextIndex(index, out_dims);
  }
  return FromDomain<D>(result_type, out_dims, out);
}

}  // namespace

StatusOr<std::vector<int64_t>> ConvolutionResultDims(const std::vector<int64_t>& lhs_dims,
                                                     const std::vector<int64_t>& rhs_dims,
                                                     const ConvolutionConfig& c) {
  const size_t ns = c.input_spatial_dimensions.size();
  const int64_t rank = static_cast<int64_t>(ns) + 2;
  if (static_cast<int64_t>(lhs_dims.size()) != rank ||
      static_cast<int64_t>(rhs_dims.size()) != rank) {
    return InvalidArgument("lhs and rhs must have rank ", rank, " (", ns,
                           " spatial dimensions plus batch and feature)");
  }
  if (c.kernel_spatial_dimensions.size() != ns || c.output_spatial_dimensions.size() != ns) {
    return InvalidArgument("input, kernel and output must have the same number of spatial "
                           "dimensions");
  }
  PLUGRT_RETURN_IF_ERROR(CheckDimensionSet(c.input_batch_dimension, c.input_feature_dimension,
                                           c.input_spatial_dimensions, rank, "input"));
  PLUGRT_RETURN_IF_ERROR(CheckDimensionSet(c.kernel_input_feature_dimension,
                                           c.kernel_output_feature_dimension,
                                           c.kernel_spatial_dimensions, rank, "kernel"));
  PLUGRT_RETURN_IF_ERROR(CheckDimensionSet(c.output_batch_dimension, c.output_feature_dimension,
                                           c.output_spatial_dimensions, rank, "output"));
  if (c.window_strides.size() != ns || c.padding_low.size() != ns ||
      c.padding_high.size() != ns || c.lhs_dilation.size() != ns || c.rhs_dilation.size() != ns ||
      c.window_reversal.size() != ns) {
    return InvalidArgument("window attributes must have one entry per spatial dimension (", ns,
                           ")");
  }
  const int64_t G = c.feature_group_count, B = c.batch_group_count;
  if (G <= 0 || B <= 0) return InvalidArgument("group counts must be positive");
  if (G > 1 && B > 1) {
    return InvalidArgument("feature_group_count and batch_group_count cannot both exceed 1");
  }
  const int64_t batch = lhs_dims[c.input_batch_dimension];
  const int64_t features = lhs_dims[c.input_feature_dimension];
  const int64_t kin = rhs_dims[c.kernel_input_feature_dimension];
  const int64_t kout = rhs_dims[c.kernel_output_feature_dimension];
  if (features % G != 0 || features / G != kin) {
    return InvalidArgument("input feature size ", features, " must equal kernel input features ",
                           kin, " times feature_group_count ", G);
  }
  if (kout % G != 0) {
    return InvalidArgument("kernel output features ", kout,
                           " must be divisible by feature_group_count ", G);
  }
  if (batch % B != 0 || kout % B != 0) {
    return InvalidArgument("input batch ", batch, " and kernel output features ", kout,
                           " must be divisible by batch_group_count ", B);
  }
  std::vector<int64_t> out(static_cast<size_t>(rank));
  out[c.output_batch_dimension] = batch / B;
  out[c.output_feature_dimension] = kout;
  for (size_t i = 0; i < ns; ++i) {
    if (c.window_strides[i] <= 0 || c.lhs_dilation[i] <= 0 || c.rhs_dilation[i] <= 0) {
      return InvalidArgument("strides and dilations must be positive");
    }
    const int64_t in = lhs_dims[c.input_spatial_dimensions[i]];
    const int64_t k = rhs_dims[c.kernel_spatial_dimensions[i]];
    int64_t dilated = in == 0 ? 0 : (in - 1) * c.lhs_dilation[i] + 1;
    int64_t padded = dilated + c.padding_low[i] + c.padding_high[i];
    int64_t window = k == 0 ? 0 : (k - 1) * c.rhs_dilation[i] + 1;
    out[c.output_spatial_dimensions[i]] =
        padded < window ? 0 : (padded - window) / c.window_strides[i] + 1;
  }
  return out;
}

Tensor Convolution(const Tensor& lhs, const Tensor& rhs, const ConvolutionConfig& config,
                   ElementType result_type) {
  std::vector<int64_t> out_dims = ConvolutionResultDims(lhs.dims(), rhs.dims(), config).value();
  // As dot_general: double for f64/c128, single precision steps otherwise.
  const bool wide = result_type == ElementType::kF64 || result_type == ElementType::kC128;
  switch (DomainOf(result_type)) {
    case Domain::kReal:
      return wide ? ConvolutionIn<double, StepRounding::kNone>(lhs, rhs, config, result_type,
                                                               out_dims)
                  : ConvolutionIn<double, StepRounding::kFloat>(lhs, rhs, config, result_type,
                                                                out_dims);
    case Domain::kComplex:
      return wide ? ConvolutionIn<Complex, StepRounding::kNone>(lhs, rhs, config, result_type,
                                                                out_dims)
                  : ConvolutionIn<Complex, StepRounding::kFloat>(lhs, rhs, config, result_type,
                                                                 out_dims);
    default: break;
  }
  return ConvolutionIn<uint64_t, StepRounding::kNone>(lhs, rhs, config, result_type, out_dims);
}

}  // namespace plugrt::cpu
