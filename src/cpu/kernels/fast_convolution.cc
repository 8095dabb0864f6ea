#include "cpu/kernels/fast_convolution.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

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

// oneDNN's binary algorithm for an epilogue step with an input.
dnnl::algorithm BinaryAlgorithm(ConvolutionEpilogue::Kind kind) {
  switch (kind) {
    case ConvolutionEpilogue::Kind::kAdd: return dnnl::algorithm::binary_add;
    case ConvolutionEpilogue::Kind::kSubtract: return dnnl::algorithm::binary_sub;
    case ConvolutionEpilogue::Kind::kMultiply: return dnnl::algorithm::binary_mul;
    case ConvolutionEpilogue::Kind::kMaximum: return dnnl::algorithm::binary_max;
    case ConvolutionEpilogue::Kind::kMinimum: return dnnl::algorithm::binary_min;
  }
  return dnnl::algorithm::binary_add;
}

// An epilogue step with a constant as one eltwise post-op: a*x+b for the
// arithmetic, relu for max(x, 0), clip for other bounds.
void AppendConstantStep(const ConvolutionEpilogue::Step& step, dnnl::post_ops& ops) {
  const float v = step.value;
  const float inf = std::numeric_limits<float>::infinity();
  switch (step.kind) {
    case ConvolutionEpilogue::Kind::kAdd:
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_linear, 1.f, v);
      return;
    case ConvolutionEpilogue::Kind::kSubtract:
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_linear, 1.f, -v);
      return;
    case ConvolutionEpilogue::Kind::kMultiply:
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_linear, v, 0.f);
      return;
    case ConvolutionEpilogue::Kind::kMaximum:
      if (v == 0.f) {
        ops.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
      } else {
        ops.append_eltwise(1.f, dnnl::algorithm::eltwise_clip, v, inf);
      }
      return;
    case ConvolutionEpilogue::Kind::kMinimum:
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_clip, -inf, v);
      return;
  }
}

}  // namespace

// Above this result size, a residual add runs as a fused loop after the
// convolution instead of as oneDNN's sum post-op: measured on 1x1
// convolutions with a residual and relu (2 threads, AMD EPYC), the sum
// post-op was 7-10 % faster than convolution then loop at 3.2 and 6.4 MB of
// result, and 4-10 % slower from 12.8 MB (the convolution's tiles read the
// residual back from memory out of order).
constexpr int64_t kSumPostOpBytes = int64_t{8} << 20;

struct FastConvolution::Impl {
  memory::desc src, weights_user, dst;
  std::vector<int64_t> result_dims;
  int64_t feature_dimension = 0;
  // The epilogue as post-ops; per input, its memory description and element
  // count (checked at run time).
  std::optional<ConvolutionEpilogue> epilogue;
  dnnl::post_ops post_ops;
  std::vector<memory::desc> epilogue_descs;
  std::vector<int64_t> epilogue_elements;
  // The epilogue's leading per-channel affine steps (add, subtract, multiply
  // by a per-channel vector or a constant: inference batch norm, a bias) are
  // folded into the convolution: the weights times the product of the
  // multipliers (`scaled`, applied while they are reordered) and a bias.
  // The later steps are post-ops, the first of them post-op 0.
  size_t folded = 0;
  bool scaled = false;
  int weights_scale_mask = 1;  // the weights' output-feature dims
  int64_t features = 0;
  // An add of a tensor of the result's shape (a residual) is oneDNN's sum
  // post-op: the result's memory holds that tensor before the convolution
  // adds into it (brgconv keeps sum; it drops a binary add).
  int sum_input = -1;
  // Set when the steps from a residual add on run as a fused loop over the
  // result after the convolution (EpilogueTailKernel): a result larger than
  // the caches, which the sum post-op reads back slower than a pass does.
  fused::Kernel tail_kernel;
  std::shared_ptr<const fused::Plan> tail_plan;
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
                                                     const memory::desc& d,
                                                     bool with_epilogue = true) const {
    const memory::desc weights_any(weights_user.dims(), weights_user.data_type(),
                                   memory::format_tag::any);
    dnnl::primitive_attr attr = onednn::Attributes();
    if (epilogue && with_epilogue && folded > 0) {
      const memory::desc bias({features}, memory::data_type::f32, memory::format_tag::x);
      dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                                           dnnl::algorithm::convolution_direct, s, weights_any,
                                           bias, d, strides, dilates, padding_l, padding_r);
      attr.set_post_ops(post_ops);
      return dnnl::convolution_forward::primitive_desc(desc, attr, onednn::Engine());
    }
    dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                                         dnnl::algorithm::convolution_direct, s, weights_any, d,
                                         strides, dilates, padding_l, padding_r);
    if (epilogue && with_epilogue) attr.set_post_ops(post_ops);
    return dnnl::convolution_forward::primitive_desc(desc, attr, onednn::Engine());
  }

  StatusOr<const Primitives*> Get(int team) const {
    std::lock_guard<std::mutex> lock(mu);
    auto it = primitives.find(team);
    if (it != primitives.end()) return &it->second;
    try {
      dnnl::convolution_forward::primitive_desc pd = Describe(src, dst);
      bool relayout = false;
      const bool reference = std::string(pd.impl_info_str()).rfind("ref", 0) == 0;
      if (reference && epilogue) {
        // The epilogue's inputs are in the caller's layout: no copies.
        return Unimplemented("oneDNN has only its reference kernel for this convolution with "
                             "an epilogue");
      }
      if (epilogue) {
        // oneDNN 2.6 takes some post-ops only in its older kernels (binary
        // ones in its direct 3x3 and 1x1 kernels, not in brgconv), which
        // lose more than the pass they save: the epilogue is taken only where
        // the convolution keeps its kernel.
        const std::string plain = Describe(src, dst, /*with_epilogue=*/false).impl_info_str();
        if (plain != pd.impl_info_str()) {
          return Unimplemented("oneDNN would run this convolution with its epilogue on ",
                               pd.impl_info_str(), " instead of ", plain);
        }
      }
      // Plain channels-first data (PyTorch's NCHW) gets oneDNN's im2col GEMM
      // kernel: a 3x3 convolution of [8, 128, 28, 28] ran at 288 GFLOP/s
      // there against 466 for brgconv on channels-last data, so the input
      // and result are copied to and from the blocked layouts oneDNN's
      // direct kernels read (about 0.1 ms each at that size).
      const std::string as_is = pd.impl_info_str();
      const bool im2col = as_is.find("gemm") != std::string::npos;
      if (reference || (im2col && !epilogue)) {
        const memory::desc src_any(src.dims(), src.data_type(), memory::format_tag::any);
        const memory::desc dst_any(dst.dims(), dst.data_type(), memory::format_tag::any);
        dnnl::convolution_forward::primitive_desc other = Describe(src_any, dst_any);
        const std::string found = other.impl_info_str();
        if (found.rfind("ref", 0) != 0 && found.find("gemm") == std::string::npos) {
          pd = other;
          relayout = true;
        }
      }
      dnnl::primitive_attr reorder_attr = onednn::Attributes();
      if (scaled) reorder_attr.set_output_scales(weights_scale_mask, {DNNL_RUNTIME_F32_VAL});
      dnnl::reorder::primitive_desc rpd(onednn::Engine(), weights_user, onednn::Engine(),
                                        pd.weights_desc(), reorder_attr);
      Primitives p;
      p.conv = dnnl::convolution_forward(pd);
      p.weights = onednn::WeightsLayout{weights_user, pd.weights_desc(), dnnl::reorder(rpd),
                                        rpd.scratchpad_desc()};
      p.conv_scratchpad = pd.scratchpad_desc();
      p.implementation = std::string("oneDNN convolution ") + pd.impl_info_str() +
                         ", weights reordered by " + rpd.impl_info_str();
      if (epilogue) p.implementation += ", epilogue " + epilogue->ToString();
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
    ElementType result_type, int kernel_threads, const ConvolutionEpilogue* epilogue) {
  if (lhs_type != rhs_type) return nullptr;
  if (epilogue != nullptr && result_type != ElementType::kF32) return nullptr;
  const bool f32 = lhs_type == ElementType::kF32 && result_type == ElementType::kF32;
  const bool bf16 = lhs_type == ElementType::kBF16 &&
                    (result_type == ElementType::kF32 || result_type == ElementType::kBF16);
  if (!f32 && !bf16) return nullptr;
  const size_t ns = c.input_spatial_dimensions.size();
  if (ns < 1 || ns > 3 || c.feature_group_count < 1 || c.batch_group_count != 1) return nullptr;
  // Feature groups (depthwise convolutions: one group per channel): oneDNN
  // takes the kernel as [groups, out/groups, in/groups, spatial...].
  const int64_t groups = c.feature_group_count;
  if (groups > 1 && (lhs_dims[c.input_feature_dimension] % groups != 0 ||
                     rhs_dims[c.kernel_output_feature_dimension] % groups != 0)) {
    return nullptr;
  }
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
  if (groups > 1) {
    // Output feature o of group g is g * (out / groups) + o: the output
    // feature dim splits into [groups, out / groups] of strides.
    const memory::dims dims = impl->weights_user.dims();
    const std::vector<int64_t> row_major = RowMajorStrides(rhs_dims);
    memory::dims grouped = {groups, dims[0] / groups}, grouped_strides;
    const int64_t out_stride = row_major[c.kernel_output_feature_dimension];
    grouped_strides = {out_stride * (dims[0] / groups), out_stride};
    for (size_t i = 1; i < w_order.size(); ++i) {
      grouped.push_back(dims[i]);
      grouped_strides.push_back(row_major[w_order[i]]);
    }
    impl->weights_user = memory::desc(grouped, in, grouped_strides);
  }
  impl->dst = LogicalDesc(*result_dims, dst_order, out);
  impl->result_dims = *result_dims;
  impl->feature_dimension = c.output_feature_dimension;
  impl->result_type = result_type;
  if (epilogue != nullptr) {
    impl->epilogue = *epilogue;
    // Inputs as oneDNN sees them: dims of the result's logical order, 1 where
    // they do not vary.
    const int64_t features = (*result_dims)[c.output_feature_dimension];
    int64_t elements = 1;
    for (int64_t d : *result_dims) elements *= d;
    for (ConvolutionEpilogue::Operand operand : epilogue->inputs) {
      memory::dims ones(impl->dst.dims().size(), 1);
      switch (operand) {
        case ConvolutionEpilogue::Operand::kPerChannel: {
          memory::dims per_channel = ones;
          per_channel[1] = features;
          memory::dims strides = ones;  // contiguous along the features
          strides[0] = features;
          impl->epilogue_descs.emplace_back(per_channel, memory::data_type::f32, strides);
          impl->epilogue_elements.push_back(features);
          break;
        }
        case ConvolutionEpilogue::Operand::kFull:
          impl->epilogue_descs.push_back(LogicalDesc(*result_dims, dst_order,
                                                     memory::data_type::f32));
          impl->epilogue_elements.push_back(elements);
          break;
        case ConvolutionEpilogue::Operand::kScalar:
          impl->epilogue_descs.emplace_back(ones, memory::data_type::f32, ones);
          impl->epilogue_elements.push_back(1);
          break;
      }
    }
    // The leading affine steps by per-channel vectors and constants.
    const auto affine = [&](const ConvolutionEpilogue::Step& step) {
      if (step.kind != ConvolutionEpilogue::Kind::kAdd &&
          step.kind != ConvolutionEpilogue::Kind::kSubtract &&
          step.kind != ConvolutionEpilogue::Kind::kMultiply) {
        return false;
      }
      return step.input < 0 || epilogue->inputs[static_cast<size_t>(step.input)] ==
                                   ConvolutionEpilogue::Operand::kPerChannel;
    };
    while (impl->folded < epilogue->steps.size() && affine(epilogue->steps[impl->folded])) {
      impl->scaled |= epilogue->steps[impl->folded].kind == ConvolutionEpilogue::Kind::kMultiply;
      ++impl->folded;
    }
    impl->features = features;
    impl->weights_scale_mask = groups > 1 ? 0b11 : 0b1;
    try {
      const int64_t result_bytes = elements * static_cast<int64_t>(sizeof(float));
      for (size_t i = impl->folded; i < epilogue->steps.size(); ++i) {
        const ConvolutionEpilogue::Step& step = epilogue->steps[i];
        if (step.kind == ConvolutionEpilogue::Kind::kAdd && step.input >= 0 &&
            impl->sum_input < 0 &&
            epilogue->inputs[static_cast<size_t>(step.input)] ==
                ConvolutionEpilogue::Operand::kFull) {
          if (result_bytes > kSumPostOpBytes &&
              c.output_feature_dimension == static_cast<int64_t>(result_dims->size()) - 1) {
            impl->tail_kernel = EpilogueTailKernel(*epilogue, i, *result_dims);
            impl->tail_plan = fused::Prepare(impl->tail_kernel);
            break;
          }
          impl->post_ops.append_sum(1.f);
          impl->sum_input = step.input;
          continue;
        }
        if (step.input < 0) {
          AppendConstantStep(step, impl->post_ops);
        } else if (static_cast<size_t>(step.input) < impl->epilogue_descs.size()) {
          impl->post_ops.append_binary(BinaryAlgorithm(step.kind),
                                       impl->epilogue_descs[static_cast<size_t>(step.input)]);
        } else {
          return nullptr;
        }
      }
    } catch (const dnnl::error&) {
      return nullptr;
    }
  }
  impl->threads = onednn::ThreadsForMultiplyAdds(multiply_adds);
  if (!impl->Get(std::min(impl->threads, ThreadBudget(kernel_threads))).ok()) return nullptr;
  return std::shared_ptr<const FastConvolution>(new FastConvolution(std::move(impl)));
}

const std::vector<int64_t>& FastConvolution::result_dims() const { return impl_->result_dims; }
int64_t FastConvolution::result_feature_dimension() const { return impl_->feature_dimension; }

StatusOr<Tensor> FastConvolution::Run(const Tensor& lhs, const Tensor& rhs, int kernel_threads,
                                      const std::vector<Tensor>& epilogue_inputs,
                                      const std::vector<bool>& overwritable) const {
  const Impl& p = *impl_;
  if (epilogue_inputs.size() != p.epilogue_descs.size()) {
    return InvalidArgument("oneDNN convolution: ", epilogue_inputs.size(),
                           " epilogue inputs, the plan has ", p.epilogue_descs.size());
  }
  for (size_t i = 0; i < epilogue_inputs.size(); ++i) {
    if (epilogue_inputs[i].type() != ElementType::kF32 ||
        epilogue_inputs[i].num_elements() != p.epilogue_elements[i]) {
      return InvalidArgument("oneDNN convolution: epilogue input ", i, " is not ",
                             p.epilogue_elements[i], " f32 values");
    }
  }
  const int team = std::min(p.threads, ThreadBudget(kernel_threads));
  onednn::UseThreads(team);
  PLUGRT_ASSIGN_OR_RETURN(const Impl::Primitives* prims, p.Get(team));
  if (profiler::Enabled()) {
    profiler::AnnotateKernel(profiler::stat::kImplementation, prims->implementation);
  }
  // The folded steps as y = x * scale + shift per output channel.
  std::vector<float> scale, shift;
  if (p.folded > 0) {
    const size_t c = static_cast<size_t>(p.features);
    scale.assign(c, 1.f);
    shift.assign(c, 0.f);
    for (size_t i = 0; i < p.folded; ++i) {
      const ConvolutionEpilogue::Step& step = p.epilogue->steps[i];
      const float* v = step.input < 0
                           ? nullptr
                           : epilogue_inputs[static_cast<size_t>(step.input)].as<float>();
      for (size_t k = 0; k < c; ++k) {
        const float x = v != nullptr ? v[k] : step.value;
        switch (step.kind) {
          case ConvolutionEpilogue::Kind::kAdd: shift[k] += x; break;
          case ConvolutionEpilogue::Kind::kSubtract: shift[k] -= x; break;
          case ConvolutionEpilogue::Kind::kMultiply:
            scale[k] *= x;
            shift[k] *= x;
            break;
          default: break;
        }
      }
    }
  }
  Tensor result;
  if (p.sum_input >= 0) {
    // The sum post-op adds the result's memory as it is: the residual, in
    // its own storage when the caller hands it over, else copied there.
    const Tensor& residual = epilogue_inputs[static_cast<size_t>(p.sum_input)];
    if (static_cast<size_t>(p.sum_input) < overwritable.size() &&
        overwritable[static_cast<size_t>(p.sum_input)]) {
      result = residual.Reshaped(p.result_dims);
    } else {
      result = Tensor::Uninitialized(p.result_type, p.result_dims);
      const size_t bytes = result.byte_size();
      constexpr size_t kChunk = size_t{1} << 18;
      ParallelFor(static_cast<int64_t>((bytes + kChunk - 1) / kChunk),
                  ThreadsFor(static_cast<int64_t>(bytes), int64_t{1} << 20, team),
                  [&](int64_t begin, int64_t end) {
                    const size_t from = static_cast<size_t>(begin) * kChunk;
                    const size_t to = std::min(bytes, static_cast<size_t>(end) * kChunk);
                    std::memcpy(result.MutableData() + from, residual.data() + from, to - from);
                  });
    }
  } else {
    result = Tensor::Uninitialized(p.result_type, p.result_dims);
  }
  try {
    std::optional<onednn::Scratchpad> weights_scratch;
    PLUGRT_ASSIGN_OR_RETURN(const std::shared_ptr<void> packed,
                            p.kept.Get(prims->weights, rhs, weights_scratch, "oneDNN convolution",
                                       p.scaled ? &scale : nullptr));
    const memory weights(prims->weights.layout, onednn::Engine(), packed.get());
    const onednn::Scratchpad conv_scratch(prims->conv_scratchpad);
    const memory user_dst(p.dst, onednn::Engine(), result.MutableData());
    if (!prims->relayout) {
      std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, onednn::Wrap(p.src, lhs)},
                                              {DNNL_ARG_WEIGHTS, weights},
                                              {DNNL_ARG_DST, user_dst},
                                              {DNNL_ARG_SCRATCHPAD, conv_scratch.memory()}};
      if (p.folded > 0) {
        args[DNNL_ARG_BIAS] =
            memory(memory::desc({p.features}, memory::data_type::f32, memory::format_tag::x),
                   onednn::Engine(), shift.data());
      }
      if (p.epilogue) {
        // One post-op per step after the folded ones, in order; a step with an
        // input is a binary one.
        for (size_t i = p.folded; i < p.epilogue->steps.size(); ++i) {
          const int input = p.epilogue->steps[i].input;
          if (input < 0 || input == p.sum_input) continue;
          args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(static_cast<int>(i - p.folded)) | DNNL_ARG_SRC_1] =
              onednn::Wrap(p.epilogue_descs[static_cast<size_t>(input)],
                           epilogue_inputs[static_cast<size_t>(input)]);
        }
      }
      PLUGRT_RETURN_IF_ERROR(onednn::Execute(prims->conv, args, "convolution"));
      if (p.tail_plan != nullptr) {
        // The result is ours alone: the loop computes into it.
        std::vector<Tensor> inputs = {result};
        inputs.insert(inputs.end(), epilogue_inputs.begin(), epilogue_inputs.end());
        std::vector<bool> overwritable(inputs.size(), false);
        overwritable[0] = true;
        const int64_t features = p.result_dims.back();
        PLUGRT_ASSIGN_OR_RETURN(
            std::vector<Tensor> out,
            fused::Run(p.tail_kernel, *p.tail_plan, result.num_elements() / features, features,
                       inputs, team, overwritable));
        return std::move(out[0]);
      }
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
