// plugrt CPU kernels: the vector part of the skinny f32 product
// (skinny_gemm.h), one band of output columns at a time, written once
// (skinny_gemm_kernels.inc) and compiled for two instruction sets:
// skinny_gemm_avx2.cc with AVX2 + FMA (8 lanes), skinny_gemm_avx512.cc with
// AVX-512F (16 lanes). Call a variant only on a CPU that has its set
// (SkinnyGemmAvailable; skinny_gemm.cc picks the wider one there is).
#ifndef PLUGRT_CPU_KERNELS_SKINNY_GEMM_SIMD_H_
#define PLUGRT_CPU_KERNELS_SKINNY_GEMM_SIMD_H_

#include <cstdint>

namespace plugrt::cpu::skinny_gemm {

// The most lhs rows one pass takes: every row's accumulators stay in
// registers while the rhs streams past once.
inline constexpr int64_t kMaxRows = 8;

// How many vectors (of `lanes` columns) wide the panel is that `rows` lhs
// rows take at once in a [k, n] rhs: as many accumulators as leave registers
// for the panel's row and the broadcast lhs element (24 of AVX-512's 32, 12
// of AVX2's 16), at most 8 vectors. Wider panels read more of each rhs row
// at once: with one vector per row (8 lhs rows on AVX2's budget) the product
// ran at a third of the bandwidth (docs/performance.md). Packed panels
// (PackedPanels) are this wide.
constexpr int PanelVectors(int lanes, int64_t rows) {
  const int budget = lanes >= 16 ? 24 : 12;
  const int64_t fit = budget / (rows < 1 ? 1 : rows);
  return fit > 8 ? 8 : fit < 1 ? 1 : static_cast<int>(fit);
}

// c[i * ldc + j] = sum over x < k of a[i * k + x] * b(x, j), for i < m
// (m <= kMaxRows) and j in [n0, n1); `a` dense row-major [m, k].
// ColumnsOfRows: b(x, j) = b[j * ldb + x] (the rhs stored [n, k], as
// PyTorch keeps a linear layer's weight). RowsOfColumns: b(x, j) =
// b[x * ldb + j] (stored [k, n], as JAX keeps a dense kernel).
// PackedPanels: b(x, j) in the packed panels of a [k, n] matrix: panel q
// holds columns [q * w, min(n, (q + 1) * w)) as its k rows one after another
// (the last panel as narrow as what is left); w = `width` columns, a multiple
// of the vector width, PanelVectors(lanes, m) vectors for the fastest pass.
void ColumnsOfRowsAvx2(const float* a, int64_t m, int64_t k, const float* b, int64_t ldb,
                       int64_t n0, int64_t n1, float* c, int64_t ldc);
void RowsOfColumnsAvx2(const float* a, int64_t m, int64_t k, const float* b, int64_t ldb,
                       int64_t n0, int64_t n1, float* c, int64_t ldc);
void PackedPanelsAvx2(const float* a, int64_t m, int64_t k, const float* packed, int64_t n,
                      int64_t width, int64_t n0, int64_t n1, float* c, int64_t ldc);
void ColumnsOfRowsAvx512(const float* a, int64_t m, int64_t k, const float* b, int64_t ldb,
                         int64_t n0, int64_t n1, float* c, int64_t ldc);
void RowsOfColumnsAvx512(const float* a, int64_t m, int64_t k, const float* b, int64_t ldb,
                         int64_t n0, int64_t n1, float* c, int64_t ldc);
void PackedPanelsAvx512(const float* a, int64_t m, int64_t k, const float* packed, int64_t n,
                        int64_t width, int64_t n0, int64_t n1, float* c, int64_t ldc);

}  // namespace plugrt::cpu::skinny_gemm

#endif  // PLUGRT_CPU_KERNELS_SKINNY_GEMM_SIMD_H_
