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

// c[i * ldc + j] = sum over x < k of a[i * k + x] * b(x, j), for i < m
// (m <= kMaxRows) and j in [n0, n1); `a` dense row-major [m, k].
// ColumnsOfRows: b(x, j) = b[j * ldb + x] (the rhs stored [n, k], as
// PyTorch keeps a linear layer's weight). RowsOfColumns: b(x, j) =
// b[x * ldb + j] (stored [k, n], as JAX keeps a dense kernel).
void ColumnsOfRowsAvx2(const float* a, int64_t m, int64_t k, const float* b, int64_t ldb,
                       int64_t n0, int64_t n1, float* c, int64_t ldc);
void RowsOfColumnsAvx2(const float* a, int64_t m, int64_t k, const float* b, int64_t ldb,
                       int64_t n0, int64_t n1, float* c, int64_t ldc);
void ColumnsOfRowsAvx512(const float* a, int64_t m, int64_t k, const float* b, int64_t ldb,
                         int64_t n0, int64_t n1, float* c, int64_t ldc);
void RowsOfColumnsAvx512(const float* a, int64_t m, int64_t k, const float* b, int64_t ldb,
                         int64_t n0, int64_t n1, float* c, int64_t ldc);

}  // namespace plugrt::cpu::skinny_gemm

#endif  // PLUGRT_CPU_KERNELS_SKINNY_GEMM_SIMD_H_
