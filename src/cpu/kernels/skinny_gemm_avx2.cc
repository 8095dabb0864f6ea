// Compiled with -mavx2 -mfma (CMakeLists.txt). It includes no C++ library
// headers and defines no inline functions with external linkage: the linker
// could otherwise keep this file's AVX2 copy of one for callers on any CPU.
#include "cpu/kernels/skinny_gemm_avx2.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

namespace plugrt::cpu::skinny_gemm {
namespace {

float Sum(__m256 v) {
  __m128 lo = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  lo = _mm_add_ps(lo, _mm_movehl_ps(lo, lo));
  lo = _mm_add_ss(lo, _mm_shuffle_ps(lo, lo, 1));
  return _mm_cvtss_f32(lo);
}

// The lanes of the last, partial vector of a row of k values.
__m256i TailMask(int64_t k) {
  const int64_t left = k % 8;
  alignas(32) int lanes[8];
  for (int i = 0; i < 8; ++i) lanes[i] = i < left ? -1 : 0;
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes));
}

// kCols rhs rows (columns of the product) against kRows lhs rows, each dot
// product over k: kRows x kCols accumulators.
template <int kRows, int kCols>
void DotBlock(const float* a, int64_t k, const float* const* b, float* c, int64_t ldc,
              __m256i tail) {
  __m256 acc[kRows][kCols];
  for (int i = 0; i < kRows; ++i) {
    for (int j = 0; j < kCols; ++j) acc[i][j] = _mm256_setzero_ps();
  }
  const int64_t full = k / 8 * 8;
  for (int64_t x = 0; x < full; x += 8) {
    __m256 w[kCols];
    for (int j = 0; j < kCols; ++j) w[j] = _mm256_loadu_ps(b[j] + x);
    for (int i = 0; i < kRows; ++i) {
      const __m256 v = _mm256_loadu_ps(a + i * k + x);
      for (int j = 0; j < kCols; ++j) acc[i][j] = _mm256_fmadd_ps(v, w[j], acc[i][j]);
    }
  }
  if (full < k) {
    __m256 w[kCols];
    for (int j = 0; j < kCols; ++j) w[j] = _mm256_maskload_ps(b[j] + full, tail);
    for (int i = 0; i < kRows; ++i) {
      const __m256 v = _mm256_maskload_ps(a + i * k + full, tail);
      for (int j = 0; j < kCols; ++j) acc[i][j] = _mm256_fmadd_ps(v, w[j], acc[i][j]);
    }
  }
  for (int i = 0; i < kRows; ++i) {
    for (int j = 0; j < kCols; ++j) c[i * ldc + j] = Sum(acc[i][j]);
  }
}

template <int kCols>
void DotRows(const float* a, int64_t m, int64_t k, const float* const* b, float* c, int64_t ldc,
             __m256i tail) {
  int64_t i = 0;
  for (; i + 2 <= m; i += 2) DotBlock<2, kCols>(a + i * k, k, b, c + i * ldc, ldc, tail);
  if (i < m) DotBlock<1, kCols>(a + i * k, k, b, c + i * ldc, ldc, tail);
}

// kRows lhs rows times a [k, 8 * kVecs] panel of the rhs, starting at column
// j: every row's accumulators in registers, the rhs read once.
template <int kRows, int kVecs>
void PanelBlock(const float* a, int64_t k, const float* b, int64_t ldb, float* c, int64_t ldc,
                __m256i mask, bool masked) {
  __m256 acc[kRows][kVecs];
  for (int i = 0; i < kRows; ++i) {
    for (int v = 0; v < kVecs; ++v) acc[i][v] = _mm256_setzero_ps();
  }
  for (int64_t x = 0; x < k; ++x) {
    __m256 w[kVecs];
    const float* row = b + x * ldb;
    for (int v = 0; v < kVecs; ++v) {
      w[v] = masked && v == kVecs - 1 ? _mm256_maskload_ps(row + 8 * v, mask)
                                      : _mm256_loadu_ps(row + 8 * v);
    }
    for (int i = 0; i < kRows; ++i) {
      const __m256 s = _mm256_broadcast_ss(a + i * k + x);
      for (int v = 0; v < kVecs; ++v) acc[i][v] = _mm256_fmadd_ps(s, w[v], acc[i][v]);
    }
  }
  for (int i = 0; i < kRows; ++i) {
    for (int v = 0; v < kVecs; ++v) {
      if (masked && v == kVecs - 1) {
        _mm256_maskstore_ps(c + i * ldc + 8 * v, mask, acc[i][v]);
      } else {
        _mm256_storeu_ps(c + i * ldc + 8 * v, acc[i][v]);
      }
    }
  }
}

template <int kRows>
void Panels(const float* a, int64_t k, const float* b, int64_t ldb, int64_t n0, int64_t n1,
            float* c, int64_t ldc) {
  // 12 accumulators at most: kVecs = 12 / kRows (at least 1).
  constexpr int kVecs = kRows >= 6 ? 1 : (kRows >= 3 ? 2 : (kRows == 2 ? 4 : 8));
  int64_t j = n0;
  for (; j + 8 * kVecs <= n1; j += 8 * kVecs) {
    PanelBlock<kRows, kVecs>(a, k, b + j, ldb, c + j, ldc, __m256i(), false);
  }
  for (; j < n1; j += 8) {
    const int64_t width = n1 - j < 8 ? n1 - j : 8;
    alignas(32) int lanes[8];
    for (int l = 0; l < 8; ++l) lanes[l] = l < width ? -1 : 0;
    const __m256i mask = _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes));
    PanelBlock<kRows, 1>(a, k, b + j, ldb, c + j, ldc, mask, width < 8);
  }
}

}  // namespace

void ColumnsOfRowsAvx2(const float* a, int64_t m, int64_t k, const float* b, int64_t ldb,
                       int64_t n0, int64_t n1, float* c, int64_t ldc) {
  const __m256i tail = TailMask(k);
  int64_t j = n0;
  for (; j + 4 <= n1; j += 4) {
    const float* rows[4] = {b + j * ldb, b + (j + 1) * ldb, b + (j + 2) * ldb, b + (j + 3) * ldb};
    DotRows<4>(a, m, k, rows, c + j, ldc, tail);
  }
  for (; j < n1; ++j) {
    const float* row[1] = {b + j * ldb};
    DotRows<1>(a, m, k, row, c + j, ldc, tail);
  }
}

void RowsOfColumnsAvx2(const float* a, int64_t m, int64_t k, const float* b, int64_t ldb,
                       int64_t n0, int64_t n1, float* c, int64_t ldc) {
  switch (m) {
    case 1: return Panels<1>(a, k, b, ldb, n0, n1, c, ldc);
    case 2: return Panels<2>(a, k, b, ldb, n0, n1, c, ldc);
    case 3: return Panels<3>(a, k, b, ldb, n0, n1, c, ldc);
    case 4: return Panels<4>(a, k, b, ldb, n0, n1, c, ldc);
    case 5: return Panels<5>(a, k, b, ldb, n0, n1, c, ldc);
    case 6: return Panels<6>(a, k, b, ldb, n0, n1, c, ldc);
    case 7: return Panels<7>(a, k, b, ldb, n0, n1, c, ldc);
    default: return Panels<8>(a, k, b, ldb, n0, n1, c, ldc);
  }
}

}  // namespace plugrt::cpu::skinny_gemm

#endif  // __AVX2__ && __FMA__
