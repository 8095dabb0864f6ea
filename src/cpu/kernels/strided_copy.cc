#include "cpu/kernels/strided_copy.h"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "common/scratch.h"
#include "cpu/kernels/parallel.h"

namespace plugrt::cpu {
namespace {

// An element moved as an opaque block of N bytes.
template <int N>
struct Bytes {
  std::byte b[N];
};

// Inner loop over one strided row of `count` elements of N bytes (strides in
// bytes).
template <int N>
void CopyRow(const std::byte* src, int64_t src_step, std::byte* dst, int64_t dst_step,
             int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(dst, src, N);
    src += src_step;
    dst += dst_step;
  }
}

// A transposed pair of dimensions: element (r, c) at src + r * N + c *
// src_col_step goes to dst + r * dst_row_step + c * N (the source contiguous
// along r, the destination along c). Copied in square tiles, so that each
// cache line read or written serves a whole tile row instead of one element
// (a 4 MiB f32 transpose ran at 2 GB/s element by element).
template <int N>
void CopyTiles(const std::byte* src, int64_t src_col_step, std::byte* dst, int64_t dst_row_step,
               int64_t rows, int64_t cols) {
  constexpr int64_t kTile = 16;
  for (int64_t r0 = 0; r0 < rows; r0 += kTile) {
    const int64_t r1 = r0 + kTile < rows ? r0 + kTile : rows;
    for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
      const int64_t c1 = c0 + kTile < cols ? c0 + kTile : cols;
      for (int64_t r = r0; r < r1; ++r) {
        const std::byte* from = src + r * N + c0 * src_col_step;
        std::byte* to = dst + r * dst_row_step + c0 * N;
        for (int64_t c = c0; c < c1; ++c, from += src_col_step, to += N) std::memcpy(to, from, N);
      }
    }
  }
}

#if defined(__x86_64__)
// CopyTiles for 4-byte elements on AVX2: each 8x8 block is 8 loads of 8
// source elements along r, transposed in registers, and 8 stores of 8
// along c (a [2048, 512] f32 transpose: 0.71 ms element by element in
// tiles, on one thread). Blocks go down strips of 16 rows, so each source
// cache line is used whole; the edges are copied by CopyTiles.
__attribute__((target("avx2"))) void CopyTiles4Avx2(const std::byte* src, int64_t src_col_step,
                                                    std::byte* dst, int64_t dst_row_step,
                                                    int64_t rows, int64_t cols) {
  const int64_t full_rows = rows / 8 * 8, full_cols = cols / 8 * 8;
  for (int64_t r0 = 0; r0 < full_rows; r0 += 16) {
    const int64_t strip = r0 + 16 <= full_rows ? 16 : 8;
    for (int64_t c0 = 0; c0 < full_cols; c0 += 8) {
      for (int64_t rb = r0; rb < r0 + strip; rb += 8) {
        __m256 v[8];
        for (int k = 0; k < 8; ++k) {
          const std::byte* column = src + rb * 4 + (c0 + k) * src_col_step;
          v[k] = _mm256_loadu_ps(reinterpret_cast<const float*>(column));
        }
        // v[k] = column c0 + k, rows rb..rb+7; make w[j] = row rb + j.
        const __m256 t0 = _mm256_unpacklo_ps(v[0], v[1]), t1 = _mm256_unpackhi_ps(v[0], v[1]);
        const __m256 t2 = _mm256_unpacklo_ps(v[2], v[3]), t3 = _mm256_unpackhi_ps(v[2], v[3]);
        const __m256 t4 = _mm256_unpacklo_ps(v[4], v[5]), t5 = _mm256_unpackhi_ps(v[4], v[5]);
        const __m256 t6 = _mm256_unpacklo_ps(v[6], v[7]), t7 = _mm256_unpackhi_ps(v[6], v[7]);
        const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
        const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
        const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
        const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
        const __m256 w[8] = {
            _mm256_permute2f128_ps(s0, s4, 0x20), _mm256_permute2f128_ps(s1, s5, 0x20),
            _mm256_permute2f128_ps(s2, s6, 0x20), _mm256_permute2f128_ps(s3, s7, 0x20),
            _mm256_permute2f128_ps(s0, s4, 0x31), _mm256_permute2f128_ps(s1, s5, 0x31),
            _mm256_permute2f128_ps(s2, s6, 0x31), _mm256_permute2f128_ps(s3, s7, 0x31)};
        for (int j = 0; j < 8; ++j) {
          _mm256_storeu_ps(reinterpret_cast<float*>(dst + (rb + j) * dst_row_step + c0 * 4), w[j]);
        }
      }
    }
  }
  // The edges: the rows below the last full block (every column), and the
  // columns right of the last full block (the full rows).
  if (full_rows < rows) {
    CopyTiles<4>(src + full_rows * 4, src_col_step, dst + full_rows * dst_row_step, dst_row_step,
                 rows - full_rows, cols);
  }
  if (full_cols < cols && full_rows > 0) {
    CopyTiles<4>(src + full_cols * src_col_step, src_col_step, dst + full_cols * 4, dst_row_step,
                 full_rows, cols - full_cols);
  }
}

bool HasAvx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
}
#endif

using RowFn = void (*)(const std::byte*, int64_t, std::byte*, int64_t, int64_t);
using TileFn = void (*)(const std::byte*, int64_t, std::byte*, int64_t, int64_t, int64_t);

// The copy loops compiled for one element size (none for other sizes).
struct CopyLoops {
  RowFn row = nullptr;
  TileFn tiles = nullptr;
};

template <int N>
constexpr CopyLoops LoopsOf() {
  return {&CopyRow<N>, &CopyTiles<N>};
}

CopyLoops LoopsFor(int element_bytes) {
  switch (element_bytes) {
    case 1: return LoopsOf<1>();
    case 2: return LoopsOf<2>();
    case 4: {
      CopyLoops loops = LoopsOf<4>();
#if defined(__x86_64__)
      if (HasAvx2()) loops.tiles = &CopyTiles4Avx2;
#endif
      return loops;
    }
    case 8: return LoopsOf<8>();
    case 16: return LoopsOf<16>();
    default: return {};
  }
}

}  // namespace

StatusOr<int64_t> CheckedElementCount(const std::vector<int64_t>& dims) {
  // 2^40 elements is far beyond any host; the cap keeps products from
  // overflowing int64 on the way.
  constexpr int64_t kMaxElements = int64_t{1} << 40;
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d < 0) return InvalidArgument("negative dimension size ", d);
    if (d == 0) return int64_t{0};
  }
  for (int64_t d : dims) {
    if (count > kMaxElements / d) {
      return ResourceExhausted("tensor of more than 2^40 elements requested");
    }
    count *= d;
  }
  return count;
}

void StridedCopyInBands(const std::byte* src, const std::vector<int64_t>& src_strides,
                        std::byte* dst, const std::vector<int64_t>& dst_strides,
                        const std::vector<int64_t>& dims, int element_bytes, int threads) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  const int bands =
      dims.empty() || count == 0
          ? 1
          : std::min<int>(ThreadsFor(count, int64_t{1} << 16, threads),
                          static_cast<int>(std::min<int64_t>(dims[0], 1 << 16)));
  if (bands <= 1) {
    StridedCopy(src, src_strides, dst, dst_strides, dims, element_bytes);
    return;
  }
  const int64_t eb = element_bytes;
  ParallelFor(dims[0], bands, [&](int64_t begin, int64_t end) {
    std::vector<int64_t> band = dims;
    band[0] = end - begin;
    StridedCopy(src + begin * src_strides[0] * eb, src_strides, dst + begin * dst_strides[0] * eb,
                dst_strides, band, element_bytes);
  });
}

void FillElements(std::byte* dst, int64_t count, const std::byte* value, int element_bytes) {
  if (count <= 0) return;
  std::memcpy(dst, value, element_bytes);
  // Doubling copies keep this memcpy-bound for any element size.
  int64_t done = 1;
  while (done < count) {
    int64_t chunk = done < count - done ? done : count - done;
    std::memcpy(dst + done * element_bytes, dst, static_cast<size_t>(chunk * element_bytes));
    done += chunk;
  }
}

void StridedCopy(const std::byte* src, const std::vector<int64_t>& src_strides, std::byte* dst,
                 const std::vector<int64_t>& dst_strides, const std::vector<int64_t>& dims,
                 int element_bytes) {
  // Normalise: visit the dims in the destination's order (strides largest
  // first: a box copy may go in any order, and this one writes memory in
  // sequence and puts the destination's contiguous dim last, where the tiled
  // transpose looks for it), drop unit dims, then merge neighbours that are
  // contiguous in both views, so common cases become a few long runs.
  ScratchVector<size_t> order_storage;
  std::vector<size_t>& order = *order_storage;
  order.resize(dims.size());
  for (size_t k = 0; k < dims.size(); ++k) order[k] = k;
  auto magnitude = [](int64_t stride) { return stride < 0 ? -stride : stride; };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return magnitude(dst_strides[a]) > magnitude(dst_strides[b]);
  });
  std::vector<int64_t> size, ss, ds;
  size.reserve(dims.size());
  ss.reserve(dims.size());
  ds.reserve(dims.size());
  for (size_t k : order) {
    if (dims[k] == 0) return;
    if (dims[k] == 1) continue;
    if (!size.empty() && ss.back() == src_strides[k] * dims[k] &&
        ds.back() == dst_strides[k] * dims[k]) {
      size.back() *= dims[k];
      ss.back() = src_strides[k];
      ds.back() = dst_strides[k];
      continue;
    }
    size.push_back(dims[k]);
    ss.push_back(src_strides[k]);
    ds.push_back(dst_strides[k]);
  }
  if (size.empty()) {
    std::memcpy(dst, src, element_bytes);
    return;
  }
  const int64_t eb = element_bytes;
  const size_t last = size.size() - 1;
  const int64_t inner = size[last];
  const bool contiguous = ss[last] == 1 && ds[last] == 1;
  const int64_t inner_src_step = ss[last] * eb;
  const int64_t inner_dst_step = ds[last] * eb;
  const CopyLoops loops = LoopsFor(element_bytes);
  // A transposed pair: the destination contiguous along the last dim, the
  // source along `pair`; copied as tiled 2-D transposes (`pair` == `last`:
  // none, each step copies one row).
  size_t pair = last;
  if (!contiguous && ds[last] == 1 && inner >= 8 && loops.tiles != nullptr) {
    for (size_t k = 0; k < last && pair == last; ++k) {
      if (ss[k] == 1 && size[k] >= 8) pair = k;
    }
  }
  // The dims stepped around each copy, strides in bytes.
  std::vector<int64_t> outer, outer_ss, outer_ds;
  for (size_t k = 0; k < last; ++k) {
    if (k == pair) continue;
    outer.push_back(size[k]);
    outer_ss.push_back(ss[k] * eb);
    outer_ds.push_back(ds[k] * eb);
  }

  std::vector<int64_t> index(outer.size(), 0);
  while (true) {
    if (pair != last) {
      loops.tiles(src, inner_src_step, dst, ds[pair] * eb, size[pair], inner);
    } else if (contiguous) {
      std::memcpy(dst, src, static_cast<size_t>(inner * eb));
    } else if (loops.row != nullptr) {
      loops.row(src, inner_src_step, dst, inner_dst_step, inner);
    } else {
      for (int64_t i = 0; i < inner; ++i) {
        std::memcpy(dst + i * inner_dst_step, src + i * inner_src_step, element_bytes);
      }
    }
    // Advance the outer dimensions like an odometer.
    int k = static_cast<int>(outer.size()) - 1;
    for (; k >= 0; --k) {
      src += outer_ss[k];
      dst += outer_ds[k];
      if (++index[k] < outer[k]) break;
      src -= outer_ss[k] * outer[k];
      dst -= outer_ds[k] * outer[k];
      index[k] = 0;
    }
    if (k < 0) return;
  }
}

}  // namespace plugrt::cpu
