// Unary elementwise kernels: one loop per (op, element type), chosen once.
#include <bit>
#include <cmath>
#include <complex>
#include <limits>

#include "cpu/kernels/element_classes.h"
#include "cpu/kernels/element_traits.h"
#include "cpu/kernels/elementwise.h"

namespace plugrt::cpu {
namespace {

using namespace kernels;  // NOLINT: kernel-internal helpers

template <typename C>
C ComplexExpm1(C z) {
  // exp(a)(cos b + i sin b) - 1 with the real part kept accurate near zero.
  auto a = z.real(), b = z.imag();
  auto half_sin = std::sin(b / 2);
  auto real = std::expm1(a) * std::cos(b) - 2 * half_sin * half_sin;
  return C(real, std::exp(a) * std::sin(b));
}

template <typename C>
C ComplexLog1p(C z) {
  auto a = z.real(), b = z.imag();
  // |1+z|^2 - 1 = a(2+a) + b^2, so log|1+z| = log1p(that) / 2.
  auto real = std::log1p(a * (2 + a) + b * b) / 2;
  return C(real, std::atan2(b, 1 + a));
}

template <UnaryOpKind K>
struct UnaryOp;

// Each specialization: Supports<T> (per the spec's allowed types) and
// Apply<T>(x) on the compute type.
#define PLUGRT_FLOAT_OR_COMPLEX_ \
  template <ElementType T>       \
  static constexpr bool Supports = IsFloatT(T) || IsComplexT(T);
#define PLUGRT_FLOAT_ONLY_ \
  template <ElementType T> \
  static constexpr bool Supports = IsFloatT(T);

// Evaluates f in the wide type (f32 -> f64) and narrows the result.
#define PLUGRT_WIDE_CALL_(expr_of_w)      \
  using W = Wide<C>;                      \
  W w = static_cast<W>(x);                \
  return static_cast<C>(expr_of_w);

template <>
struct UnaryOp<UnaryOpKind::kAbs> {
  template <ElementType T>
  static constexpr bool Supports = IsSignedIntT(T) || IsFloatT(T) || IsComplexT(T);
  template <typename C>
  static auto Apply(C x) {
    if constexpr (kIsComplex<C>) {
      return static_cast<typename C::value_type>(std::abs(static_cast<Wide<C>>(x)));
    } else if constexpr (kIsInt<C>) {
      return x < 0 ? WrapNeg(x) : x;
    } else {
      return std::fabs(x);
    }
  }
};

template <>
struct UnaryOp<UnaryOpKind::kCbrt> {
  PLUGRT_FLOAT_OR_COMPLEX_
  template <typename C>
  static C Apply(C x) {
    if constexpr (kIsComplex<C>) {
      using W = Wide<C>;
      W w = static_cast<W>(x);
      if (w == W(0)) return C(0);
      return static_cast<C>(std::exp(std::log(w) / typename W::value_type(3)));
    } else {
      PLUGRT_WIDE_CALL_(std::cbrt(w))
    }
  }
};

template <>
struct UnaryOp<UnaryOpKind::kCeil> {
  PLUGRT_FLOAT_ONLY_
  template <typename C>
  static C Apply(C x) { return std::ceil(x); }
};

template <>
struct UnaryOp<UnaryOpKind::kFloor> {
  PLUGRT_FLOAT_ONLY_
  template <typename C>
  static C Apply(C x) { return std::floor(x); }
};

template <>
struct UnaryOp<UnaryOpKind::kRoundNearestAfz> {
  PLUGRT_FLOAT_ONLY_
  template <typename C>
  static C Apply(C x) { return std::round(x); }
};

template <>
struct UnaryOp<UnaryOpKind::kRoundNearestEven> {
  PLUGRT_FLOAT_ONLY_
  template <typename C>
  static C Apply(C x) {
    // Independent of the thread's rounding mode.
    C r = std::round(x);
    if (std::fabs(x - std::trunc(x)) == C(0.5)) r = 2 * std::round(x / 2);
    return r;
  }
};

#define PLUGRT_TRANSCENDENTAL_(kind, expr)       \
  template <>                                   \
  struct UnaryOp<UnaryOpKind::kind> {           \
    PLUGRT_FLOAT_OR_COMPLEX_                    \
    template <typename C>                       \
    static C Apply(C x) { PLUGRT_WIDE_CALL_(expr) } \
  };

PLUGRT_TRANSCENDENTAL_(kCosine, std::cos(w))
PLUGRT_TRANSCENDENTAL_(kSine, std::sin(w))
PLUGRT_TRANSCENDENTAL_(kTan, std::tan(w))
PLUGRT_TRANSCENDENTAL_(kTanh, std::tanh(w))
PLUGRT_TRANSCENDENTAL_(kExponential, std::exp(w))
PLUGRT_TRANSCENDENTAL_(kLog, std::log(w))
PLUGRT_TRANSCENDENTAL_(kSqrt, std::sqrt(w))
PLUGRT_TRANSCENDENTAL_(kRsqrt, W(1) / std::sqrt(w))
PLUGRT_TRANSCENDENTAL_(kLogistic, W(1) / (W(1) + std::exp(-w)))
#undef PLUGRT_TRANSCENDENTAL_

template <>
struct UnaryOp<UnaryOpKind::kExponentialMinusOne> {
  PLUGRT_FLOAT_OR_COMPLEX_
  template <typename C>
  static C Apply(C x) {
    if constexpr (kIsComplex<C>) {
      PLUGRT_WIDE_CALL_(ComplexExpm1(w))
    } else {
      PLUGRT_WIDE_CALL_(std::expm1(w))
    }
  }
};

template <>
struct UnaryOp<UnaryOpKind::kLogPlusOne> {
  PLUGRT_FLOAT_OR_COMPLEX_
  template <typename C>
  static C Apply(C x) {
    if constexpr (kIsComplex<C>) {
      PLUGRT_WIDE_CALL_(ComplexLog1p(w))
    } else {
      PLUGRT_WIDE_CALL_(std::log1p(w))
    }
  }
};

template <>
struct UnaryOp<UnaryOpKind::kCountLeadingZeros> {
  template <ElementType T>
  static constexpr bool Supports = IsIntT(T);
  template <ElementType T, typename C>
  static C ApplyTyped(C x) {
    constexpr int kBits = Traits<T>::kBits;
    using U = std::make_unsigned_t<C>;
    // Only the element's own bits count (sub-byte values are sign-extended).
    U u = static_cast<U>(x);
    if constexpr (kBits < 8 * static_cast<int>(sizeof(U))) u &= static_cast<U>((1u << kBits) - 1);
    return static_cast<C>(std::countl_zero(u) - (8 * static_cast<int>(sizeof(U)) - kBits));
  }
};

template <>
struct UnaryOp<UnaryOpKind::kPopcnt> {
  template <ElementType T>
  static constexpr bool Supports = IsIntT(T);
  template <ElementType T, typename C>
  static C ApplyTyped(C x) {
    constexpr int kBits = Traits<T>::kBits;
    using U = std::make_unsigned_t<C>;
    U u = static_cast<U>(x);
    if constexpr (kBits < 8 * static_cast<int>(sizeof(U))) u &= static_cast<U>((1u << kBits) - 1);
    return static_cast<C>(std::popcount(u));
  }
};

template <>
struct UnaryOp<UnaryOpKind::kImag> {
  PLUGRT_FLOAT_OR_COMPLEX_
  template <typename C>
  static auto Apply(C x) {
    if constexpr (kIsComplex<C>) {
      return x.imag();
    } else {
      (void)x;
      return C(0);
    }
  }
};

template <>
struct UnaryOp<UnaryOpKind::kReal> {
  PLUGRT_FLOAT_OR_COMPLEX_
  template <typename C>
  static auto Apply(C x) {
    if constexpr (kIsComplex<C>) {
      return x.real();
    } else {
      return x;
    }
  }
};

template <>
struct UnaryOp<UnaryOpKind::kIsFinite> {
  PLUGRT_FLOAT_ONLY_
  template <typename C>
  static bool Apply(C x) { return std::isfinite(x); }
};

template <>
struct UnaryOp<UnaryOpKind::kNegate> {
  template <ElementType T>
  static constexpr bool Supports = IsIntT(T) || IsFloatT(T) || IsComplexT(T);
  template <typename C>
  static C Apply(C x) {
    if constexpr (kIsInt<C>) {
      return WrapNeg(x);
    } else {
      return -x;
    }
  }
};

template <>
struct UnaryOp<UnaryOpKind::kNot> {
  template <ElementType T>
  static constexpr bool Supports = IsBoolT(T) || IsIntT(T);
  template <typename C>
  static C Apply(C x) {
    if constexpr (kIsBool<C>) {
      return !x;
    } else {
      return static_cast<C>(~x);
    }
  }
};

template <>
struct UnaryOp<UnaryOpKind::kSign> {
  template <ElementType T>
  static constexpr bool Supports = IsSignedIntT(T) || IsFloatT(T) || IsComplexT(T);
  template <typename C>
  static C Apply(C x) {
    if constexpr (kIsInt<C>) {
      return static_cast<C>((x > 0) - (x < 0));
    } else if constexpr (kIsComplex<C>) {
      using R = typename C::value_type;
      if (std::isnan(x.real()) || std::isnan(x.imag())) {
        return C(std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN());
      }
      if (x == C(0)) return x;
      auto w = static_cast<Wide<C>>(x);
      return static_cast<C>(w / std::abs(w));
    } else {
      if (std::isnan(x)) return x;
      if (x > 0) return C(1);
      if (x < 0) return C(-1);
      return x;  // keeps the zero's sign
    }
  }
};

#undef PLUGRT_WIDE_CALL_
#undef PLUGRT_FLOAT_ONLY_
#undef PLUGRT_FLOAT_OR_COMPLEX_

constexpr ElementType OutTypeOf(UnaryOpKind op, ElementType type) {
  switch (op) {
    case UnaryOpKind::kAbs:
    case UnaryOpKind::kImag:
    case UnaryOpKind::kReal:
      return ComponentT(type);
    case UnaryOpKind::kIsFinite:
      return ElementType::kI1;
    default:
      return type;
  }
}

template <typename Op, ElementType T, typename C>
auto ApplyOne(C x) {
  if constexpr (requires { Op::template ApplyTyped<T>(x); }) {
    return Op::template ApplyTyped<T>(x);
  } else {
    return Op::Apply(x);
  }
}

template <UnaryOpKind K, ElementType In>
void UnaryLoop(const Tensor& x, Tensor& out) {
  using TI = Traits<In>;
  using TO = Traits<OutTypeOf(K, In)>;
  using Out = typename TO::Compute;
  const auto* src = x.as<typename TI::Storage>();
  auto* dst = out.mutable_as<typename TO::Storage>();
  const int64_t n = out.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    dst[i] = TO::Store(static_cast<Out>(ApplyOne<UnaryOp<K>, In>(TI::Load(src[i]))));
  }
}

template <UnaryOpKind K>
UnaryKernel PickUnary(ElementType type) {
  return DispatchType(type, []<ElementType T>() -> UnaryKernel {
    if constexpr (UnaryOp<K>::template Supports<T>) {
      return &UnaryLoop<K, T>;
    } else {
      return nullptr;
    }
  });
}

}  // namespace

ElementType UnaryResultType(UnaryOpKind op, ElementType type) { return OutTypeOf(op, type); }

UnaryKernel GetUnaryKernel(UnaryOpKind op, ElementType type) {
  switch (op) {
#define PLUGRT_UNARY_CASE_(k) \
  case UnaryOpKind::k:        \
    return PickUnary<UnaryOpKind::k>(type);
    PLUGRT_UNARY_CASE_(kAbs)
    PLUGRT_UNARY_CASE_(kCbrt)
    PLUGRT_UNARY_CASE_(kCeil)
    PLUGRT_UNARY_CASE_(kCosine)
    PLUGRT_UNARY_CASE_(kCountLeadingZeros)
    PLUGRT_UNARY_CASE_(kExponential)
    PLUGRT_UNARY_CASE_(kExponentialMinusOne)
    PLUGRT_UNARY_CASE_(kFloor)
    PLUGRT_UNARY_CASE_(kImag)
    PLUGRT_UNARY_CASE_(kIsFinite)
    PLUGRT_UNARY_CASE_(kLog)
    PLUGRT_UNARY_CASE_(kLogPlusOne)
    PLUGRT_UNARY_CASE_(kLogistic)
    PLUGRT_UNARY_CASE_(kNegate)
    PLUGRT_UNARY_CASE_(kNot)
    PLUGRT_UNARY_CASE_(kPopcnt)
    PLUGRT_UNARY_CASE_(kReal)
    PLUGRT_UNARY_CASE_(kRoundNearestAfz)
    PLUGRT_UNARY_CASE_(kRoundNearestEven)
    PLUGRT_UNARY_CASE_(kRsqrt)
    PLUGRT_UNARY_CASE_(kSign)
    PLUGRT_UNARY_CASE_(kSine)
    PLUGRT_UNARY_CASE_(kSqrt)
    PLUGRT_UNARY_CASE_(kTan)
    PLUGRT_UNARY_CASE_(kTanh)
#undef PLUGRT_UNARY_CASE_
  }
  return nullptr;
}

}  // namespace plugrt::cpu
