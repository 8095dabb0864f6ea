// Compiled with -mavx2 (CMakeLists.txt). It includes no C++ library headers
// and defines no inline functions with external linkage: the linker could
// otherwise keep this file's AVX2 copy of one for callers on any CPU.
#include "cpu/kernels/int8_gemm_avx2.h"

#if defined(__AVX2__)
#include <immintrin.h>

namespace plugrt::cpu::int8_gemm {
namespace {

// Packed layouts, per k-pair p (k values 2p and 2p+1 of the block, the odd
// one zero past the end), each pair one int32 of two int16 (low: k = 2p):
// - lhs: per kMr-row panel, p-major, kMr pairs (one per row);
// - rhs: per kNr-column panel, p-major, kNr pairs (one per column).
// Rows and columns past the matrix are zero.

int64_t Min(int64_t a, int64_t b) { return a < b ? a : b; }

template <bool kUnsigned>
int32_t Widen(const void* base, int64_t offset) {
  if constexpr (kUnsigned) {
    return static_cast<const uint8_t*>(base)[offset];
  } else {
    return static_cast<const int8_t*>(base)[offset];
  }
}

// Two int16 as one int32, the first in the low half.
int32_t Pair(int32_t lo, int32_t hi) {
  return static_cast<int32_t>((static_cast<uint32_t>(lo) & 0xffffu) |
                              (static_cast<uint32_t>(hi) << 16));
}

// Packs `count` rows (or columns) starting at `first` of a panel `width` wide,
// over k in [k0, k0 + kc): element (line, x) at base[line * line_stride +
// x * k_stride].
template <bool kUnsigned>
void PackPanel(const void* base, int64_t line_stride, int64_t k_stride, int64_t first,
               int64_t count, int64_t width, int64_t k0, int64_t kc, int32_t* out) {
  const int64_t pairs = (kc + 1) / 2;
  const int64_t full = kc / 2;
  for (int64_t line = 0; line < width; ++line) {
    int32_t* o = out + line;
    if (line >= count) {
      for (int64_t p = 0; p < pairs; ++p) o[p * width] = 0;
      continue;
    }
    const int64_t at = (first + line) * line_stride + k0 * k_stride;
    if (k_stride == 1) {
      for (int64_t p = 0; p < full; ++p) {
        o[p * width] = Pair(Widen<kUnsigned>(base, at + 2 * p), Widen<kUnsigned>(base, at + 2 * p + 1));
      }
    } else {
      for (int64_t p = 0; p < full; ++p) {
        o[p * width] = Pair(Widen<kUnsigned>(base, at + 2 * p * k_stride),
                            Widen<kUnsigned>(base, at + (2 * p + 1) * k_stride));
      }
    }
    if (pairs > full) o[full * width] = Pair(Widen<kUnsigned>(base, at + 2 * full * k_stride), 0);
  }
}

// A full rhs panel whose columns are contiguous (row-major rhs): two rows
// of 16 bytes widened and interleaved into 16 pairs per k-pair.
void PackRhsPanelRows(const int8_t* base, int64_t row_stride, int64_t k0, int64_t kc,
                      int32_t* out) {
  const int64_t full = kc / 2;
  const int8_t* row = base + k0 * row_stride;
  for (int64_t p = 0; p < full; ++p, row += 2 * row_stride) {
    const __m256i x = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row)));
    const __m256i y = _mm256_cvtepi8_epi16(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + row_stride)));
    // Within each 128-bit lane: lo holds columns 0-3 (8-11), hi 4-7 (12-15).
    const __m256i lo = _mm256_unpacklo_epi16(x, y);
    const __m256i hi = _mm256_unpackhi_epi16(x, y);
    _mm256_store_si256(reinterpret_cast<__m256i*>(out + p * kNr),
                       _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_store_si256(reinterpret_cast<__m256i*>(out + p * kNr + 8),
                       _mm256_permute2x128_si256(lo, hi, 0x31));
  }
  if (kc > 2 * full) {
    const __m256i x = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row)));
    const __m256i zero = _mm256_setzero_si256();
    const __m256i lo = _mm256_unpacklo_epi16(x, zero);
    const __m256i hi = _mm256_unpackhi_epi16(x, zero);
    _mm256_store_si256(reinterpret_cast<__m256i*>(out + full * kNr),
                       _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_store_si256(reinterpret_cast<__m256i*>(out + full * kNr + 8),
                       _mm256_permute2x128_si256(lo, hi, 0x31));
  }
}

// Lhs rows [i0, i0 + rows) over k in [k0, k0 + kc), as kMr-row panels.
void PackLhs(const Operand& a, int64_t i0, int64_t rows, int64_t k0, int64_t kc, int32_t* out) {
  const int64_t panel = (kc + 1) / 2 * kMr;
  for (int64_t r = 0; r < rows; r += kMr, out += panel) {
    if (a.is_unsigned) {
      PackPanel<true>(a.data, a.row_stride, a.col_stride, i0 + r, Min(kMr, rows - r), kMr, k0, kc,
                      out);
    } else {
      PackPanel<false>(a.data, a.row_stride, a.col_stride, i0 + r, Min(kMr, rows - r), kMr, k0,
                       kc, out);
    }
  }
}

// Rhs columns [j0, j0 + cols) over k in [k0, k0 + kc), as kNr-column panels.
void PackRhs(const Operand& b, int64_t j0, int64_t cols, int64_t k0, int64_t kc, int32_t* out) {
  const int64_t panel = (kc + 1) / 2 * kNr;
  for (int64_t j = 0; j < cols; j += kNr, out += panel) {
    if (b.col_stride == 1 && cols - j >= kNr) {
      PackRhsPanelRows(static_cast<const int8_t*>(b.data) + j0 + j, b.row_stride, k0, kc, out);
    } else {
      // Columns are the panel's lines; k runs down a column.
      PackPanel<false>(b.data, b.col_stride, b.row_stride, j0 + j, Min(kNr, cols - j), kNr, k0, kc,
                       out);
    }
  }
}

// Sixteen int32 to c[0:16], added to what is there when `accumulate`.
inline void StoreRow(__m256i lo, __m256i hi, bool accumulate, int32_t* c) {
  auto* at = reinterpret_cast<__m256i*>(c);
  if (accumulate) {
    lo = _mm256_add_epi32(lo, _mm256_loadu_si256(at));
    hi = _mm256_add_epi32(hi, _mm256_loadu_si256(at + 1));
  }
  _mm256_storeu_si256(at, lo);
  _mm256_storeu_si256(at + 1, hi);
}

// c[0:rows, 0:cols] = (accumulate ? c + : ) the product of one lhs panel and
// one rhs panel over `pairs` k-pairs.
void Kernel(int64_t pairs, const int32_t* a, const int32_t* b, int32_t* c, int64_t ldc,
            bool accumulate, int64_t rows, int64_t cols) {
  // The block's sums, row-major. The loop is written in assembly: compilers
  // spill some of the twelve accumulators, which with the two rhs vectors,
  // the broadcast lhs pair and one product take all sixteen registers.
  alignas(32) int32_t tile[kMr * kNr];
  int64_t count = pairs;
  // Row r's accumulators: ymm(2r) for columns 0-7, ymm(2r+1) for 8-15.
#define PLUGRT_INT8_ROW(offset, lo, hi)                 \
  "vpbroadcastd " #offset "(%[a]), %%ymm14\n\t"       \
  "vpmaddwd %%ymm12, %%ymm14, %%ymm15\n\t"            \
  "vpaddd %%ymm15, %%ymm" #lo ", %%ymm" #lo "\n\t"     \
  "vpmaddwd %%ymm13, %%ymm14, %%ymm14\n\t"            \
  "vpaddd %%ymm14, %%ymm" #hi ", %%ymm" #hi "\n\t"
#define PLUGRT_INT8_STORE(row, lo, hi)                  \
  "vmovdqa %%ymm" #lo ", " #row "*64(%[tile])\n\t"     \
  "vmovdqa %%ymm" #hi ", " #row "*64+32(%[tile])\n\t"
  asm volatile(
      "vpxor %%xmm0, %%xmm0, %%xmm0\n\t"
      "vmovdqa %%ymm0, %%ymm1\n\t"
      "vmovdqa %%ymm0, %%ymm2\n\t"
      "vmovdqa %%ymm0, %%ymm3\n\t"
      "vmovdqa %%ymm0, %%ymm4\n\t"
      "vmovdqa %%ymm0, %%ymm5\n\t"
      "vmovdqa %%ymm0, %%ymm6\n\t"
      "vmovdqa %%ymm0, %%ymm7\n\t"
      "vmovdqa %%ymm0, %%ymm8\n\t"
      "vmovdqa %%ymm0, %%ymm9\n\t"
      "vmovdqa %%ymm0, %%ymm10\n\t"
      "vmovdqa %%ymm0, %%ymm11\n\t"
      "test %[count], %[count]\n\t"
      "jz 2f\n\t"
      ".p2align 5\n"
      "1:\n\t"
      "vmovdqa (%[b]), %%ymm12\n\t"
      "vmovdqa 32(%[b]), %%ymm13\n\t"
      PLUGRT_INT8_ROW(0, 0, 1)
      PLUGRT_INT8_ROW(4, 2, 3)
      PLUGRT_INT8_ROW(8, 4, 5)
      PLUGRT_INT8_ROW(12, 6, 7)
      PLUGRT_INT8_ROW(16, 8, 9)
      PLUGRT_INT8_ROW(20, 10, 11)
      "add $64, %[b]\n\t"
      "add $24, %[a]\n\t"
      "dec %[count]\n\t"
      "jnz 1b\n"
      "2:\n\t"
      PLUGRT_INT8_STORE(0, 0, 1)
      PLUGRT_INT8_STORE(1, 2, 3)
      PLUGRT_INT8_STORE(2, 4, 5)
      PLUGRT_INT8_STORE(3, 6, 7)
      PLUGRT_INT8_STORE(4, 8, 9)
      PLUGRT_INT8_STORE(5, 10, 11)
      // The compiler does not see these upper halves in use; clear them as
      // it would (no SSE transition penalty after the block).
      "vzeroupper\n\t"
      : [a] "+r"(a), [b] "+r"(b), [count] "+r"(count)
      : [tile] "r"(tile)
      : "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
        "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
#undef PLUGRT_INT8_ROW
#undef PLUGRT_INT8_STORE
  static_assert(kMr == 6 && kNr == 16, "the assembly is written for 6 x 16 blocks");
  if (rows == kMr && cols == kNr) {
    for (int64_t i = 0; i < kMr; ++i, c += ldc) {
      StoreRow(_mm256_load_si256(reinterpret_cast<const __m256i*>(tile + i * kNr)),
               _mm256_load_si256(reinterpret_cast<const __m256i*>(tile + i * kNr + 8)),
               accumulate, c);
    }
    return;
  }
  for (int64_t i = 0; i < rows; ++i, c += ldc) {
    for (int64_t j = 0; j < cols; ++j) c[j] = accumulate ? c[j] + tile[i * kNr + j] : tile[i * kNr + j];
  }
}

}  // namespace

void TileAvx2(const Operand& lhs, const Operand& rhs, int64_t k, int64_t m0, int64_t m1,
              int64_t n0, int64_t n1, int32_t* c, int64_t ldc, int16_t* scratch) {
  const int64_t max_pairs = k < kKc ? (k + 1) / 2 : kKc / 2;
  int32_t* packed_lhs = reinterpret_cast<int32_t*>(scratch);
  int32_t* packed_rhs = packed_lhs + kMc * max_pairs;
  for (int64_t jc = n0; jc < n1; jc += kNc) {
    const int64_t nc = Min(kNc, n1 - jc);
    for (int64_t pc = 0; pc < k; pc += kKc) {
      const int64_t kc = Min(kKc, k - pc);
      const int64_t pairs = (kc + 1) / 2;
      PackRhs(rhs, jc, nc, pc, kc, packed_rhs);
      for (int64_t ic = m0; ic < m1; ic += kMc) {
        const int64_t mc = Min(kMc, m1 - ic);
        PackLhs(lhs, ic, mc, pc, kc, packed_lhs);
        for (int64_t jr = 0; jr < nc; jr += kNr) {
          const int32_t* b = packed_rhs + jr / kNr * pairs * kNr;
          for (int64_t ir = 0; ir < mc; ir += kMr) {
            Kernel(pairs, packed_lhs + ir / kMr * pairs * kMr, b, c + (ic + ir) * ldc + jc + jr,
                   ldc, pc > 0, Min(kMr, mc - ir), Min(kNr, nc - jr));
          }
        }
      }
    }
  }
}

}  // namespace plugrt::cpu::int8_gemm

#endif  // defined(__AVX2__)
