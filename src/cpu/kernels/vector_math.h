// plugrt CPU kernels: f32 math written so that loops over it vectorize, and
// the row reductions built on it (shared by fused loops and fast reductions;
// the quantized dot's rescaling rounds with RoundEven too).
//
// The functions are inline and branch-free; loops that call them are compiled
// in several versions (PLUGRT_VECTOR_CLONES: AVX-512, AVX2, baseline x86-64)
// and the loader picks the best the CPU has, so the plugin stays portable.
#ifndef PLUGRT_CPU_KERNELS_VECTOR_MATH_H_
#define PLUGRT_CPU_KERNELS_VECTOR_MATH_H_

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
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

// Round half to even as the reference round_nearest_even, in arithmetic
// that vectorizes: below 2^23, adding and subtracting 2^23 leaves the
// magnitude rounded to an integer, ties to even, in the default rounding
// mode (plugrt never changes it); larger magnitudes, infinities and NaN are
// integers (or NaN) already. The sign is put back, -0 included.
PLUGRT_INLINE float RoundEven(float x) {
  constexpr float kTwo23 = 8388608.0f;
  const float magnitude = std::fabs(x);
  const float rounded = (magnitude + kTwo23) - kTwo23;
  return std::copysign(magnitude < kTwo23 ? rounded : magnitude, x);
}

// 2^n as a float, for n in [-126, 127].
PLUGRT_INLINE float Pow2(int32_t n) {
  return std::bit_cast<float>(static_cast<uint32_t>(n + 127) << 23);
}

// Polynomials on |r| <= ln(2)/2, lowest degree first, fitted (iteratively
// reweighted least squares) for the smallest maximum relative error; shared
// with the generated loops (fused_jit.cc) so both paths round alike.
// exp(r), degree 5: relative error below 1e-7 (exp within 2 ulp overall).
inline constexpr float kExpPoly[6] = {1.000000000e+00f, 9.999997020e-01f, 4.999915063e-01f,
                                      1.666763574e-01f, 4.189793393e-02f, 8.290306665e-03f};
// expm1(r) / r, degree 5: relative error below 2e-8.
inline constexpr float kExpm1OverRPoly[6] = {1.000000000e+00f, 4.999999702e-01f,
                                             1.666654348e-01f, 4.166720062e-02f,
                                             8.366514929e-03f, 1.388251316e-03f};

// c[0] + c[1] r + ... + c[N-1] r^(N-1), by Horner's rule.
template <size_t N>
PLUGRT_INLINE float Horner(float r, const float (&c)[N]) {
  float p = c[N - 1];
  for (size_t i = N - 1; i-- > 0;) p = p * r + c[i];
  return p;
}

PLUGRT_INLINE float Exp(float x) {
  // exp(x) = 2^n exp(r), exp(r) by kExpPoly. 2^n is applied in two halves so that
  // results near the ends of the range (inf, subnormals, 0) come out right
  // without special cases. A NaN x stays NaN through the clamp and r: no
  // test for it, which would give the compiler a branch to move the work
  // into (and keep it scalar).
  const Reduced red = ReduceLn2(std::min(std::max(x, -104.0f), 89.0f));
  const float p = Horner(red.r, kExpPoly);
  const int32_t n1 = red.n >> 1;  // floor(n / 2)
  return p * Pow2(n1) * Pow2(red.n - n1);
}

PLUGRT_INLINE float Tanh(float x) {
  // tanh|x| = -m / (m + 2) with m = expm1(-2|x|), which has no cancellation
  // anywhere: m = 2^n expm1(r) + (2^n - 1), expm1(r) = r kExpm1OverRPoly(r).
  // |x| >= 10 gives 1 in float, so the
  // argument is capped at -20, where 2^n stays a normal number.
  const float ax = std::fabs(x);
  const Reduced red = ReduceLn2(std::max(-2.0f * ax, -20.0f));
  const float r = red.r;
  const float q = Horner(r, kExpm1OverRPoly);
  const float s = Pow2(red.n);
  const float m = s * (q * r) + (s - 1.0f);
  return std::copysign(-m / (m + 2.0f), x);
}

// sin and cos for |x| <= kTrigReduceLimit: x = n pi/2 + r with |r| <= pi/4,
// then sin or cos of r by polynomial as n mod 4 selects, with its sign.
// pi/2 is split in three floats, the first two of 12 significant bits, so
// that n times each is exact for the |n| < 2^12 this range gives and r
// loses nothing to cancellation. Larger |x|, infinities and NaN are the
// callers' (SinCosLoop in fused_loop.cc computes those lanes in double).
inline constexpr float kTrigReduceLimit = 4096.0f;
// Fitted like kExpPoly on |r| <= pi/4 (within 1.1 ulp there):
// sin(r) / r - 1 = r^2 (c0 + c1 r^2 + c2 r^4).
inline constexpr float kSinPoly[3] = {-1.666665524e-01f, 8.332177997e-03f, -1.951729937e-04f};
// cos(r) - 1 = r^2 (c0 + c1 r^2 + c2 r^4 + c3 r^6).
inline constexpr float kCosPoly[4] = {-5.000000000e-01f, 4.166662320e-02f, -1.388676348e-03f,
                                      2.439045238e-05f};

// sin(x + quarter_turns pi/2) for |x| <= kTrigReduceLimit.
PLUGRT_INLINE float SinQuarterTurns(float x, int32_t quarter_turns) {
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23, as in ReduceLn2
  const float biased = x * 0.636619772367581343f + kRound;
  const float nf = biased - kRound;
  float r = x - nf * 1.57080078125f;
  r = r - nf * -4.4535845518112183e-06f;
  r = r - nf * -8.7055163078275655e-10f;
  const int32_t q =
      std::bit_cast<int32_t>(biased) - std::bit_cast<int32_t>(kRound) + quarter_turns;
  const float r2 = r * r;
  const float s = r + r * (r2 * Horner(r2, kSinPoly));
  const float c = 1.0f + r2 * Horner(r2, kCosPoly);
  const float v = (q & 1) != 0 ? c : s;
  return (q & 2) != 0 ? -v : v;
}
// Tiny |x| returns x itself, so that sin(-0) is -0.
PLUGRT_INLINE float Sin(float x) { return std::fabs(x) < 1e-4f ? x : SinQuarterTurns(x, 0); }
PLUGRT_INLINE float Cos(float x) { return SinQuarterTurns(x, 1); }

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
