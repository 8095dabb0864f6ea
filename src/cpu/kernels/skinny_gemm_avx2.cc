// Compiled with -mavx2 -mfma (CMakeLists.txt). It includes no C++ library
// headers and defines no inline functions with external linkage: the linker
// could otherwise keep this file's AVX2 copy of one for callers on any CPU.
#include "cpu/kernels/skinny_gemm_simd.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

namespace plugrt::cpu::skinny_gemm::isa {
namespace {

using Vec = __m256;
using Mask = __m256i;
constexpr int kLanes = 8;

Vec Zero() { return _mm256_setzero_ps(); }
Vec Load(const float* p) { return _mm256_loadu_ps(p); }
Vec LoadMasked(const float* p, Mask m) { return _mm256_maskload_ps(p, m); }
Vec Fma(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
Vec Broadcast(const float* p) { return _mm256_broadcast_ss(p); }
void Store(float* p, Vec v) { _mm256_storeu_ps(p, v); }
void StoreMasked(float* p, Mask m, Vec v) { _mm256_maskstore_ps(p, m, v); }
float Sum(Vec v) {
  __m128 lo = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  lo = _mm_add_ps(lo, _mm_movehl_ps(lo, lo));
  lo = _mm_add_ss(lo, _mm_shuffle_ps(lo, lo, 1));
  return _mm_cvtss_f32(lo);
}
// The lane sums of four 8-lane vectors, in out[0..3].
void Sum4Of8(__m256 a, __m256 b, __m256 c, __m256 d, float* out) {
  const __m256 sums = _mm256_hadd_ps(_mm256_hadd_ps(a, b), _mm256_hadd_ps(c, d));
  _mm_storeu_ps(out, _mm_add_ps(_mm256_castps256_ps128(sums), _mm256_extractf128_ps(sums, 1)));
}
void Sum4(const Vec* v, float* out) { Sum4Of8(v[0], v[1], v[2], v[3], out); }
Mask LanesBelow(int64_t n) {
  alignas(32) int lanes[8];
  for (int i = 0; i < 8; ++i) lanes[i] = i < n ? -1 : 0;
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes));
}

}  // namespace
}  // namespace plugrt::cpu::skinny_gemm::isa

#define PLUGRT_SKINNY_NAME(base) base##Avx2
#include "cpu/kernels/skinny_gemm_kernels.inc"

#endif  // __AVX2__ && __FMA__
