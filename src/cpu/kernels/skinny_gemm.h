// plugrt CPU kernels: f32 products with few lhs rows (m <= 8 per matrix),
// the shape of serving at batch 1: a decode step's tokens, a short sequence,
// an LSTM step, attention of one query over a cache. Such a product reads
// each rhs element once and does little with it, so it runs at the speed
// memory delivers the rhs; plugrt's kernel streams it once, split into bands
// of columns over the threads, with every lhs row's sums in registers,
// whichever way the rhs is stored ([n, k] as PyTorch keeps a linear layer's
// weight, or [k, n] as JAX keeps a dense kernel). oneDNN's matmul reaches
// about half that speed on these shapes (docs/performance.md).
#ifndef PLUGRT_CPU_KERNELS_SKINNY_GEMM_H_
#define PLUGRT_CPU_KERNELS_SKINNY_GEMM_H_

#include <cstdint>

#include "cpu/kernels/skinny_gemm_simd.h"

namespace plugrt::cpu {

// Whether SkinnyGemm can run here: built for x86-64 and the CPU has AVX2 and
// FMA (AVX-512F, where it has it, runs the 16-lane variant).
bool SkinnyGemmAvailable();

// The instruction set SkinnyGemm runs with here: "AVX-512" or "AVX2".
const char* SkinnyGemmInstructionSet();

// A stack of f32 matrices: matrix b, element (r, c) at data[b * batch_stride
// + r * row_stride + c * col_stride].
struct F32Matrices {
  const float* data = nullptr;
  int64_t batch_stride = 0, row_stride = 0, col_stride = 0;
};

// Whether SkinnyGemm takes a product of these sizes and rhs layout: m at
// most skinny_gemm::kMaxRows, the rhs contiguous along k or along n.
bool SkinnyGemmFits(int64_t m, const F32Matrices& rhs);

// out[b, i, j] (dense, row-major) = sum over x < k of lhs[b, i, x] *
// rhs[b, x, j], summed in f32 in a fixed order (vectors of 8 along k, or k
// in order). On up to `threads` threads. Only when SkinnyGemmAvailable()
// and SkinnyGemmFits.
void SkinnyGemm(const F32Matrices& lhs, const F32Matrices& rhs, int64_t batch, int64_t m,
                int64_t n, int64_t k, float* out, int threads);

// The rhs packed into panels (skinny_gemm_simd.h's PackedPanels), each read
// front to back by one pass of m lhs rows: the rows of a [k, n] matrix as it
// lies are n floats apart, and the product read them at 0.6-0.8 of the
// speed of one stream (docs/performance.md). Packing reads and writes the
// whole rhs, so it pays only for weights packed once and kept (KeptCopy).
// The panels' width, in columns, for products of m lhs rows.
int64_t SkinnyPanelColumns(int64_t m);
// Whether packing helps this rhs ([batch, k, n] as F32Matrices) for m lhs
// rows: contiguous along n with its rows apart, or contiguous along k (a
// [n, k] weight, which the pack transposes; its dot products otherwise end
// in horizontal sums and re-read the lhs for every few columns), and wider
// than one panel.
bool SkinnyGemmPacks(const F32Matrices& rhs, int64_t m, int64_t n);
// Writes the panels of each matrix for products of m lhs rows, batch * k * n
// floats in all, to `to`.
void SkinnyPack(const F32Matrices& rhs, int64_t batch, int64_t m, int64_t k, int64_t n,
                float* to, int threads);
// SkinnyGemm with the rhs as SkinnyPack wrote it for these m rows.
void SkinnyGemmPacked(const F32Matrices& lhs, const float* packed, int64_t batch, int64_t m,
                      int64_t n, int64_t k, float* out, int threads);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_SKINNY_GEMM_H_
