#include "cpu/kernels/int8_gemm.h"

#include <algorithm>
#include <cstring>

#include "cpu/kernels/int8_gemm_avx2.h"
#include "cpu/kernels/parallel.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {
namespace {

// How the threads of one batch matrix split its output: `row_parts` bands of
// rows times `col_parts` bands of columns.
struct Grid {
  int64_t row_parts = 1, col_parts = 1;
};

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The split of an m x n output over `threads` tiles that gives the largest
// tile the least work (in whole register blocks), then packs the least
// (each tile packs its rows and its columns of the operands).
Grid ChooseGrid(int64_t m, int64_t n, int64_t threads) {
  const int64_t row_blocks = CeilDiv(m, int8_gemm::kMr);
  const int64_t col_blocks = CeilDiv(n, int8_gemm::kNr);
  Grid best;
  int64_t best_work = row_blocks * col_blocks, best_packed = m + n;
  for (int64_t rows = 1; rows <= threads && rows <= row_blocks; ++rows) {
    const int64_t cols = std::min(threads / rows, col_blocks);
    const int64_t work = CeilDiv(row_blocks, rows) * CeilDiv(col_blocks, cols);
    const int64_t packed = CeilDiv(m, rows) + CeilDiv(n, cols);
    if (work < best_work || (work == best_work && packed < best_packed)) {
      best = {rows, cols};
      best_work = work;
      best_packed = packed;
    }
  }
  return best;
}

// Band `part` of `parts` over `blocks` register blocks of `block` elements,
// clipped to `size`.
void Band(int64_t part, int64_t parts, int64_t blocks, int64_t block, int64_t size,
          int64_t* begin, int64_t* end) {
  *begin = std::min(size, blocks * part / parts * block);
  *end = std::min(size, blocks * (part + 1) / parts * block);
}

}  // namespace

bool Int8GemmAvailable() {
#if defined(PLUGRT_HAVE_AVX2_KERNELS)
  static const bool available = __builtin_cpu_supports("avx2");
  return available;
#else
  return false;
#endif
}

void Int8Gemm(const Int8Matrices& lhs, const Int8Matrices& rhs, int64_t batch, int64_t m,
              int64_t n, int64_t k, int32_t* out, int threads) {
  if (batch <= 0 || m <= 0 || n <= 0) return;
  if (k <= 0) {
    std::memset(out, 0, sizeof(int32_t) * batch * m * n);
    return;
  }
  // Batches spread over the threads first; the rest split each matrix.
  const int64_t per_batch = std::max<int64_t>(1, threads / batch);
  const Grid grid = ChooseGrid(m, n, per_batch);
  const int64_t tiles = grid.row_parts * grid.col_parts;
  const int64_t row_blocks = CeilDiv(m, int8_gemm::kMr);
  const int64_t col_blocks = CeilDiv(n, int8_gemm::kNr);
  const int64_t widest = CeilDiv(col_blocks, grid.col_parts) * int8_gemm::kNr;
  ParallelFor(batch * tiles, threads, [&](int64_t begin, int64_t end) {
    Tensor scratch = Tensor::Uninitialized(shlo::ElementType::kSI16,
                                           {int8_gemm::ScratchElements(k, widest)});
    int16_t* buffer = scratch.mutable_as<int16_t>();
    for (int64_t item = begin; item < end; ++item) {
      const int64_t b = item / tiles, tile = item % tiles;
      int64_t m0, m1, n0, n1;
      Band(tile / grid.col_parts, grid.row_parts, row_blocks, int8_gemm::kMr, m, &m0, &m1);
      Band(tile % grid.col_parts, grid.col_parts, col_blocks, int8_gemm::kNr, n, &n0, &n1);
      if (m0 == m1 || n0 == n1) continue;
      const int8_gemm::Operand a{static_cast<const int8_t*>(lhs.data) + b * lhs.batch_stride,
                                 lhs.is_unsigned, lhs.row_stride, lhs.col_stride};
      const int8_gemm::Operand w{static_cast<const int8_t*>(rhs.data) + b * rhs.batch_stride,
                                 false, rhs.row_stride, rhs.col_stride};
#if defined(PLUGRT_HAVE_AVX2_KERNELS)
      int8_gemm::TileAvx2(a, w, k, m0, m1, n0, n1, out + b * m * n, n, buffer);
#endif
    }
  });
}

}  // namespace plugrt::cpu
