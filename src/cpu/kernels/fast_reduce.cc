#include "cpu/kernels/fast_reduce.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "cpu/kernels/parallel.h"
#include "cpu/kernels/vector_math.h"

namespace plugrt::cpu {
namespace vmath {

// Row reductions keep 64 partial results, one per lane of four vectors: the
// j loops below vectorize as plain loops (kept from full unrolling, which
// would hand them to the weaker straight-line vectorizer), and no single sum
// is reassociated.
constexpr int kLanes = 64;

template <typename Step>
PLUGRT_INLINE float ReduceRow(const float* a, int64_t n, float init, Step step) {
  float partial[kLanes];
  for (int j = 0; j < kLanes; ++j) partial[j] = init;
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
#pragma GCC unroll 1
    for (int j = 0; j < kLanes; ++j) partial[j] = step(partial[j], a[i + j]);
  }
  for (int j = 0; i < n; ++i, ++j) partial[j] = step(partial[j], a[i]);
  // Pairwise across the lanes.
  for (int width = kLanes / 2; width >= 1; width /= 2) {
    for (int j = 0; j < width; ++j) partial[j] = step(partial[j], partial[j + width]);
  }
  return partial[0];
}

PLUGRT_VECTOR_CLONES float RowSum(const float* a, int64_t n) {
  return ReduceRow(a, n, 0.0f, [](float acc, float x) { return acc + x; });
}
PLUGRT_VECTOR_CLONES float RowMax(const float* a, int64_t n, float init) {
  return ReduceRow(a, n, init, [](float acc, float x) { return MaxStep(acc, x); });
}
PLUGRT_VECTOR_CLONES float RowMin(const float* a, int64_t n, float init) {
  return ReduceRow(a, n, init, [](float acc, float x) { return MinStep(acc, x); });
}

}  // namespace vmath

namespace {

using namespace vmath;  // NOLINT: the math the loops are written in

// Elements per thread below which a reduction stays on one thread.
constexpr int64_t kElementsPerThread = 1 << 16;
// Rows summed into a block accumulator before it joins the total: keeps the
// f32 rounding error of long column sums near that of pairwise summation.
constexpr int64_t kBlockRows = 64;

// acc[i] = acc[i] (op) row[i] for i < n.
PLUGRT_VECTOR_CLONES void CombineRow(ReduceKind kind, float* __restrict acc,
                                     const float* __restrict row, int64_t n) {
  switch (kind) {
    case ReduceKind::kAdd:
      for (int64_t i = 0; i < n; ++i) acc[i] += row[i];
      break;
    case ReduceKind::kMaximum:
      for (int64_t i = 0; i < n; ++i) acc[i] = MaxStep(acc[i], row[i]);
      break;
    default:
      for (int64_t i = 0; i < n; ++i) acc[i] = MinStep(acc[i], row[i]);
      break;
  }
}

}  // namespace

std::optional<FastReducePlan> PlanFastReduce(const std::vector<int64_t>& dims,
                                             const std::vector<int64_t>& dimensions,
                                             ReduceKind kind) {
  if (kind != ReduceKind::kAdd && kind != ReduceKind::kMaximum && kind != ReduceKind::kMinimum) {
    return std::nullopt;
  }
  std::vector<bool> reduced(dims.size(), false);
  for (int64_t d : dimensions) reduced[d] = true;
  FastReducePlan plan;
  plan.kind = kind;
  // outer: dims before the first reduced one; the reduced dims (size-1 dims
  // aside) must then follow without a kept dim between them.
  int phase = 0;  // 0 outer, 1 reduced, 2 inner
  for (size_t d = 0; d < dims.size(); ++d) {
    if (!reduced[d]) plan.result_dims.push_back(dims[d]);
    if (dims[d] == 1) continue;
    if (reduced[d]) {
      if (phase == 2) return std::nullopt;
      phase = 1;
      plan.reduced *= dims[d];
    } else if (phase == 0) {
      plan.outer *= dims[d];
    } else {
      phase = 2;
      plan.inner *= dims[d];
    }
  }
  return plan;
}

Tensor FastReduce(const FastReducePlan& p, const Tensor& input, float init, int threads) {
  Tensor result = Tensor::Uninitialized(ElementType::kF32, p.result_dims);
  float* out = result.mutable_as<float>();
  const float* in = input.as<float>();
  const int64_t total = p.outer * p.reduced * p.inner;
  const int team = ThreadsFor(total, kElementsPerThread);
  if (p.inner == 1) {
    ParallelFor(p.outer, team, [&](int64_t begin, int64_t end) {
      for (int64_t o = begin; o < end; ++o) {
        const float* row = in + o * p.reduced;
        out[o] = p.kind == ReduceKind::kAdd       ? init + RowSum(row, p.reduced)
                 : p.kind == ReduceKind::kMaximum ? RowMax(row, p.reduced, init)
                                                  : RowMin(row, p.reduced, init);
      }
    });
    return result;
  }
  // Split the columns of each outer slice among the threads (or the outer
  // slices, when there are enough of them).
  const bool split_outer = p.outer >= team;
  const int64_t tasks = split_outer ? p.outer : team;
  ParallelFor(tasks, team, [&](int64_t begin, int64_t end) {
    const int64_t o_begin = split_outer ? begin : 0, o_end = split_outer ? end : p.outer;
    const int64_t c_begin = split_outer ? 0 : p.inner * begin / tasks;
    const int64_t c_end = split_outer ? p.inner : p.inner * end / tasks;
    const int64_t width = c_end - c_begin;
    std::unique_ptr<float[]> block(new float[std::max<int64_t>(width, 1)]);
    for (int64_t o = o_begin; o < o_end; ++o) {
      float* acc = out + o * p.inner + c_begin;
      std::fill(acc, acc + width, init);
      const float* slice = in + o * p.reduced * p.inner + c_begin;
      for (int64_t r0 = 0; r0 < p.reduced; r0 += kBlockRows) {
        const int64_t r1 = std::min(p.reduced, r0 + kBlockRows);
        if (p.kind == ReduceKind::kAdd) {
          std::memcpy(block.get(), slice + r0 * p.inner, static_cast<size_t>(width) * sizeof(float));
          for (int64_t r = r0 + 1; r < r1; ++r) CombineRow(p.kind, block.get(), slice + r * p.inner, width);
          CombineRow(p.kind, acc, block.get(), width);
        } else {
          for (int64_t r = r0; r < r1; ++r) CombineRow(p.kind, acc, slice + r * p.inner, width);
        }
      }
    }
  });
  return result;
}

}  // namespace plugrt::cpu
