// Compiled with -mavx512f -mfma (CMakeLists.txt). It includes no C++ library
// headers and defines no inline functions with external linkage: the linker
// could otherwise keep this file's AVX-512 copy of one for callers on any CPU.
#include "cpu/kernels/skinny_gemm_simd.h"

#if defined(__AVX512F__) && defined(__FMA__)
// g++ 12's AVX-512 intrinsics start from an undefined vector that its own
// -Wuninitialized then reports (GCC bug 105593); the warning is about the
// header's code, so it is switched off for the header alone.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace plugrt::cpu::skinny_gemm::isa {
namespace {

using Vec = __m512;
using Mask = __mmask16;
constexpr int kLanes = 16;

Vec Zero() { return _mm512_setzero_ps(); }
Vec Load(const float* p) { return _mm512_loadu_ps(p); }
Vec LoadMasked(const float* p, Mask m) { return _mm512_maskz_loadu_ps(m, p); }
Vec Fma(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
Vec Broadcast(const float* p) { return _mm512_set1_ps(*p); }
void Store(float* p, Vec v) { _mm512_storeu_ps(p, v); }
void StoreMasked(float* p, Mask m, Vec v) { _mm512_mask_storeu_ps(p, m, v); }
float Sum(Vec v) { return _mm512_reduce_add_ps(v); }
// The lane sums of four 8-lane vectors, in out[0..3].
void Sum4Of8(__m256 a, __m256 b, __m256 c, __m256 d, float* out) {
  const __m256 sums = _mm256_hadd_ps(_mm256_hadd_ps(a, b), _mm256_hadd_ps(c, d));
  _mm_storeu_ps(out, _mm_add_ps(_mm256_castps256_ps128(sums), _mm256_extractf128_ps(sums, 1)));
}
__m256 Halves(Vec v) {
  return _mm256_add_ps(_mm512_castps512_ps256(v),
                       _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
}
void Sum4(const Vec* v, float* out) {
  Sum4Of8(Halves(v[0]), Halves(v[1]), Halves(v[2]), Halves(v[3]), out);
}
Mask LanesBelow(int64_t n) { return static_cast<Mask>((1u << n) - 1u); }

}  // namespace
}  // namespace plugrt::cpu::skinny_gemm::isa

#define PLUGRT_SKINNY_NAME(base) base##Avx512
#include "cpu/kernels/skinny_gemm_kernels.inc"

#endif  // __AVX512F__ && __FMA__
