// plugrt CPU kernels: the AVX2 + FMA part of the skinny f32 product
// (skinny_gemm.h), one band of output columns at a time. skinny_gemm_avx2.cc
// alone is compiled for AVX2 and FMA; call these only on CPUs that have both
// (SkinnyGemmAvailable).
#ifndef PLUGRT_CPU_KERNELS_SKINNY_GEMM_AVX2_H_
#define PLUGRT_CPU_KERNELS_SKINNY_GEMM_AVX2_H_

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

}  // namespace plugrt::cpu::skinny_gemm

#endif  // PLUGRT_CPU_KERNELS_SKINNY_GEMM_AVX2_H_
