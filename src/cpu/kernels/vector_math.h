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

// Splits x (NaN or within [-104, 89]) as n ln2 + r with integer n and
// |r| <= ln(2)/2. Adding 1.5 * 2^23 rounds x / ln2 to an integer in the
// float's low mantissa bits, which is cheaper than a convert and a fix-up.
struct Reduced {
  float r;
  int32_t n;
};
PLUGRT_INLINE Reduced ReduceLn2(float x) {
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23
  const float biased = x * 1.44269504088896341f + kRound;
  const float nf = biased - kRound;
  float r = x - nf * 0.693145751953125f;  // ln 2 in two parts: the first
  r = r - nf * 1.428606765330187045e-06f;  // times any n here is exact
  return {r, std::bit_cast<int32_t>(biased) - std::bit_cast<int32_t>(kRound)};
}

// 2^n as a float, for n in [-126, 127].
PLUGRT_INLINE float Pow2(int32_t n) {
  return std::bit_cast<float>(static_cast<uint32_t>(n + 127) << 23);
}

// c0 + c1 r + c2 r^2 + ..., by Horner's rule (highest degree first).
PLUGRT_INLINE float Horner(float, float c) { return c; }
template <typename... Rest>
PLUGRT_INLINE float Horner(float r, float c, Rest... rest) {
  return Horner(r, rest...) * r + c;
}

PLUGRT_INLINE float Exp(float x) {
  // exp(x) = 2^n exp(r); exp(r) by its Taylor series to r^7 (relative error
  // below 1e-8 on |r| <= ln(2)/2). 2^n is applied in two halves so that
  // results near the ends of the range (inf, subnormals, 0) come out right
  // without special cases. A NaN x stays NaN through the clamp and r: no
  // test for it, which would give the compiler a branch to move the work
  // into (and keep it scalar).
  const Reduced red = ReduceLn2(std::min(std::max(x, -104.0f), 89.0f));
  const float p = Horner(red.r, 1.0f, 1.0f, 0.5f, 1.0f / 6, 1.0f / 24, 1.0f / 120, 1.0f / 720,
                         1.0f / 5040);
  const int32_t n1 = red.n >> 1;  // floor(n / 2)
  return p * Pow2(n1) * Pow2(red.n - n1);
}

PLUGRT_INLINE float Tanh(float x) {
  // tanh|x| = -m / (m + 2) with m = expm1(-2|x|), which has no cancellation
  // anywhere: m = 2^n expm1(r) + (2^n - 1), expm1(r) by its Taylor series
  // to r^8 (relative error below 2e-8). |x| >= 10 gives 1 in float, so the
  // argument is capped at -20, where 2^n stays a normal number.
  const float ax = std::fabs(x);
  const Reduced red = ReduceLn2(std::max(-2.0f * ax, -20.0f));
  const float r = red.r;
  const float q = Horner(r, 1.0f, 0.5f, 1.0f / 6, 1.0f / 24, 1.0f / 120, 1.0f / 720, 1.0f / 5040,
                         1.0f / 40320);
  const float s = Pow2(red.n);
  const float m = s * (q * r) + (s - 1.0f);
  return std::copysign(-m / (m + 2.0f), x);
}

// 1 / (1 + e^-x), as e^x / (1 + e^x) for negative x so that e never
// overflows and tiny results keep their precision.
PLUGRT_INLINE float Logistic(float x) {
  const float e = Exp(-std::fabs(x));
  return (x < 0 ? e : 1.0f) / (1.0f + e);
}

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
