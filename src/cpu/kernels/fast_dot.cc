#include "cpu/kernels/fast_dot.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/compute_common.h"
#include "cpu/kernels/int8_gemm.h"
#include "cpu/kernels/kept_copy.h"
#include "cpu/kernels/onednn_kept_weights.h"
#include "cpu/kernels/onednn_util.h"
#include "cpu/kernels/parallel.h"
#include "cpu/kernels/skinny_gemm.h"
#include "profiler/recorder.h"

namespace plugrt::cpu {
namespace fast_dot {

// One operand seen as a 3-D [batch, rows, cols] matrix stack (a named
// namespace: FastDot::Impl, which has external linkage, holds two).
struct MatrixView {
  int64_t sizes[3] = {1, 1, 1};
  int64_t strides[3] = {1, 1, 1};
};

}  // namespace fast_dot
namespace {

using dnnl::memory;
using fast_dot::MatrixView;

// Merges the dims `group` (outer to inner) into one dim with one stride, if
// they lie in memory as one row-major block; size-1 dims do not matter.
bool MergeGroup(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
                const std::vector<int64_t>& group, int64_t* size, int64_t* stride) {
  std::vector<int64_t> kept;
  for (int64_t d : group) {
    if (dims[d] != 1) kept.push_back(d);
  }
  *size = 1;
  *stride = 0;  // fixed up by the caller when the group is empty
  for (size_t i = 0; i < kept.size(); ++i) {
    *size *= dims[kept[i]];
    if (i + 1 < kept.size() && strides[kept[i]] != strides[kept[i + 1]] * dims[kept[i + 1]]) {
      return false;
    }
  }
  if (!kept.empty()) *stride = strides[kept.back()];
  return true;
}

// Views an operand with row-major `dims` as [batch, outer, inner] matrices
// (groups of its dims). False when the layout is not one oneDNN runs fast: the
// inner or the outer matrix dim must be the contiguous one.
bool ViewAsMatrices(const std::vector<int64_t>& dims, const std::vector<int64_t> groups[3],
                    MatrixView* view) {
  const std::vector<int64_t> strides = RowMajorStrides(dims);
  for (int g = 0; g < 3; ++g) {
    if (!MergeGroup(dims, strides, groups[g], &view->sizes[g], &view->strides[g])) return false;
  }
  int64_t& rows = view->sizes[1];
  int64_t& cols = view->sizes[2];
  int64_t& rs = view->strides[1];
  int64_t& cs = view->strides[2];
  // Give size-1 (or empty) groups the stride a dense layout would have.
  if (cols == 1 && rows == 1) {
    rs = 1;
    cs = 1;
  } else if (cols == 1) {
    cs = rs * rows;
  } else if (rows == 1) {
    rs = cs * cols;
  }
  const bool row_major = cs == 1 && rs >= cols;
  const bool column_major = rs == 1 && cs >= rows;
  if (!row_major && !column_major) return false;
  const int64_t extent = std::max(rs * rows, cs * cols);
  if (view->sizes[0] == 1) {
    view->strides[0] = extent;
  } else if (view->strides[0] < extent) {
    return false;  // batches overlapping matrices: not a layout oneDNN takes
  }
  return true;
}

// oneDNN's int8 matmul is exact only with VNNI (32-bit accumulation of byte
// products); AVX2's vpmaddubsw adds pairs of products in saturating 16 bits,
// which full-range int8 data overflows.
bool HasVnni() {
  const dnnl::cpu_isa isa = dnnl::get_effective_cpu_isa();
  return isa == dnnl::cpu_isa::avx2_vnni || isa == dnnl::cpu_isa::avx512_core_vnni ||
         isa == dnnl::cpu_isa::avx512_core_bf16 || isa == dnnl::cpu_isa::avx512_core_amx;
}

// Without VNNI, int8 products run on plugrt's own exact kernel where the CPU
// has AVX2 (int8_gemm.h), else as f32 sgemm: exact while every partial
// sum is an integer below 2^24, which K <= 1024 products of at most 2^14
// guarantee whatever the summation order; deeper products run in chunks of
// that depth whose exact results are added in s32.
constexpr int64_t kMaxExactF32Depth = 1024;

// `t` (s8 or u8) as f32, same dims and layout, on up to `threads` threads.
Tensor ToF32(const Tensor& t, int threads) {
  Tensor out = Tensor::Uninitialized(ElementType::kF32, t.dims());
  float* o = out.mutable_as<float>();
  const int64_t n = t.num_elements();
  const bool is_unsigned = t.type() == ElementType::kUI8;
  const auto* s = t.as<int8_t>();
  const auto* u = t.as<uint8_t>();
  ParallelFor(n, ThreadsFor(n, int64_t{1} << 18, threads), [&](int64_t begin, int64_t end) {
    if (is_unsigned) {
      for (int64_t i = begin; i < end; ++i) o[i] = static_cast<float>(u[i]);
    } else {
      for (int64_t i = begin; i < end; ++i) o[i] = static_cast<float>(s[i]);
    }
  });
  return out;
}

// The operand's dims in `order` (a transposed copy of it is row-major in it).
std::vector<int64_t> Permuted(const std::vector<int64_t>& dims, const std::vector<int64_t>& order) {
  std::vector<int64_t> out;
  for (int64_t d : order) out.push_back(dims[d]);
  return out;
}

}  // namespace

struct FastDot::Impl {
  using MatrixView = fast_dot::MatrixView;
  // Per operand: the permutation to apply first (empty: none), and the view.
  std::vector<int64_t> lhs_perm, rhs_perm;
  MatrixView lhs, rhs;
  int64_t m = 1, n = 1, k = 1, batch = 1;
  std::vector<int64_t> result_dims;
  ElementType result_type = ElementType::kF32;
  memory::data_type lhs_type = memory::data_type::f32, rhs_type = memory::data_type::f32;
  memory::data_type out_type = memory::data_type::f32;
  // int8 without VNNI: on plugrt's AVX2 kernel (own_int8), or else with
  // the operands converted to f32 and the product back to s32 (via_f32).
  bool own_int8 = false;
  bool via_f32 = false;
  // f32 with at most skinny_gemm::kMaxRows lhs rows: on plugrt's skinny
  // kernel (skinny_gemm.h), which streams the rhs at memory speed.
  bool skinny = false;
  bool lhs_unsigned = false;
  // Set when oneDNN rescales the int8 product (Int8Rescale).
  std::optional<Int8Rescale> rescale;
  // The depth of chunk `c` of the contraction: all of k but for via_f32.
  int64_t Depth(int64_t c) const {
    const int64_t chunk = via_f32 ? std::min(k, kMaxExactF32Depth) : k;
    return std::min(chunk, k - c * chunk);
  }
  int64_t Chunks() const {
    const int64_t chunk = via_f32 ? std::min(k, kMaxExactF32Depth) : k;
    return chunk == 0 ? 1 : (k + chunk - 1) / chunk;
  }
  int threads = 1;

  // oneDNN's view of an operand or the result: [batch, rows, cols], or
  // [rows, cols] for a single matrix. oneDNN picks slower kernels and weight
  // layouts for a batch of one than for the plain matrix ([1024, 1024]
  // squared: 7.1 against 5.9 ms; docs/performance.md).
  memory::desc Desc(const MatrixView& v, memory::data_type type) const {
    if (batch == 1) return memory::desc({v.sizes[1], v.sizes[2]}, type, {v.strides[1], v.strides[2]});
    return memory::desc({v.sizes[0], v.sizes[1], v.sizes[2]}, type,
                        {v.strides[0], v.strides[1], v.strides[2]});
  }
  memory::desc ResultDesc() const {
    return Desc(MatrixView{{batch, m, n}, {m * n, n, 1}}, out_type);
  }

  // The primitive for this thread count (oneDNN plans its work split for the
  // team size it is created under).
  struct Prepared {
    dnnl::matmul matmul;
    memory::desc scratchpad;
    std::string implementation;  // oneDNN's name for the kernel it chose, for the profiler
    // Set for the primitive that reads the rhs in oneDNN's own layout.
    std::optional<onednn::WeightsLayout> weights;
  };
  // The operands' views over `depth` of the contracted dimension (a slice of
  // it for the chunked f32 path; k otherwise).
  MatrixView LhsSlice(int64_t depth) const {
    MatrixView v = lhs;
    v.sizes[2] = depth;
    return v;
  }
  MatrixView RhsSlice(int64_t depth) const {
    MatrixView v = rhs;
    v.sizes[1] = depth;
    return v;
  }

  // `kept_layout`: the rhs in the layout oneDNN picks (see KeptWeights).
  StatusOr<const Prepared*> Primitive(int team, int64_t depth, bool kept_layout = false) const {
    std::lock_guard<std::mutex> lock(mu);
    auto it = primitives.find({team, depth, kept_layout});
    if (it != primitives.end()) return &it->second;
    if (kept_layout && kept_layout_refused.count({team, depth}) != 0) {
      return Unimplemented("oneDNN matmul: no primitive for the weights in its own layout");
    }
    try {
      const memory::desc dst = ResultDesc();
      const memory::desc rhs_user = Desc(RhsSlice(depth), rhs_type);
      const memory::desc rhs_any(rhs_user.dims(), rhs_type, memory::format_tag::any);
      const dnnl::matmul::desc desc(Desc(LhsSlice(depth), lhs_type),
                                    kept_layout ? rhs_any : rhs_user, dst);
      dnnl::primitive_attr attr = onednn::Attributes();
      if (rescale) {
        // Per-column scales run along the last dim of the result.
        const int last = static_cast<int>(dst.dims().size()) - 1;
        attr.set_output_scales(rescale->scales.size() == 1 ? 0 : 1 << last, rescale->scales);
        if (rescale->lhs_zero_point != 0) {
          attr.set_zero_points(DNNL_ARG_SRC, 0, {rescale->lhs_zero_point});
        }
        if (rescale->zero_point != 0) attr.set_zero_points(DNNL_ARG_DST, 0, {rescale->zero_point});
      }
      const dnnl::matmul::primitive_desc pd(desc, attr, onednn::Engine());
      Prepared prepared{dnnl::matmul(pd), pd.scratchpad_desc(),
                        std::string("oneDNN matmul ") + pd.impl_info_str(), std::nullopt};
      if (kept_layout) {
        const dnnl::reorder::primitive_desc rpd(onednn::Engine(), rhs_user, onednn::Engine(),
                                                pd.weights_desc(), onednn::Attributes());
        prepared.weights = onednn::WeightsLayout{rhs_user, pd.weights_desc(), dnnl::reorder(rpd),
                                                 rpd.scratchpad_desc()};
        prepared.implementation += ", weights kept in its layout";
      }
      return &primitives.emplace(std::tuple{team, depth, kept_layout}, std::move(prepared))
                  .first->second;
    } catch (const dnnl::error& e) {
      // Asked on every run otherwise: oneDNN's refusal is remembered.
      if (kept_layout) kept_layout_refused.insert({team, depth});
      return Internal("oneDNN matmul: ", e.what());
    }
  }

  // The product on plugrt's int8 kernel.
  Tensor RunOwnInt8(const Tensor& lhs_int8, const Tensor& rhs_int8, int team) const;
  // The product as chunks of f32 sgemm (int8 without VNNI).
  StatusOr<Tensor> RunViaF32(Tensor lhs_f32, Tensor rhs_f32, int team,
                             const memory::desc& dst) const;

  mutable std::mutex mu;
  // By (team, depth, rhs in oneDNN's layout).
  mutable std::map<std::tuple<int, int64_t, bool>, Prepared> primitives;
  // (team, depth) for which oneDNN refused the rhs in its own layout.
  mutable std::set<std::pair<int, int64_t>> kept_layout_refused;
  // The rhs in oneDNN's layout, when it is a weight argument (or constant):
  // oneDNN's matmul otherwise copies panels of it into that layout on every
  // run (up to a fifth of the time of BERT-base's products).
  onednn::KeptWeights kept;
  // The rhs in the skinny product's panels, when it is a weight argument.
  KeptCopy kept_panels;
};

FastDot::FastDot(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FastDot::~FastDot() = default;

std::shared_ptr<const FastDot> FastDot::Plan(const std::vector<int64_t>& lhs_dims,
                                             ElementType lhs_type,
                                             const std::vector<int64_t>& rhs_dims,
                                             ElementType rhs_type, const DotDimensions& dd,
                                             ElementType result_type, int kernel_threads,
                                             const Int8Rescale* rescale) {
  // f32 -> f32; bf16 -> f32 or bf16; integers: (s8 or u8) x s8 -> s32 (the
  // quantized lowering's products), exact in s32 as the reference kernel;
  // rescaled, to s8, u8 or s32.
  const bool f32 = lhs_type == ElementType::kF32 && rhs_type == ElementType::kF32 &&
                   result_type == ElementType::kF32;
  const bool bf16 = lhs_type == ElementType::kBF16 && rhs_type == ElementType::kBF16 &&
                    (result_type == ElementType::kF32 || result_type == ElementType::kBF16);
  const bool int8_operands = (lhs_type == ElementType::kSI8 || lhs_type == ElementType::kUI8) &&
                             rhs_type == ElementType::kSI8;
  const bool int8 = int8_operands && result_type == ElementType::kSI32;
  if (rescale != nullptr) {
    const bool rescaled = int8_operands && (result_type == ElementType::kSI32 ||
                                            result_type == ElementType::kSI8 ||
                                            result_type == ElementType::kUI8);
    if (!rescaled || !HasVnni() || rescale->scales.empty()) return nullptr;
  } else if (!f32 && !bf16 && !int8) {
    return nullptr;
  }

  auto impl = std::make_unique<Impl>();
  const std::vector<int64_t> lhs_free =
      FreeDims(static_cast<int64_t>(lhs_dims.size()), dd.lhs_batching, dd.lhs_contracting);
  const std::vector<int64_t> rhs_free =
      FreeDims(static_cast<int64_t>(rhs_dims.size()), dd.rhs_batching, dd.rhs_contracting);
  const std::vector<int64_t> lhs_groups[3] = {dd.lhs_batching, lhs_free, dd.lhs_contracting};
  const std::vector<int64_t> rhs_groups[3] = {dd.rhs_batching, dd.rhs_contracting, rhs_free};

  // Each operand as matrices, through strides or else after a transpose.
  auto plan_operand = [](const std::vector<int64_t>& dims, const std::vector<int64_t> groups[3],
                         std::vector<int64_t>* perm, MatrixView* view) {
    if (ViewAsMatrices(dims, groups, view)) return true;
    std::vector<int64_t> order;
    for (int g = 0; g < 3; ++g) order.insert(order.end(), groups[g].begin(), groups[g].end());
    *perm = order;
    std::vector<int64_t> canonical[3];
    int64_t next = 0;
    for (int g = 0; g < 3; ++g) {
      for (size_t i = 0; i < groups[g].size(); ++i) canonical[g].push_back(next++);
    }
    return ViewAsMatrices(Permuted(dims, order), canonical, view);
  };
  if (!plan_operand(lhs_dims, lhs_groups, &impl->lhs_perm, &impl->lhs) ||
      !plan_operand(rhs_dims, rhs_groups, &impl->rhs_perm, &impl->rhs)) {
    return nullptr;
  }
  impl->batch = impl->lhs.sizes[0];
  impl->m = impl->lhs.sizes[1];
  impl->k = impl->lhs.sizes[2];
  impl->n = impl->rhs.sizes[2];
  if (impl->rhs.sizes[0] != impl->batch || impl->rhs.sizes[1] != impl->k) return nullptr;
  const int64_t multiply_adds = impl->batch * impl->m * impl->n * impl->k;
  if (multiply_adds < onednn::kMinMultiplyAdds) return nullptr;
  auto dims = DotResultDims(lhs_dims, rhs_dims, dd);
  if (!dims.ok()) return nullptr;
  impl->result_dims = *dims;
  impl->result_type = result_type;
  impl->lhs_type = *onednn::DataType(lhs_type);
  impl->rhs_type = *onednn::DataType(rhs_type);
  impl->out_type = *onednn::DataType(result_type);
  impl->lhs_unsigned = lhs_type == ElementType::kUI8;
  impl->threads = onednn::ThreadsForMultiplyAdds(multiply_adds);
  if (rescale != nullptr) {
    if (rescale->scales.size() != 1 &&
        (static_cast<int64_t>(rescale->scales.size()) != impl->n ||
         impl->result_dims.empty() || impl->result_dims.back() != impl->n)) {
      return nullptr;
    }
    impl->rescale = *rescale;
  }
  if (f32 && SkinnyGemmAvailable() &&
      SkinnyGemmFits(impl->m, F32Matrices{nullptr, impl->rhs.strides[0], impl->rhs.strides[1],
                                          impl->rhs.strides[2]})) {
    impl->skinny = true;
    return std::shared_ptr<const FastDot>(new FastDot(std::move(impl)));
  }
  if (int8 && !HasVnni()) {
    if (Int8GemmAvailable()) {
      impl->own_int8 = true;
      return std::shared_ptr<const FastDot>(new FastDot(std::move(impl)));
    }
    impl->via_f32 = true;
    impl->lhs_type = impl->rhs_type = impl->out_type = memory::data_type::f32;
  }
  // Check oneDNN takes it now, so Run has no surprises.
  if (!impl->Primitive(std::min(impl->threads, ThreadBudget(kernel_threads)), impl->Depth(0)).ok()) {
    return nullptr;
  }
  return std::shared_ptr<const FastDot>(new FastDot(std::move(impl)));
}

StatusOr<Tensor> FastDot::Run(const Tensor& lhs_in, const Tensor& rhs_in, int kernel_threads) const {
  const Impl& p = *impl_;
  Tensor lhs = lhs_in, rhs = rhs_in;
  if (!p.lhs_perm.empty()) {
    PLUGRT_ASSIGN_OR_RETURN(lhs, Transpose(lhs_in, p.lhs_perm));
  }
  if (!p.rhs_perm.empty()) {
    PLUGRT_ASSIGN_OR_RETURN(rhs, Transpose(rhs_in, p.rhs_perm));
  }
  const int team = std::min(p.threads, ThreadBudget(kernel_threads));
  // What the profiler shows: which kernel ran, and whether operands were
  // copied into a transposed order first (a cost strides could not avoid).
  const char* copied = !p.lhs_perm.empty() && !p.rhs_perm.empty() ? " (both operands transposed first)"
                       : !p.lhs_perm.empty()                     ? " (lhs transposed first)"
                       : !p.rhs_perm.empty()                     ? " (rhs transposed first)"
                                                                 : "";
  if (p.skinny) {
    Tensor result = Tensor::Uninitialized(p.result_type, p.result_dims);
    auto matrices = [](const Tensor& t, const MatrixView& v) {
      return F32Matrices{t.as<float>(), v.strides[0], v.strides[1], v.strides[2]};
    };
    const F32Matrices rhs_matrices = matrices(rhs, p.rhs);
    if (KeptCopy::Keepable(rhs) && SkinnyGemmPacks(rhs_matrices, p.m, p.n) &&
        p.kept_panels.Seen(rhs, &p.kept_panels)) {
      // Weights: read from panels packed on the second run that sees them
      // unchanged, and kept.
      PLUGRT_ASSIGN_OR_RETURN(
          std::shared_ptr<void> packed,
          p.kept_panels.Get(
              rhs, &p.kept_panels, sizeof(float) * p.batch * p.k * p.n,
              [&](void* to) {
                SkinnyPack(rhs_matrices, p.batch, p.m, p.k, p.n, static_cast<float*>(to), team);
                return OkStatus();
              },
              "skinny f32 GEMM"));
      if (profiler::Enabled()) {
        profiler::AnnotateKernel(profiler::stat::kImplementation,
                                 std::string("plugrt skinny f32 GEMM (") +
                                     SkinnyGemmInstructionSet() + "), rhs kept in panels" + copied);
      }
      SkinnyGemmPacked(matrices(lhs, p.lhs), static_cast<const float*>(packed.get()), p.batch,
                       p.m, p.n, p.k, result.mutable_as<float>(), team);
      return result;
    }
    if (profiler::Enabled()) {
      profiler::AnnotateKernel(profiler::stat::kImplementation,
                               std::string("plugrt skinny f32 GEMM (") +
                                   SkinnyGemmInstructionSet() + ")" + copied);
    }
    SkinnyGemm(matrices(lhs, p.lhs), rhs_matrices, p.batch, p.m, p.n, p.k,
               result.mutable_as<float>(), team);
    return result;
  }
  if (p.own_int8) {
    if (profiler::Enabled()) {
      profiler::AnnotateKernel(profiler::stat::kImplementation,
                               std::string("plugrt int8 GEMM (AVX2)") + copied);
    }
    return p.RunOwnInt8(lhs, rhs, team);
  }
  onednn::UseThreads(team);
  const memory::desc dst = p.ResultDesc();
  if (p.via_f32) {
    if (profiler::Enabled()) {
      profiler::AnnotateKernel(profiler::stat::kImplementation,
                               std::string("oneDNN f32 matmul in exact chunks (int8 without VNNI)") + copied);
    }
    return p.RunViaF32(ToF32(lhs, team), ToF32(rhs, team), team, dst);
  }
  // Weights that stay the same from run to run are read in oneDNN's layout,
  // reordered once (oneDNN's matmul otherwise copies panels of them into it
  // on every run); when oneDNN has no such primitive, as they lie.
  const Impl::Prepared* prepared = nullptr;
  if (rhs.WrapsSharedStorage()) {
    StatusOr<const Impl::Prepared*> kept = p.Primitive(team, p.k, /*kept_layout=*/true);
    if (kept.ok()) prepared = *kept;
  }
  if (prepared == nullptr) {
    PLUGRT_ASSIGN_OR_RETURN(prepared, p.Primitive(team, p.k));
  }
  if (profiler::Enabled()) {
    profiler::AnnotateKernel(profiler::stat::kImplementation, prepared->implementation + copied);
  }
  Tensor result = Tensor::Uninitialized(p.result_type, p.result_dims);
  try {
    std::optional<onednn::Scratchpad> weights_scratch;
    memory weights = onednn::Wrap(p.Desc(p.rhs, p.rhs_type), rhs);
    std::shared_ptr<void> packed;
    if (prepared->weights) {
      PLUGRT_ASSIGN_OR_RETURN(packed,
                              p.kept.Get(*prepared->weights, rhs, weights_scratch, "oneDNN matmul"));
      weights = memory(prepared->weights->layout, onednn::Engine(), packed.get());
    }
    const onednn::Scratchpad scratchpad(prepared->scratchpad);
    PLUGRT_RETURN_IF_ERROR(onednn::Execute(
        prepared->matmul,
        {{DNNL_ARG_SRC, onednn::Wrap(p.Desc(p.lhs, p.lhs_type), lhs)},
         {DNNL_ARG_WEIGHTS, weights},
         {DNNL_ARG_DST, memory(dst, onednn::Engine(), result.MutableData())},
         {DNNL_ARG_SCRATCHPAD, scratchpad.memory()}},
        "matmul"));
  } catch (const dnnl::error& e) {
    return Internal("oneDNN matmul: ", e.what());
  }
  return result;
}

StatusOr<Tensor> FastDot::Impl::RunViaF32(Tensor lhs_f32, Tensor rhs_f32, int team,
                                          const memory::desc& dst) const {
  // Each chunk's f32 product holds exact integers (see kMaxExactF32Depth);
  // they are converted and summed in s32.
  Tensor exact(ElementType::kSI32, result_dims);
  Tensor part = Tensor::Uninitialized(ElementType::kF32, result_dims);
  int32_t* out = exact.mutable_as<int32_t>();
  const float* in = part.as<float>();
  const int64_t count = exact.num_elements();
  auto* l = lhs_f32.mutable_as<float>();
  auto* r = rhs_f32.mutable_as<float>();
  for (int64_t c = 0, k0 = 0; c < Chunks(); ++c) {
    const int64_t depth = Depth(c);
    PLUGRT_ASSIGN_OR_RETURN(const Prepared* prepared, Primitive(team, depth));
    try {
      const onednn::Scratchpad scratchpad(prepared->scratchpad);
      PLUGRT_RETURN_IF_ERROR(onednn::Execute(
          prepared->matmul,
          {{DNNL_ARG_SRC, memory(Desc(LhsSlice(depth), lhs_type), onednn::Engine(),
                                 l + k0 * lhs.strides[2])},
           {DNNL_ARG_WEIGHTS, memory(Desc(RhsSlice(depth), rhs_type), onednn::Engine(),
                                     r + k0 * rhs.strides[1])},
           {DNNL_ARG_DST, memory(dst, onednn::Engine(), part.MutableData())},
           {DNNL_ARG_SCRATCHPAD, scratchpad.memory()}},
          "matmul"));
    } catch (const dnnl::error& e) {
      return Internal("oneDNN matmul: ", e.what());
    }
    ParallelFor(count, ThreadsFor(count, int64_t{1} << 18, team), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) out[i] += static_cast<int32_t>(in[i]);
    });
    k0 += depth;
  }
  return exact;
}

Tensor FastDot::Impl::RunOwnInt8(const Tensor& lhs_int8, const Tensor& rhs_int8, int team) const {
  auto matrices = [](const Tensor& t, const MatrixView& v, bool is_unsigned) {
    return Int8Matrices{t.data(), is_unsigned, v.strides[0], v.strides[1], v.strides[2]};
  };
  Tensor result = Tensor::Uninitialized(ElementType::kSI32, result_dims);
  Int8Gemm(matrices(lhs_int8, lhs, lhs_unsigned), matrices(rhs_int8, rhs, false), batch, m, n, k,
           result.mutable_as<int32_t>(), team);
  return result;
}

}  // namespace plugrt::cpu
