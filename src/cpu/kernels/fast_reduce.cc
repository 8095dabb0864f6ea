#include "cpu/kernels/fast_reduce.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>

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

// Sums keep 16 partial sums in straight-line code, which GCC turns into one
// vector accumulator held in a register (faster than the loop form, whose
// partial results go through memory each step).
PLUGRT_VECTOR_CLONES float RowSum(const float* a, int64_t n) {
  float partial[16] = {};
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    for (int j = 0; j < 16; ++j) partial[j] += a[i + j];
  }
  for (int j = 0; i < n; ++i, ++j) partial[j] += a[i];
  for (int width = 8; width >= 1; width /= 2) {
    for (int j = 0; j < width; ++j) partial[j] += partial[j + width];
  }
  return partial[0];
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

// Scratch rows of partial results, on 64-byte boundaries: CombineRow loads
// and stores them a vector at a time for every input row, and a row that
// starts mid cache line splits each of those accesses in two (measured 30 %
// slower on column reductions, depending on where malloc placed them).
struct AlignedDelete {
  void operator()(float* p) const { ::operator delete[](p, std::align_val_t(64)); }
};
using AlignedFloats = std::unique_ptr<float[], AlignedDelete>;
AlignedFloats NewAlignedFloats(size_t n) {
  return AlignedFloats(new (std::align_val_t(64)) float[n]);
}

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

// acc[i] = acc[i] (op) rows[0][i], rows[n][i], rows[2n][i] and rows[3n][i]
// (four consecutive rows of n; sums add the rows in pairs first): the row of
// partial results is read and written once per four input rows, not once
// per row (4096 x 4096 columns, alternated runs: max 1.94 to 1.75 ms, sum
// 1.60 to 1.28 ms).
PLUGRT_VECTOR_CLONES void CombineFourRows(ReduceKind kind, float* __restrict acc,
                                          const float* __restrict rows, int64_t n) {
  const float* __restrict r0 = rows;
  const float* __restrict r1 = rows + n;
  const float* __restrict r2 = rows + 2 * n;
  const float* __restrict r3 = rows + 3 * n;
  switch (kind) {
    case ReduceKind::kAdd:
      for (int64_t i = 0; i < n; ++i) acc[i] += (r0[i] + r1[i]) + (r2[i] + r3[i]);
      break;
    case ReduceKind::kMaximum:
      for (int64_t i = 0; i < n; ++i) {
        acc[i] = MaxStep(MaxStep(acc[i], MaxStep(r0[i], r1[i])), MaxStep(r2[i], r3[i]));
      }
      break;
    default:
      for (int64_t i = 0; i < n; ++i) {
        acc[i] = MinStep(MinStep(acc[i], MinStep(r0[i], r1[i])), MinStep(r2[i], r3[i]));
      }
      break;
  }
}

// acc[i] = acc[i] (op) row[i], restrict-qualified parameters so that it
// vectorizes inlined into CombineRows.
template <ReduceKind kKind>
[[gnu::always_inline]] inline void CombineOne(float* __restrict acc, const float* __restrict row,
                                             int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (kKind == ReduceKind::kAdd) {
      acc[i] += row[i];
    } else if constexpr (kKind == ReduceKind::kMaximum) {
      acc[i] = MaxStep(acc[i], row[i]);
    } else {
      acc[i] = MinStep(acc[i], row[i]);
    }
  }
}

// acc[i] = acc[i] (op) rows[t][i] for every row t < count and i < n: one
// call per window position, not one per tap.
PLUGRT_VECTOR_CLONES void CombineRows(ReduceKind kind, float* __restrict acc,
                                      const float* const* rows, int64_t count, int64_t n) {
  switch (kind) {
    case ReduceKind::kAdd:
      for (int64_t t = 0; t < count; ++t) CombineOne<ReduceKind::kAdd>(acc, rows[t], n);
      break;
    case ReduceKind::kMaximum:
      for (int64_t t = 0; t < count; ++t) CombineOne<ReduceKind::kMaximum>(acc, rows[t], n);
      break;
    default:
      for (int64_t t = 0; t < count; ++t) CombineOne<ReduceKind::kMinimum>(acc, rows[t], n);
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
  const int team = ThreadsFor(total, kElementsPerThread, threads);
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
  // Each outer slice: rows of `inner` elements combined into one row. Threads
  // take whole slices when there are enough of them; otherwise each takes a
  // contiguous band of rows (a sequential stream, which the prefetchers
  // follow) into a row of partial results, and the partial rows are combined
  // at the end.
  auto reduce_rows = [&](const float* rows, int64_t count, float* acc) {
    std::fill(acc, acc + p.inner, init);
    AlignedFloats block = NewAlignedFloats(static_cast<size_t>(p.inner));
    for (int64_t r0 = 0; r0 < count; r0 += kBlockRows) {
      const int64_t r1 = std::min(count, r0 + kBlockRows);
      // Sums go through a block of kBlockRows rows first (see there).
      float* into = acc;
      int64_t r = r0;
      if (p.kind == ReduceKind::kAdd) {
        into = block.get();
        std::memcpy(into, rows + r0 * p.inner, static_cast<size_t>(p.inner) * sizeof(float));
        ++r;
      }
      for (; r + 4 <= r1; r += 4) CombineFourRows(p.kind, into, rows + r * p.inner, p.inner);
      for (; r < r1; ++r) CombineRow(p.kind, into, rows + r * p.inner, p.inner);
      if (p.kind == ReduceKind::kAdd) CombineRow(p.kind, acc, block.get(), p.inner);
    }
  };
  if (p.outer >= team) {
    ParallelFor(p.outer, team, [&](int64_t begin, int64_t end) {
      for (int64_t o = begin; o < end; ++o) {
        reduce_rows(in + o * p.reduced * p.inner, p.reduced, out + o * p.inner);
      }
    });
    return result;
  }
  // Each thread's row starts on its own cache line (no false sharing either).
  const int64_t stride = (p.inner + 15) / 16 * 16;
  AlignedFloats partial = NewAlignedFloats(static_cast<size_t>(team * stride));
  for (int64_t o = 0; o < p.outer; ++o) {
    const float* slice = in + o * p.reduced * p.inner;
    ParallelFor(team, team, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t) {
        const int64_t r_begin = p.reduced * t / team, r_end = p.reduced * (t + 1) / team;
        reduce_rows(slice + r_begin * p.inner, r_end - r_begin, partial.get() + t * stride);
      }
    });
    float* acc = out + o * p.inner;
    std::memcpy(acc, partial.get(), static_cast<size_t>(p.inner) * sizeof(float));
    for (int t = 1; t < team; ++t) CombineRow(p.kind, acc, partial.get() + t * stride, p.inner);
  }
  return result;
}

}  // namespace plugrt::cpu

namespace plugrt::cpu {

std::optional<FastWindowPlan> PlanFastReduceWindow(const std::vector<int64_t>& dims,
                                                   const WindowGeometry& window,
                                                   ReduceKind kind) {
  if (kind != ReduceKind::kAdd && kind != ReduceKind::kMaximum && kind != ReduceKind::kMinimum) {
    return std::nullopt;
  }
  const size_t rank = dims.size();
  if (window.window_dimensions.size() != rank) return std::nullopt;
  for (size_t d = 0; d < rank; ++d) {
    if (window.base_dilations[d] != 1) return std::nullopt;
  }
  // The trailing dims the window leaves alone (size 1, stride 1, no padding)
  // are the channels: one contiguous row per window position.
  size_t split = rank;
  while (split > 0) {
    const size_t d = split - 1;
    if (window.window_dimensions[d] != 1 || window.window_strides[d] != 1 ||
        window.padding_low[d] != 0 || window.padding_high[d] != 0) {
      break;
    }
    --split;
  }
  FastWindowPlan plan;
  plan.kind = kind;
  for (size_t d = split; d < rank; ++d) plan.channels *= dims[d];
  // A few channels are not worth a row at a time: the general kernel stays.
  if (split == 0 || plan.channels < 8) return std::nullopt;
  StatusOr<std::vector<int64_t>> result = WindowResultDims(dims, window);
  if (!result.ok()) return std::nullopt;
  plan.result_dims = *result;
  for (size_t d = 0; d < split; ++d) {
    plan.input_dims.push_back(dims[d]);
    plan.output_dims.push_back(plan.result_dims[d]);
    plan.window.push_back(window.window_dimensions[d]);
    plan.strides.push_back(window.window_strides[d]);
    plan.padding_low.push_back(window.padding_low[d]);
    plan.window_dilations.push_back(window.window_dilations[d]);
  }
  return plan;
}

Tensor FastReduceWindow(const FastWindowPlan& p, const Tensor& input, float init, int threads) {
  Tensor result = Tensor::Uninitialized(ElementType::kF32, p.result_dims);
  float* out = result.mutable_as<float>();
  const float* in = input.as<float>();
  const size_t rank = p.input_dims.size();
  int64_t positions = 1, taps = 1;
  for (size_t d = 0; d < rank; ++d) {
    positions *= p.output_dims[d];
    taps *= p.window[d];
  }
  const int64_t c = p.channels;
  // Each tap's row relative to the window's first, for windows wholly inside
  // the input (most of them): their rows need no bounds checks.
  std::vector<int64_t> tap_offset(static_cast<size_t>(taps), 0);
  {
    std::vector<int64_t> tap(rank, 0);
    for (int64_t t = 0; t < taps; ++t) {
      int64_t offset = 0;
      for (size_t d = 0; d < rank; ++d) {
        offset = offset * p.input_dims[d] + tap[d] * p.window_dilations[d];
      }
      tap_offset[static_cast<size_t>(t)] = offset;
      for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
        if (++tap[d] < p.window[d]) break;
        tap[d] = 0;
      }
    }
  }
  const int team = ThreadsFor(positions * taps * c, kElementsPerThread, threads);
  ParallelFor(positions, team, [&](int64_t begin, int64_t end) {
    AlignedFloats padding = NewAlignedFloats(static_cast<size_t>(c));
    std::fill(padding.get(), padding.get() + c, init);
    std::vector<int64_t> at(rank), tap(rank);
    std::vector<const float*> rows(static_cast<size_t>(taps));
    for (int64_t o = begin; o < end; ++o) {
      for (int64_t d = static_cast<int64_t>(rank) - 1, rest = o; d >= 0; --d) {
        at[d] = rest % p.output_dims[d];
        rest /= p.output_dims[d];
      }
      float* acc = out + o * c;
      std::fill(acc, acc + c, init);
      int64_t origin = 0;
      bool interior = true;
      for (size_t d = 0; d < rank; ++d) {
        const int64_t x = at[d] * p.strides[d] - p.padding_low[d];
        interior = interior && x >= 0 &&
                   x + (p.window[d] - 1) * p.window_dilations[d] < p.input_dims[d];
        origin = origin * p.input_dims[d] + x;
      }
      if (interior) {
        for (int64_t t = 0; t < taps; ++t) {
          rows[static_cast<size_t>(t)] = in + (origin + tap_offset[static_cast<size_t>(t)]) * c;
        }
      } else {
        std::fill(tap.begin(), tap.end(), 0);
        for (int64_t t = 0; t < taps; ++t) {
          int64_t offset = 0;
          bool inside = true;
          for (size_t d = 0; d < rank; ++d) {
            const int64_t x =
                at[d] * p.strides[d] - p.padding_low[d] + tap[d] * p.window_dilations[d];
            inside = inside && x >= 0 && x < p.input_dims[d];
            offset = offset * p.input_dims[d] + x;
          }
          // Padding reads as the init value, as the spec says.
          rows[static_cast<size_t>(t)] = inside ? in + offset * c : padding.get();
          for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
            if (++tap[d] < p.window[d]) break;
            tap[d] = 0;
          }
        }
      }
      CombineRows(p.kind, acc, rows.data(), taps, c);
    }
  });
  return result;
}

}  // namespace plugrt::cpu
