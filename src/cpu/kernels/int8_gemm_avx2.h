// plugrt CPU kernels: the AVX2 part of the exact int8 GEMM (int8_gemm.h),
// one output tile at a time. int8_gemm_avx2.cc alone is compiled for AVX2;
// call TileAvx2 only on CPUs that have it (Int8GemmAvailable).
//
// The operands are widened to int16 and packed so that vpmaddwd multiplies
// pairs of them along k and adds each pair into int32: for 8-bit inputs
// every product and pair sum is exact (|2 * 255 * 128| < 2^31), unlike
// vpmaddubsw's saturating 16-bit pair sums.
#ifndef PLUGRT_CPU_KERNELS_INT8_GEMM_AVX2_H_
#define PLUGRT_CPU_KERNELS_INT8_GEMM_AVX2_H_

#include <cstdint>

namespace plugrt::cpu::int8_gemm {

// The register block (rows x columns of int32 accumulators) and the cache
// blocks: kKc values of k (even) per pass over the output, kMc lhs rows and
// kNc rhs columns packed at a time. Passes over the output cost more than
// packed blocks larger than the caches (the hardware prefetches them), so
// k is split only past kKc.
inline constexpr int64_t kMr = 6;
inline constexpr int64_t kNr = 16;
inline constexpr int64_t kKc = 2048;
inline constexpr int64_t kMc = 144;
inline constexpr int64_t kNc = 1024;

// int16 elements of scratch TileAvx2 needs (packed lhs block, then packed
// rhs block) for a product over `k` with tiles up to `cols` columns wide.
constexpr int64_t ScratchElements(int64_t k, int64_t cols) {
  const int64_t kc = k < kKc ? (k + 1) / 2 * 2 : kKc;
  const int64_t nc = cols < kNc ? cols : kNc;
  return (kMc + (nc + kNr - 1) / kNr * kNr) * kc;
}

// One matrix of an operand: element (r, c) at data[r * row_stride +
// c * col_stride], signed or unsigned 8-bit.
struct Operand {
  const void* data = nullptr;
  bool is_unsigned = false;
  int64_t row_stride = 0, col_stride = 0;
};

// c[i * ldc + j] = sum over x < k of lhs(i, x) * rhs(x, j), for i in
// [m0, m1) and j in [n0, n1); the rhs is signed. `scratch`: ScratchElements
// of k and the tile's width, 32-byte aligned.
void TileAvx2(const Operand& lhs, const Operand& rhs, int64_t k, int64_t m0, int64_t m1,
              int64_t n0, int64_t n1, int32_t* c, int64_t ldc, int16_t* scratch);

}  // namespace plugrt::cpu::int8_gemm

#endif  // PLUGRT_CPU_KERNELS_INT8_GEMM_AVX2_H_
