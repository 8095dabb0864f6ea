#include "cpu/kernels/skinny_gemm.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "cpu/kernels/parallel.h"

namespace plugrt::cpu {
namespace {

// Multiply-adds below which a thread of its own is not worth waking.
constexpr int64_t kMinMultiplyAddsPerThread = int64_t{1} << 17;
// Columns per band: a band is the unit one thread takes.
constexpr int64_t kMinBandColumns = 16;

// The 16-lane variant where the CPU has AVX-512F (and the build has it).
bool SkinnyGemmHasAvx512() {
#if defined(PLUGRT_HAVE_AVX2_KERNELS)
  static const bool available = __builtin_cpu_supports("avx512f");
  return available;
#else
  return false;
#endif
}

}  // namespace

bool SkinnyGemmAvailable() {
#if defined(PLUGRT_HAVE_AVX2_KERNELS)
  static const bool available = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return available;
#else
  return false;
#endif
}

const char* SkinnyGemmInstructionSet() { return SkinnyGemmHasAvx512() ? "AVX-512" : "AVX2"; }

bool SkinnyGemmFits(int64_t m, const F32Matrices& rhs) {
  return m >= 1 && m <= skinny_gemm::kMaxRows && (rhs.row_stride == 1 || rhs.col_stride == 1);
}

void SkinnyGemm(const F32Matrices& lhs, const F32Matrices& rhs, int64_t batch, int64_t m,
                int64_t n, int64_t k, float* out, int threads) {
  if (batch <= 0 || m <= 0 || n <= 0) return;
  if (k <= 0) {
    std::memset(out, 0, sizeof(float) * batch * m * n);
    return;
  }
  // The lhs as dense [m, k] rows per matrix (a copy only when it is not).
  const bool dense = lhs.col_stride == 1 && lhs.row_stride == k;
  std::vector<float> packed;
  if (!dense) {
    packed.resize(static_cast<size_t>(batch * m * k));
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t i = 0; i < m; ++i) {
        const float* row = lhs.data + b * lhs.batch_stride + i * lhs.row_stride;
        float* to = packed.data() + (b * m + i) * k;
        for (int64_t x = 0; x < k; ++x) to[x] = row[x * lhs.col_stride];
      }
    }
  }
  const int team = ThreadsFor(batch * m * n * k, kMinMultiplyAddsPerThread, threads);
  // Bands of columns: enough per matrix that every thread has work.
  const int64_t bands = std::clamp<int64_t>((team + batch - 1) / batch, 1,
                                            std::max<int64_t>(1, n / kMinBandColumns));
  const bool k_contiguous = rhs.row_stride == 1;
  const bool wide = SkinnyGemmHasAvx512();
  ParallelFor(batch * bands, team, [&](int64_t begin, int64_t end) {
    for (int64_t item = begin; item < end; ++item) {
      const int64_t b = item / bands, band = item % bands;
      // Band edges on multiples of 8 columns (whole vectors) but the last.
      const int64_t n0 = std::min(n, (n * band / bands) / 8 * 8);
      const int64_t n1 = band + 1 == bands ? n : std::min(n, (n * (band + 1) / bands) / 8 * 8);
      if (n0 >= n1) continue;
      const float* a = dense ? lhs.data + b * lhs.batch_stride : packed.data() + b * m * k;
      const float* w = rhs.data + b * rhs.batch_stride;
      float* c = out + b * m * n;
#if defined(PLUGRT_HAVE_AVX2_KERNELS)
      if (wide) {
        if (k_contiguous) {
          skinny_gemm::ColumnsOfRowsAvx512(a, m, k, w, rhs.col_stride, n0, n1, c, n);
        } else {
          skinny_gemm::RowsOfColumnsAvx512(a, m, k, w, rhs.row_stride, n0, n1, c, n);
        }
      } else if (k_contiguous) {
        skinny_gemm::ColumnsOfRowsAvx2(a, m, k, w, rhs.col_stride, n0, n1, c, n);
      } else {
        skinny_gemm::RowsOfColumnsAvx2(a, m, k, w, rhs.row_stride, n0, n1, c, n);
      }
#else
      (void)a, (void)w, (void)c, (void)n0, (void)n1, (void)wide, (void)k_contiguous;
#endif
    }
  });
}

}  // namespace plugrt::cpu
