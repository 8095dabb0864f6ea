#include "cpu/kernels/skinny_gemm.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "cpu/kernels/parallel.h"
#include "cpu/kernels/strided_copy.h"

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

int64_t SkinnyPanelColumns(int64_t m) {
  const int lanes = SkinnyGemmHasAvx512() ? 16 : 8;
  return lanes * skinny_gemm::PanelVectors(lanes, m);
}

bool SkinnyGemmPacks(const F32Matrices& rhs, int64_t m, int64_t n) {
  const bool n_contiguous = rhs.col_stride == 1 && rhs.row_stride != 1;
  const bool k_contiguous = rhs.row_stride == 1 && rhs.col_stride != 1;
  return (n_contiguous || k_contiguous) && n > SkinnyPanelColumns(m);
}

void SkinnyPack(const F32Matrices& rhs, int64_t batch, int64_t m, int64_t k, int64_t n,
                float* to, int threads) {
  const int64_t width = SkinnyPanelColumns(m);
  const int64_t panels = (n + width - 1) / width;
  const int team = ThreadsFor(batch * k * n, kMinMultiplyAddsPerThread, threads);
  ParallelFor(batch * panels, team, [&](int64_t begin, int64_t end) {
    for (int64_t item = begin; item < end; ++item) {
      const int64_t b = item / panels, first = item % panels * width;
      const int64_t columns = std::min(width, n - first);
      const float* from = rhs.data + b * rhs.batch_stride + first * rhs.col_stride;
      float* panel = to + b * k * n + first * k;
      if (rhs.col_stride == 1) {
        for (int64_t x = 0; x < k; ++x) {
          std::memcpy(panel + x * columns, from + x * rhs.row_stride, sizeof(float) * columns);
        }
      } else {
        // [n, k] (a PyTorch linear layer's weight): the panel's columns are
        // rows of the matrix, transposed in tiles.
        StridedCopy(reinterpret_cast<const std::byte*>(from), {rhs.row_stride, rhs.col_stride},
                    reinterpret_cast<std::byte*>(panel), {columns, 1}, {k, columns},
                    sizeof(float));
      }
    }
  });
}

namespace {

// The lhs as dense [m, k] rows per matrix: `lhs.data` itself, or a copy in
// `packed` when it is not.
const float* DenseLhs(const F32Matrices& lhs, int64_t batch, int64_t m, int64_t k,
                      std::vector<float>& packed) {
  if (lhs.col_stride == 1 && lhs.row_stride == k) return lhs.data;
  packed.resize(static_cast<size_t>(batch * m * k));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < m; ++i) {
      const float* row = lhs.data + b * lhs.batch_stride + i * lhs.row_stride;
      float* to = packed.data() + (b * m + i) * k;
      for (int64_t x = 0; x < k; ++x) to[x] = row[x * lhs.col_stride];
    }
  }
  return packed.data();
}

// Splits the product's columns into bands over the threads and calls
// `band(b, a, n0, n1, c)` for each: matrix b's dense lhs rows `a`, its output
// `c`. Band edges fall on multiples of `align` columns where the bands are
// that wide, of whole vectors otherwise, the last band's end on n.
template <typename Band>
void RunBands(const F32Matrices& lhs, int64_t batch, int64_t m, int64_t n, int64_t k,
              int64_t align, float* out, int threads, Band band) {
  if (batch <= 0 || m <= 0 || n <= 0) return;
  if (k <= 0) {
    std::memset(out, 0, sizeof(float) * batch * m * n);
    return;
  }
  std::vector<float> packed;
  const float* dense = DenseLhs(lhs, batch, m, k, packed);
  const int team = ThreadsFor(batch * m * n * k, kMinMultiplyAddsPerThread, threads);
  // Bands of columns: enough per matrix that every thread has work.
  const int64_t bands = std::clamp<int64_t>((team + batch - 1) / batch, 1,
                                            std::max<int64_t>(1, n / kMinBandColumns));
  const int64_t unit = n / bands >= align ? align : 8;
  ParallelFor(batch * bands, team, [&](int64_t begin, int64_t end) {
    for (int64_t item = begin; item < end; ++item) {
      const int64_t b = item / bands, i = item % bands;
      const int64_t n0 = std::min(n, (n * i / bands) / unit * unit);
      const int64_t n1 = i + 1 == bands ? n : std::min(n, (n * (i + 1) / bands) / unit * unit);
      if (n0 < n1) band(b, dense + b * m * k, n0, n1, out + b * m * n);
    }
  });
}

}  // namespace

void SkinnyGemm(const F32Matrices& lhs, const F32Matrices& rhs, int64_t batch, int64_t m,
                int64_t n, int64_t k, float* out, int threads) {
  const bool k_contiguous = rhs.row_stride == 1;
  const bool wide = SkinnyGemmHasAvx512();
  RunBands(lhs, batch, m, n, k, 8, out, threads,
           [&](int64_t b, const float* a, int64_t n0, int64_t n1, float* c) {
             const float* w = rhs.data + b * rhs.batch_stride;
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
           });
}

void SkinnyGemmPacked(const F32Matrices& lhs, const float* packed, int64_t batch, int64_t m,
                      int64_t n, int64_t k, float* out, int threads) {
  const bool wide = SkinnyGemmHasAvx512();
  const int64_t width = SkinnyPanelColumns(m);
  RunBands(lhs, batch, m, n, k, width, out, threads,
           [&](int64_t b, const float* a, int64_t n0, int64_t n1, float* c) {
             const float* w = packed + b * k * n;
#if defined(PLUGRT_HAVE_AVX2_KERNELS)
             if (wide) {
               skinny_gemm::PackedPanelsAvx512(a, m, k, w, n, width, n0, n1, c, n);
             } else {
               skinny_gemm::PackedPanelsAvx2(a, m, k, w, n, width, n0, n1, c, n);
             }
#else
             (void)a, (void)w, (void)c, (void)n0, (void)n1, (void)wide, (void)width;
#endif
           });
}

}  // namespace plugrt::cpu
