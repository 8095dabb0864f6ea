#include "cpu/kernels/fast_convolution.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "cpu/kernels/compute_common.h"
#include "cpu/kernels/onednn_kept_weights.h"
#include "cpu/kernels/onednn_util.h"
#include "cpu/kernels/parallel.h"
#include "profiler/recorder.h"

namespace plugrt::cpu {
namespace {

using dnnl::memory;

// A row-major tensor of `dims` described by oneDNN's logical order `order`
// (batch/feature first, then spatial dims).
memory::desc LogicalDesc(const std::vector<int64_t>& dims, const std::vector<int64_t>& order,
                         memory::data_type type) {
  const std::vector<int64_t> strides = RowMajorStrides(dims);
  memory::dims logical, logical_strides;
  for (int64_t d : order) {
    logical.push_back(dims[d]);
    logical_strides.push_back(strides[d]);
  }
  return memory::desc(logical, type, logical_strides);
}

}  // namespace

struct FastConvolution::Impl {
  memory::desc src, weights_user, dst;
  std::vector<int64_t> result_dims;
  ElementType result_type = ElementType::kF32;
  memory::dims strides, dilates, padding_l, padding_r;
  int threads = 1;

  struct Primitives {
    dnnl::convolution_forward conv;
    onednn::WeightsLayout weights;
    memory::desc conv_scratchpad;
    std::string implementation;  // oneDNN's name for the kernel it chose, for the profiler
    // Set when the operand and result layouts as they are would get oneDNN's
    // reference kernel (odd dimension numberings: the kernel gradient JAX's
    // autodiff writes swaps batch and feature): the input is copied into the
    // layout oneDNN picks, the result copied back from its own.
    bool relayout = false;
    dnnl::reorder src_reorder, dst_reorder;
    memory::desc src, dst;
    memory::desc src_reorder_scratchpad, dst_reorder_scratchpad;
  };

  // oneDNN's primitive for `src`/`dst` as given or as any layout it likes.
  dnnl::convolution_forward::primitive_desc Describe(const memory::desc& s,
                                                     const memory::desc& d) const {
    const memory::desc weights_any(weights_user.dims(), weights_user.data_type(),
                                   memory::format_tag::any);
    dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                                         dnnl::algorithm::convolution_direct, s, weights_any, d,
                                         strides, dilates, padding_l, padding_r);
    return dnnl::convolution_forward::primitive_desc(desc, onednn::Attributes(), onednn::Engine());
  }

  StatusOr<const Primitives*> Get(int team) const {
    std::lock_guard<std::mutex> lock(mu);
    auto it = primitives.find(team);
    if (it != primitives.end()) return &it->second;
    try {
      dnnl::convolution_forward::primitive_desc pd = Describe(src, dst);
      bool relayout = false;
      if (std::string(pd.impl_info_str()).rfind("ref", 0) == 0) {
        const memory::desc src_any(src.dims(), src.data_type(), memory::format_tag::any);
        const memory::desc dst_any(dst.dims(), dst.data_type(), memory::format_tag::any);
        dnnl::convolution_forward::primitive_desc other = Describe(src_any, dst_any);
        if (std::string(other.impl_info_str()).rfind("ref", 0) != 0) {
          pd = other;
          relayout = true;
        }
      }
      dnnl::reorder::primitive_desc rpd(onednn::Engine(), weights_user, onednn::Engine(),
                                        pd.weights_desc(), onednn::Attributes());
      Primitives p;
      p.conv = dnnl::convolution_forward(pd);
      p.weights = onednn::WeightsLayout{weights_user, pd.weights_desc(), dnnl::reorder(rpd),
                                        rpd.scratchpad_desc()};
      p.conv_scratchpad = pd.scratchpad_desc();
      p.implementation = std::string("oneDNN convolution ") + pd.impl_info_str() +
                         ", weights reordered by " + rpd.impl_info_str();
      if (relayout) {
        dnnl::reorder::primitive_desc in(onednn::Engine(), src, onednn::Engine(), pd.src_desc(),
                                         onednn::Attributes());
        dnnl::reorder::primitive_desc out(onednn::Engine(), pd.dst_desc(), onednn::Engine(), dst,
                                          onednn::Attributes());
        p.relayout = true;
        p.src_reorder = dnnl::reorder(in);
        p.dst_reorder = dnnl::reorder(out);
        p.src = pd.src_desc();
        p.dst = pd.dst_desc();
        p.src_reorder_scratchpad = in.scratchpad_desc();
        p.dst_reorder_scratchpad = out.scratchpad_desc();
        p.implementation += std::string(", input and result in its own layouts (") +
                            in.impl_info_str() + " reorders)";
      }
      return &primitives.emplace(team, std::move(p)).first->second;
    } catch (const dnnl::error& e) {
      return Internal("oneDNN convolution: ", e.what());
    }
  }

  mutable std::mutex mu;
  mutable std::map<int, Primitives> primitives;
  onednn::KeptWeights kept;
};

FastConvolution::FastConvolution(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FastConvolution::~FastConvolution() = default;

std::shared_ptr<const FastConvolution> FastConvolution::Plan(
    const std::vector<int64_t>& lhs_dims, ElementType lhs_type,
    const std::vector<int64_t>& rhs_dims, ElementType rhs_type, const ConvolutionConfig& c,
    ElementType result_type, int kernel_threads) {
  if (lhs_type != rhs_type) return nullptr;
  const bool f32 = lhs_type == ElementType::kF32 && result_type == ElementType::kF32;
  const bool bf16 = lhs_type == ElementType::kBF16 &&
                    (result_type == ElementType::kF32 || result_type == ElementType::kBF16);
  if (!f32 && !bf16) return nullptr;
  const size_t ns = c.input_spatial_dimensions.size();
  if (ns < 1 || ns > 3 || c.feature_group_count != 1 || c.batch_group_count != 1) return nullptr;
  for (size_t i = 0; i < ns; ++i) {
    if (c.lhs_dilation[i] != 1 || c.window_reversal[i] || c.padding_low[i] < 0 ||
        c.padding_high[i] < 0 || c.window_strides[i] < 1 || c.rhs_dilation[i] < 1) {
      return nullptr;
    }
  }
  // Windows larger than the input, or padding as large as the window, are
  // left to the reference kernel: oneDNN 2.6 has been seen to crash on them
  // (7x7 window, stride 2, over a 2x2 input padded by 3).
  for (size_t i = 0; i < ns; ++i) {
    const int64_t window =
        (rhs_dims[c.kernel_spatial_dimensions[i]] - 1) * c.rhs_dilation[i] + 1;
    if (lhs_dims[c.input_spatial_dimensions[i]] < window || c.padding_low[i] >= window ||
        c.padding_high[i] >= window) {
      return nullptr;
    }
  }
  auto result_dims = ConvolutionResultDims(lhs_dims, rhs_dims, c);
  if (!result_dims.ok()) return nullptr;
  int64_t multiply_adds = 1;
  for (int64_t d : *result_dims) multiply_adds *= d;
  multiply_adds *= rhs_dims[c.kernel_input_feature_dimension];
  for (int64_t d : c.kernel_spatial_dimensions) multiply_adds *= rhs_dims[d];
  if (multiply_adds < onednn::kMinMultiplyAdds) return nullptr;

  auto impl = std::make_unique<Impl>();
  std::vector<int64_t> src_order = {c.input_batch_dimension, c.input_feature_dimension};
  std::vector<int64_t> w_order = {c.kernel_output_feature_dimension,
                                  c.kernel_input_feature_dimension};
  std::vector<int64_t> dst_order = {c.output_batch_dimension, c.output_feature_dimension};
  for (size_t i = 0; i < ns; ++i) {
    src_order.push_back(c.input_spatial_dimensions[i]);
    w_order.push_back(c.kernel_spatial_dimensions[i]);
    dst_order.push_back(c.output_spatial_dimensions[i]);
    impl->strides.push_back(c.window_strides[i]);
    impl->dilates.push_back(c.rhs_dilation[i] - 1);
    impl->padding_l.push_back(c.padding_low[i]);
    impl->padding_r.push_back(c.padding_high[i]);
  }
  const memory::data_type in = *onednn::DataType(lhs_type);
  const memory::data_type out = *onednn::DataType(result_type);
  impl->src = LogicalDesc(lhs_dims, src_order, in);
  impl->weights_user = LogicalDesc(rhs_dims, w_order, in);
  impl->dst = LogicalDesc(*result_dims, dst_order, out);
  impl->result_dims = *result_dims;
  impl->result_type = result_type;
  impl->threads = onednn::ThreadsForMultiplyAdds(multiply_adds);
  if (!impl->Get(std::min(impl->threads, ThreadBudget(kernel_threads))).ok()) return nullptr;
  return std::shared_ptr<const FastConvolution>(new FastConvolution(std::move(impl)));
}

StatusOr<Tensor> FastConvolution::Run(const Tensor& lhs, const Tensor& rhs, int kernel_threads) const {
  const Impl& p = *impl_;
  const int team = std::min(p.threads, ThreadBudget(kernel_threads));
  onednn::UseThreads(team);
  PLUGRT_ASSIGN_OR_RETURN(const Impl::Primitives* prims, p.Get(team));
  if (profiler::Enabled()) {
    profiler::AnnotateKernel(profiler::stat::kImplementation, prims->implementation);
  }
  Tensor result = Tensor::Uninitialized(p.result_type, p.result_dims);
  try {
    std::optional<onednn::Scratchpad> weights_scratch;
    PLUGRT_ASSIGN_OR_RETURN(const std::shared_ptr<void> packed,
                            p.kept.Get(prims->weights, rhs, weights_scratch, "oneDNN convolution"));
    const memory weights(prims->weights.layout, onednn::Engine(), packed.get());
    const onednn::Scratchpad conv_scratch(prims->conv_scratchpad);
    const memory user_dst(p.dst, onednn::Engine(), result.MutableData());
    if (!prims->relayout) {
      PLUGRT_RETURN_IF_ERROR(onednn::Execute(
          prims->conv,
          {{DNNL_ARG_SRC, onednn::Wrap(p.src, lhs)},
           {DNNL_ARG_WEIGHTS, weights},
           {DNNL_ARG_DST, user_dst},
           {DNNL_ARG_SCRATCHPAD, conv_scratch.memory()}},
          "convolution"));
      return result;
    }
    const onednn::Scratchpad src(prims->src), dst(prims->dst);
    const onednn::Scratchpad src_scratch(prims->src_reorder_scratchpad);
    const onednn::Scratchpad dst_scratch(prims->dst_reorder_scratchpad);
    PLUGRT_RETURN_IF_ERROR(onednn::Execute(
        prims->src_reorder,
        {{DNNL_ARG_FROM, onednn::Wrap(p.src, lhs)},
         {DNNL_ARG_TO, src.memory()},
         {DNNL_ARG_SCRATCHPAD, src_scratch.memory()}},
        "input reorder"));
    PLUGRT_RETURN_IF_ERROR(onednn::Execute(
        prims->conv,
        {{DNNL_ARG_SRC, src.memory()},
         {DNNL_ARG_WEIGHTS, weights},
         {DNNL_ARG_DST, dst.memory()},
         {DNNL_ARG_SCRATCHPAD, conv_scratch.memory()}},
        "convolution"));
    PLUGRT_RETURN_IF_ERROR(onednn::Execute(
        prims->dst_reorder,
        {{DNNL_ARG_FROM, dst.memory()},
         {DNNL_ARG_TO, user_dst},
         {DNNL_ARG_SCRATCHPAD, dst_scratch.memory()}},
        "result reorder"));
  } catch (const dnnl::error& e) {
    return Internal("oneDNN convolution: ", e.what());
  }
  return result;
}

}  // namespace plugrt::cpu
