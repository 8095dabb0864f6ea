// plugrt CPU kernels: exact s8/u8 x s8 -> s32 matrix products of plugrt's
// own, for x86 CPUs with AVX2 but without VNNI, where oneDNN's int8 kernels
// add pairs of products in saturating 16 bits and so are not exact. The
// operands are widened to int16 and multiplied with vpmaddwd (see
// int8_gemm_avx2.h); the work is split into output tiles, one run of tiles
// per thread.
#ifndef PLUGRT_CPU_KERNELS_INT8_GEMM_H_
#define PLUGRT_CPU_KERNELS_INT8_GEMM_H_

#include <cstdint>

namespace plugrt::cpu {

// Whether Int8Gemm can run here: built for x86-64 and the CPU has AVX2.
bool Int8GemmAvailable();

// A stack of matrices of 8-bit integers: matrix b, element (r, c) at
// data[b * batch_stride + r * row_stride + c * col_stride].
struct Int8Matrices {
  const void* data = nullptr;
  bool is_unsigned = false;
  int64_t batch_stride = 0, row_stride = 0, col_stride = 0;
};

// out[b, i, j] (dense, row-major) = sum over x < k of lhs[b, i, x] *
// rhs[b, x, j], exact: every sum fits int32 while k <= 65793 (beyond,
// sums wrap as int32 addition does); the rhs is signed. On up to `threads`
// threads. Only when Int8GemmAvailable().
void Int8Gemm(const Int8Matrices& lhs, const Int8Matrices& rhs, int64_t batch, int64_t m,
              int64_t n, int64_t k, int32_t* out, int threads);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_INT8_GEMM_H_
