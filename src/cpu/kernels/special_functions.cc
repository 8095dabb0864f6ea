#include "cpu/kernels/special_functions.h"

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "stablehlo/float_format.h"

namespace plugrt::cpu {
namespace {

using LD = long double;
using CLD = std::complex<long double>;

constexpr LD kPi = 3.141592653589793238462643383279502884L;
constexpr LD kNaN = std::numeric_limits<LD>::quiet_NaN();
constexpr LD kInf = std::numeric_limits<LD>::infinity();
constexpr LD kEps = std::numeric_limits<LD>::epsilon();

bool IsNonPositiveInteger(LD x) { return x <= 0 && x == std::floor(x); }

// pi / tan(pi * x), reducing x by whole periods first so large arguments
// keep their accuracy (tan has period 1 in x here).
LD PiOverTanPi(LD x) {
  const LD r = x - std::nearbyint(x);  // exact, in [-0.5, 0.5]
  if (r == 0.5L || r == -0.5L) return 0;
  return kPi / std::tan(kPi * r);
}

// Asymptotic digamma for x >= 20 (Bernoulli-number series).
LD DigammaLarge(LD x) {
  // B_2k / (2k) for k = 1..8
  static constexpr LD kCoeff[] = {1.0L / 12,     -1.0L / 120,  1.0L / 252,
                                  -1.0L / 240,   1.0L / 132,   -691.0L / 32760,
                                  1.0L / 12,     -3617.0L / 8160};
  const LD inv2 = 1 / (x * x);
  LD power = inv2;
  LD series = 0;
  for (LD c : kCoeff) {
    series += c * power;
    power *= inv2;
  }
  return std::log(x) - 0.5L / x - series;
}

// The real and complex functions the kernels apply, as plain functions so
// they can be template arguments.
LD AcosL(LD x) { return std::acos(x); }
LD AcoshL(LD x) { return std::acosh(x); }
LD AsinL(LD x) { return std::asin(x); }
LD AsinhL(LD x) { return std::asinh(x); }
LD AtanL(LD x) { return std::atan(x); }
LD AtanhL(LD x) { return std::atanh(x); }
LD CoshL(LD x) { return std::cosh(x); }
LD SinhL(LD x) { return std::sinh(x); }
LD TanL(LD x) { return std::tan(x); }
LD ErfL(LD x) { return std::erf(x); }
LD ErfcL(LD x) { return std::erfc(x); }
CLD CAcos(CLD z) { return std::acos(z); }
CLD CAcosh(CLD z) { return std::acosh(z); }
CLD CAsin(CLD z) { return std::asin(z); }
CLD CAsinh(CLD z) { return std::asinh(z); }
CLD CAtan(CLD z) { return std::atan(z); }
CLD CAtanh(CLD z) { return std::atanh(z); }
CLD CCosh(CLD z) { return std::cosh(z); }
CLD CSinh(CLD z) { return std::sinh(z); }
CLD CTan(CLD z) { return std::tan(z); }

// f32 sinh/cosh as the CHLO dialect defines them for |x| >= 1:
// exp(x + log(1/2)) +- exp(-x + log(1/2)), with the sums rounded to f32 as
// programs exported from JAX compute them (their references carry the f32
// rounding of x + log(1/2), several ulps at large |x|).
float HalfExpF32(float x) {
  const float log_half = static_cast<float>(-0.69314718055994530942L);
  return static_cast<float>(std::exp(static_cast<double>(x + log_half)));
}
LD CoshF32(LD v) {
  const float x = static_cast<float>(v);
  if (std::isnan(x)) return v;
  return HalfExpF32(x) + HalfExpF32(-x);
}
LD SinhF32(LD v) {
  const float x = static_cast<float>(v);
  if (std::isnan(x) || std::fabs(x) < 1) return std::sinh(v);
  return HalfExpF32(x) - HalfExpF32(-x);
}

using Real1 = LD (*)(LD);
using Real2 = LD (*)(LD, LD);
using Complex1 = CLD (*)(CLD);

// Bit-pattern storage width of the narrow float kinds.
constexpr bool Is16Bit(ElementType e) { return e == ElementType::kF16 || e == ElementType::kBF16; }

template <ElementType E>
LD LoadReal(const Tensor& t, int64_t i) {
  if constexpr (E == ElementType::kF32) {
    return t.as<float>()[i];
  } else if constexpr (E == ElementType::kF64) {
    return t.as<double>()[i];
  } else if constexpr (Is16Bit(E)) {
    return shlo::DecodeFloat(E, t.as<uint16_t>()[i]);
  } else {
    return shlo::DecodeFloat(E, t.as<uint8_t>()[i]);
  }
}

template <ElementType E>
void StoreReal(Tensor& t, int64_t i, LD v) {
  if constexpr (E == ElementType::kF32) {
    // Through double: for values in float range this rounds once in practice.
    t.mutable_as<float>()[i] = static_cast<float>(static_cast<double>(v));
  } else if constexpr (E == ElementType::kF64) {
    t.mutable_as<double>()[i] = static_cast<double>(v);
  } else if constexpr (Is16Bit(E)) {
    t.mutable_as<uint16_t>()[i] = static_cast<uint16_t>(shlo::EncodeFloat(E, static_cast<double>(v)));
  } else {
    t.mutable_as<uint8_t>()[i] = static_cast<uint8_t>(shlo::EncodeFloat(E, static_cast<double>(v)));
  }
}

template <ElementType E, Real1 F>
void RealUnary(const Tensor* const* in, Tensor& out) {
  const Tensor& x = *in[0];
  for (int64_t i = 0; i < out.num_elements(); ++i) StoreReal<E>(out, i, F(LoadReal<E>(x, i)));
}

template <ElementType E, Real2 F>
void RealBinary(const Tensor* const* in, Tensor& out) {
  const Tensor& a = *in[0];
  const Tensor& b = *in[1];
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    StoreReal<E>(out, i, F(LoadReal<E>(a, i), LoadReal<E>(b, i)));
  }
}

template <typename C, Complex1 F>
void ComplexUnary(const Tensor* const* in, Tensor& out) {
  const C* x = in[0]->as<C>();
  C* y = out.mutable_as<C>();
  using R = typename C::value_type;
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    const CLD r = F(CLD(x[i].real(), x[i].imag()));
    y[i] = C(static_cast<R>(static_cast<double>(r.real())),
             static_cast<R>(static_cast<double>(r.imag())));
  }
}

template <typename T>
T MulHigh(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    const __int128 p = static_cast<__int128>(a) * static_cast<__int128>(b);
    return static_cast<T>(p >> (8 * sizeof(T)));
  } else {
    const unsigned __int128 p =
        static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b);
    return static_cast<T>(p >> (8 * sizeof(T)));
  }
}

template <typename T>
void MulhiKernel(const Tensor* const* in, Tensor& out) {
  const T* a = in[0]->as<T>();
  const T* b = in[1]->as<T>();
  T* y = out.mutable_as<T>();
  for (int64_t i = 0; i < out.num_elements(); ++i) y[i] = MulHigh<T>(a[i], b[i]);
}

template <ElementType E>
MathKernel RealKernel(MathFn fn) {
  switch (fn) {
    case MathFn::kAcos: return &RealUnary<E, &AcosL>;
    case MathFn::kAcosh: return &RealUnary<E, &AcoshL>;
    case MathFn::kAsin: return &RealUnary<E, &AsinL>;
    case MathFn::kAsinh: return &RealUnary<E, &AsinhL>;
    case MathFn::kAtan: return &RealUnary<E, &AtanL>;
    case MathFn::kAtanh: return &RealUnary<E, &AtanhL>;
    case MathFn::kCosh:
      if constexpr (E == ElementType::kF32) return &RealUnary<E, &CoshF32>;
      return &RealUnary<E, &CoshL>;
    case MathFn::kSinh:
      if constexpr (E == ElementType::kF32) return &RealUnary<E, &SinhF32>;
      return &RealUnary<E, &SinhL>;
    case MathFn::kTan: return &RealUnary<E, &TanL>;
    case MathFn::kBesselI1e: return &RealUnary<E, &BesselI1e>;
    case MathFn::kDigamma: return &RealUnary<E, &Digamma>;
    case MathFn::kErf: return &RealUnary<E, &ErfL>;
    case MathFn::kErfc: return &RealUnary<E, &ErfcL>;
    case MathFn::kErfInv: return &RealUnary<E, &ErfInv>;
    case MathFn::kLgamma: return &RealUnary<E, &Lgamma>;
    case MathFn::kPolygamma: return &RealBinary<E, &Polygamma>;
    case MathFn::kZeta: return &RealBinary<E, &Zeta>;
    case MathFn::kMulhi: return nullptr;
  }
  return nullptr;
}

template <typename C>
MathKernel ComplexKernel(MathFn fn) {
  switch (fn) {
    case MathFn::kAcos: return &ComplexUnary<C, &CAcos>;
    case MathFn::kAcosh: return &ComplexUnary<C, &CAcosh>;
    case MathFn::kAsin: return &ComplexUnary<C, &CAsin>;
    case MathFn::kAsinh: return &ComplexUnary<C, &CAsinh>;
    case MathFn::kAtan: return &ComplexUnary<C, &CAtan>;
    case MathFn::kAtanh: return &ComplexUnary<C, &CAtanh>;
    case MathFn::kCosh: return &ComplexUnary<C, &CCosh>;
    case MathFn::kSinh: return &ComplexUnary<C, &CSinh>;
    case MathFn::kTan: return &ComplexUnary<C, &CTan>;
    default: return nullptr;
  }
}

template <typename T>
MathKernel IntegerKernel(MathFn fn) {
  return fn == MathFn::kMulhi ? &MulhiKernel<T> : nullptr;
}


}  // namespace

LD Lgamma(LD x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return kInf;
  if (IsNonPositiveInteger(x)) return kInf;
  int sign = 0;
  return lgammal_r(x, &sign);  // the reentrant form: no global signgam
}

LD Digamma(LD x) {
  if (std::isnan(x)) return x;
  if (x == kInf) return kInf;
  if (x == -kInf || IsNonPositiveInteger(x)) return kNaN;
  LD result = 0;
  if (x < 0.5L) {
    // Reflection: psi(x) = psi(1 - x) - pi / tan(pi x).
    result -= PiOverTanPi(x);
    x = 1 - x;
  }
  while (x < 20) {
    result -= 1 / x;
    x += 1;
  }
  return result + DigammaLarge(x);
}

LD ErfInv(LD y) {
  if (std::isnan(y)) return y;
  if (y < -1 || y > 1) return kNaN;
  if (y == 1) return kInf;
  if (y == -1) return -kInf;
  if (y == 0) return y;  // keeps the sign of zero
  const LD a = std::fabs(y);
  // Starting point from a closed-form approximation (relative error ~1e-3),
  // then Halley steps on erf (or erfc near 1, where erf loses the digits).
  const LD k = 0.147L;
  const LD ln = std::log((1 - a) * (1 + a));
  const LD t = 2 / (kPi * k) + ln / 2;
  LD x = std::sqrt(std::sqrt(t * t - ln / k) - t);
  const LD two_over_sqrt_pi = 1.128379167095512573896158903121545172L;
  const bool use_erfc = a > 0.5L;
  const LD target = use_erfc ? 1 - a : a;  // exact for a in [0.5, 1]
  for (int i = 0; i < 8; ++i) {
    const LD f = use_erfc ? target - std::erfc(x) : std::erf(x) - target;
    const LD df = two_over_sqrt_pi * std::exp(-x * x);
    if (df == 0) break;
    const LD step = f / (df + x * f);
    x -= step;
    if (std::fabs(step) <= std::fabs(x) * kEps) break;
  }
  return y < 0 ? -x : x;
}

LD BesselI1e(LD x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return x > 0 ? 0.0L : -0.0L;
  const LD ax = std::fabs(x);
  LD result;
  if (ax <= 40) {
    // Power series of I1 (all terms positive), scaled by exp(-|x|).
    const LD q = ax * ax / 4;
    LD term = ax / 2;
    LD sum = term;
    for (int k = 1; k < 500; ++k) {
      term *= q / (static_cast<LD>(k) * static_cast<LD>(k + 1));
      sum += term;
      if (term <= sum * kEps * 0.25L) break;
    }
    result = sum * std::exp(-ax);
  } else {
    // Large-argument expansion of exp(-x) I1(x); terms shrink until k ~ 2x.
    LD term = 1;
    LD sum = 1;
    for (int k = 1; k < 200; ++k) {
      const LD odd = static_cast<LD>(2 * k - 1);
      const LD next = term * (odd * odd - 4) / (8 * static_cast<LD>(k) * ax);
      if (std::fabs(next) >= std::fabs(term)) break;
      term = next;
      sum += term;
      if (std::fabs(term) <= std::fabs(sum) * kEps * 0.25L) break;
    }
    result = sum / std::sqrt(2 * kPi * ax);
  }
  return x < 0 ? -result : result;
}

LD Zeta(LD x, LD q) {
  if (std::isnan(x) || std::isnan(q)) return kNaN;
  if (x == 1) return kInf;
  if (x < 1) return kNaN;
  if (q <= 0) {
    if (q == std::floor(q)) return kInf;  // a pole: some term is 0^-x
    if (x != std::floor(x)) return kNaN;  // negative base, non-integer power
    if (q < -1e6L) return kNaN;           // too many terms to sum directly
  }
  if (x == kInf) return q == 1 ? 1.0L : (q > 1 ? 0.0L : kInf);
  // Sum the first terms directly, then Euler-Maclaurin from a = q + n >= 20.
  LD sum = 0;
  LD a = q;
  while (a < 20) {
    sum += std::pow(a, -x);
    a += 1;
  }
  sum += std::pow(a, 1 - x) / (x - 1) + std::pow(a, -x) / 2;
  // B_2j / (2j)! for j = 1..10.
  static constexpr LD kCoeff[] = {
      1.0L / 12,
      -1.0L / 720,
      1.0L / 30240,
      -1.0L / 1209600,
      1.0L / 47900160,
      -691.0L / 1307674368000,
      1.0L / 74724249600,
      -3617.0L / 10670622842880000,
      43867.0L / 5109094217170944000,
      -174611.0L / 802857662698291200000.0L,
  };
  LD poch = x;                       // x (x+1) ... (x+2j-2)
  LD power = std::pow(a, -x - 1);    // a^(-x-2j+1)
  for (size_t j = 0; j < sizeof(kCoeff) / sizeof(kCoeff[0]); ++j) {
    const LD term = kCoeff[j] * poch * power;
    sum += term;
    if (std::fabs(term) <= std::fabs(sum) * kEps * 0.25L) break;
    const LD m = x + static_cast<LD>(2 * j + 1);
    poch *= m * (m + 1);
    power /= a * a;
  }
  return sum;
}

LD Polygamma(LD n, LD x) {
  if (std::isnan(n) || std::isnan(x)) return kNaN;
  if (n < 0 || n != std::floor(n)) return kNaN;
  if (n == 0) return Digamma(x);
  // psi^(n)(x) = (-1)^(n+1) n! zeta(n+1, x)
  const LD z = Zeta(n + 1, x);
  const LD factorial = std::tgamma(n + 1);
  const bool odd = std::fmod(n, 2.0L) == 1;
  return (odd ? 1 : -1) * factorial * z;
}

std::optional<MathFn> MathFnFromName(std::string_view name) {
  return kernels_abi::MathTargetNamed(name);
}

std::string_view MathFnName(MathFn fn) { return kernels_abi::MathTargetOf(fn).name; }

int MathFnArity(MathFn fn) { return kernels_abi::MathTargetOf(fn).arity; }

MathKernel GetMathKernel(MathFn fn, ElementType type) {
  switch (type) {
    case ElementType::kF64: return RealKernel<ElementType::kF64>(fn);
    case ElementType::kF32: return RealKernel<ElementType::kF32>(fn);
    case ElementType::kF16: return RealKernel<ElementType::kF16>(fn);
    case ElementType::kBF16: return RealKernel<ElementType::kBF16>(fn);
    case ElementType::kF8E3M4: return RealKernel<ElementType::kF8E3M4>(fn);
    case ElementType::kF8E4M3: return RealKernel<ElementType::kF8E4M3>(fn);
    case ElementType::kF8E4M3FN: return RealKernel<ElementType::kF8E4M3FN>(fn);
    case ElementType::kF8E4M3FNUZ: return RealKernel<ElementType::kF8E4M3FNUZ>(fn);
    case ElementType::kF8E4M3B11FNUZ: return RealKernel<ElementType::kF8E4M3B11FNUZ>(fn);
    case ElementType::kF8E5M2: return RealKernel<ElementType::kF8E5M2>(fn);
    case ElementType::kF8E5M2FNUZ: return RealKernel<ElementType::kF8E5M2FNUZ>(fn);
    case ElementType::kC64: return ComplexKernel<std::complex<float>>(fn);
    case ElementType::kC128: return ComplexKernel<std::complex<double>>(fn);
    case ElementType::kSI8: return IntegerKernel<int8_t>(fn);
    case ElementType::kSI16: return IntegerKernel<int16_t>(fn);
    case ElementType::kSI32: return IntegerKernel<int32_t>(fn);
    case ElementType::kSI64: return IntegerKernel<int64_t>(fn);
    case ElementType::kUI8: return IntegerKernel<uint8_t>(fn);
    case ElementType::kUI16: return IntegerKernel<uint16_t>(fn);
    case ElementType::kUI32: return IntegerKernel<uint32_t>(fn);
    case ElementType::kUI64: return IntegerKernel<uint64_t>(fn);
    default: return nullptr;
  }
}

}  // namespace plugrt::cpu
