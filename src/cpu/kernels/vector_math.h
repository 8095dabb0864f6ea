// plugrt CPU kernels: f32 math written so that loops over it vectorize, and
// the row reductions built on it (shared by fused loops and fast reductions).
//
// The functions are inline and branch-free; loops that call them are compiled
// in several versions (PLUGRT_VECTOR_CLONES: AVX-512, AVX2, baseline x86-64)
// and the loader picks the best the CPU has, so the plugin stays portable.
#ifndef PLUGRT_CPU_KERNELS_VECTOR_MATH_H_
#define PLUGRT_CPU_KERNELS_VECTOR_MATH_H_

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define PLUGRT_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define PLUGRT_VECTOR_CLONES
#endif
#define PLUGRT_INLINE __attribute__((always_inline)) inline

namespace plugrt::cpu::vmath {

PLUGRT_INLINE float Exp(float x) {
  // exp(x) = 2^n exp(r), n = round(x / ln 2), |r| <= ln(2)/2; exp(r) by its
  // Taylor series to r^7 (error below 1e-8 relative). 2^n is applied in two
  // halves so results near the ends of the range (inf, subnormals, 0) come
  // out right without special cases.
  const float clamped = std::min(std::max(x, -104.0f), 90.0f);
  const float t = clamped * 1.44269504088896341f;
  const int n = static_cast<int>(t + (t >= 0 ? 0.5f : -0.5f));
  const float nf = static_cast<float>(n);
  float r = clamped - nf * 0.693145751953125f;
  r = r - nf * 1.428606765330187045e-06f;
  float p = 1.0f / 5040;
  p = p * r + 1.0f / 720;
  p = p * r + 1.0f / 120;
  p = p * r + 1.0f / 24;
  p = p * r + 1.0f / 6;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const int n1 = n / 2, n2 = n - n1;
  const float s1 = std::bit_cast<float>(static_cast<uint32_t>(n1 + 127) << 23);
  const float s2 = std::bit_cast<float>(static_cast<uint32_t>(n2 + 127) << 23);
  // A NaN x stays NaN through the clamp and r: no test for it, which would
  // give the compiler a branch to move the work into (and keep it scalar).
  return p * s1 * s2;
}

PLUGRT_INLINE float Tanh(float x) {
  const float ax = std::fabs(x);
  // Small |x|: the odd Taylor series (8 terms; error below 1e-9 for |x| < 0.4),
  // on |x| capped so that it stays finite where it is not used.
  const float xs = std::min(ax, 0.4f);
  const float x2 = xs * xs;
  float p = -929569.0f / 638512875;
  p = p * x2 + 21844.0f / 6081075;
  p = p * x2 - 1382.0f / 155925;
  p = p * x2 + 62.0f / 2835;
  p = p * x2 - 17.0f / 315;
  p = p * x2 + 2.0f / 15;
  p = p * x2 - 1.0f / 3;
  const float small = xs + xs * x2 * p;
  // Otherwise (1 - e) / (1 + e) with e = exp(-2|x|), free of cancellation there.
  const float e = Exp(-2.0f * ax);
  const float large = (1.0f - e) / (1.0f + e);
  // Both are finite here (NaN aside), so an arithmetic blend picks one
  // exactly; a ?: would let the compiler branch around the exp.
  const float w = ax < 0.4f ? 1.0f : 0.0f;
  const float magnitude = w * small + (1.0f - w) * large;
  return std::copysign(magnitude, x);
}

PLUGRT_INLINE float Logistic(float x) { return 1.0f / (1.0f + Exp(-x)); }

// NaN propagates; +0 is larger than -0 (as the reference kernels).
PLUGRT_INLINE float Max(float a, float b) {
  const float larger = a > b ? a : (b > a ? b : (std::signbit(a) ? b : a));
  return a != a ? a : (b != b ? b : larger);
}
PLUGRT_INLINE float Min(float a, float b) {
  const float smaller = a < b ? a : (b < a ? b : (std::signbit(a) ? a : b));
  return a != a ? a : (b != b ? b : smaller);
}
// The step of a max/min reduction: NaN propagates (once the accumulator is
// NaN it stays so), ties keep the accumulator. Cheaper than Max/Min, which
// also order -0 below +0; a reduction may return -0 where +0 is equal.
PLUGRT_INLINE float MaxStep(float acc, float x) { return (x > acc || x != x) ? x : acc; }
PLUGRT_INLINE float MinStep(float acc, float x) { return (x < acc || x != x) ? x : acc; }

PLUGRT_INLINE float Sign(float x) { return x > 0 ? 1.0f : (x < 0 ? -1.0f : x); }
PLUGRT_INLINE float Truth(bool b) { return b ? 1.0f : 0.0f; }

// Row reductions over n contiguous floats (16 lanes of partial results).
float RowSum(const float* a, int64_t n);
float RowMax(const float* a, int64_t n, float init);
float RowMin(const float* a, int64_t n, float init);

}  // namespace plugrt::cpu::vmath

#endif  // PLUGRT_CPU_KERNELS_VECTOR_MATH_H_
