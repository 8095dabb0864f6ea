// Binary elementwise kernels: one loop per (op, element type), chosen once.
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "cpu/kernels/element_classes.h"
#include "cpu/kernels/element_traits.h"
#include "cpu/kernels/elementwise.h"
#include "cpu/kernels/min_max.h"

namespace plugrt::cpu {
namespace {

using namespace kernels;  // NOLINT: kernel-internal helpers

template <BinaryOpKind K>
struct BinaryOp;

template <>
struct BinaryOp<BinaryOpKind::kAdd> {
  template <ElementType T>
  static constexpr bool Supports = true;
  template <ElementType T, typename C>
  static C Apply(C a, C b) {
    if constexpr (kIsBool<C>) return a || b;
    else if constexpr (kIsInt<C>) return WrapAdd(a, b);
    else return a + b;
  }
};

template <>
struct BinaryOp<BinaryOpKind::kSubtract> {
  template <ElementType T>
  static constexpr bool Supports = !IsBoolT(T);
  template <ElementType T, typename C>
  static C Apply(C a, C b) {
    if constexpr (kIsInt<C>) return WrapSub(a, b);
    else return a - b;
  }
};

template <>
struct BinaryOp<BinaryOpKind::kMultiply> {
  template <ElementType T>
  static constexpr bool Supports = true;
  template <ElementType T, typename C>
  static C Apply(C a, C b) {
    if constexpr (kIsBool<C>) return a && b;
    else if constexpr (kIsInt<C>) return WrapMul(a, b);
    else return a * b;
  }
};

template <>
struct BinaryOp<BinaryOpKind::kDivide> {
  template <ElementType T>
  static constexpr bool Supports = !IsBoolT(T);
  template <ElementType T, typename C>
  static C Apply(C a, C b) {
    if constexpr (kIsInt<C>) {
      // x / 0 is all ones; INT_MIN / -1 wraps to INT_MIN.
      if (b == 0) return static_cast<C>(-1);
      if constexpr (std::is_signed_v<C>) {
        if (b == -1) return WrapNeg(a);
      }
      return static_cast<C>(a / b);
    } else {
      return a / b;
    }
  }
};

template <>
struct BinaryOp<BinaryOpKind::kRemainder> {
  template <ElementType T>
  static constexpr bool Supports = IsIntT(T) || IsFloatT(T);
  template <ElementType T, typename C>
  static C Apply(C a, C b) {
    if constexpr (kIsInt<C>) {
      // x % 0 is x; INT_MIN % -1 is 0. The sign follows the dividend.
      if (b == 0) return a;
      if constexpr (std::is_signed_v<C>) {
        if (b == -1) return 0;
      }
      return static_cast<C>(a % b);
    } else {
      return std::fmod(a, b);
    }
  }
};

template <>
struct BinaryOp<BinaryOpKind::kPower> {
  template <ElementType T>
  static constexpr bool Supports = IsIntT(T) || IsFloatT(T) || IsComplexT(T);
  template <ElementType T, typename C>
  static C Apply(C a, C b) {
    if constexpr (kIsInt<C>) {
      if constexpr (std::is_signed_v<C>) {
        if (b < 0) {
          // Only 1 and -1 have integral reciprocals.
          if (a == 1) return 1;
          if (a == -1) return (b & 1) ? C(-1) : C(1);
          return 0;
        }
      }
      C result = 1;
      C base = a;
      using U = std::make_unsigned_t<C>;
      U e = static_cast<U>(b);
      while (e != 0) {
        if (e & 1) result = WrapMul(result, base);
        base = WrapMul(base, base);
        e >>= 1;
      }
      return result;
    } else {
      using W = Wide<C>;
      return static_cast<C>(std::pow(static_cast<W>(a), static_cast<W>(b)));
    }
  }
};

template <>
struct BinaryOp<BinaryOpKind::kMaximum> {
  template <ElementType T>
  static constexpr bool Supports = true;
  template <ElementType T, typename C>
  static C Apply(C a, C b) { return MaxOf(a, b); }
};

template <>
struct BinaryOp<BinaryOpKind::kMinimum> {
  template <ElementType T>
  static constexpr bool Supports = true;
  template <ElementType T, typename C>
  static C Apply(C a, C b) { return MinOf(a, b); }
};

#define PLUGRT_BITWISE_(kind, bool_expr, int_expr)                   \
  template <>                                                        \
  struct BinaryOp<BinaryOpKind::kind> {                              \
    template <ElementType T>                                         \
    static constexpr bool Supports = IsBoolT(T) || IsIntT(T);        \
    template <ElementType T, typename C>                             \
    static C Apply(C a, C b) {                                       \
      if constexpr (kIsBool<C>) return bool_expr;                    \
      else return static_cast<C>(int_expr);                          \
    }                                                                \
  };
PLUGRT_BITWISE_(kAnd, a && b, a & b)
PLUGRT_BITWISE_(kOr, a || b, a | b)
PLUGRT_BITWISE_(kXor, a != b, a ^ b)
#undef PLUGRT_BITWISE_

// Shift amounts are read as unsigned: negative ones count as too large.
template <>
struct BinaryOp<BinaryOpKind::kShiftLeft> {
  template <ElementType T>
  static constexpr bool Supports = IsIntT(T);
  template <ElementType T, typename C>
  static C Apply(C a, C b) {
    using U = std::make_unsigned_t<C>;
    U s = static_cast<U>(b);
    if constexpr (Traits<T>::kBits < 8 * static_cast<int>(sizeof(C))) {
      s &= static_cast<U>((1u << Traits<T>::kBits) - 1);
    }
    if (s >= static_cast<U>(Traits<T>::kBits)) return 0;
    return static_cast<C>(static_cast<WrapUnsigned<C>>(static_cast<U>(a)) << s);
  }
};

template <>
struct BinaryOp<BinaryOpKind::kShiftRightLogical> {
  template <ElementType T>
  static constexpr bool Supports = IsIntT(T);
  template <ElementType T, typename C>
  static C Apply(C a, C b) {
    using U = std::make_unsigned_t<C>;
    constexpr int kBits = Traits<T>::kBits;
    U s = static_cast<U>(b);
    U ua = static_cast<U>(a);
    if constexpr (kBits < 8 * static_cast<int>(sizeof(C))) {
      s &= static_cast<U>((1u << kBits) - 1);
      ua &= static_cast<U>((1u << kBits) - 1);
    }
    if (s >= static_cast<U>(kBits)) return 0;
    return static_cast<C>(ua >> s);
  }
};

template <>
struct BinaryOp<BinaryOpKind::kShiftRightArithmetic> {
  template <ElementType T>
  static constexpr bool Supports = IsIntT(T);
  template <ElementType T, typename C>
  static C Apply(C a, C b) {
    using U = std::make_unsigned_t<C>;
    using S = std::make_signed_t<C>;
    constexpr int kBits = Traits<T>::kBits;
    U s = static_cast<U>(b);
    if constexpr (kBits < 8 * static_cast<int>(sizeof(C))) s &= static_cast<U>((1u << kBits) - 1);
    // The element's own sign bit fills (for unsigned types too).
    S sa = static_cast<S>(a);
    if constexpr (kBits < 8 * static_cast<int>(sizeof(C))) {
      constexpr int kPad = 8 * static_cast<int>(sizeof(C)) - kBits;
      sa = static_cast<S>(static_cast<S>(static_cast<U>(static_cast<U>(a) << kPad)) >> kPad);
    }
    if (s >= static_cast<U>(kBits)) return static_cast<C>(sa < 0 ? S(-1) : S(0));
    return static_cast<C>(sa >> s);
  }
};

template <>
struct BinaryOp<BinaryOpKind::kAtan2> {
  template <ElementType T>
  static constexpr bool Supports = IsFloatT(T) || IsComplexT(T);
  template <ElementType T, typename C>
  static C Apply(C y, C x) {
    using W = Wide<C>;
    if constexpr (kIsComplex<C>) {
      // atan2(y, x) = -i * log((x + i y) / sqrt(x^2 + y^2)).
      W wy = static_cast<W>(y), wx = static_cast<W>(x);
      const W i(0, 1);
      W r = -i * std::log((wx + i * wy) / std::sqrt(wx * wx + wy * wy));
      return static_cast<C>(r);
    } else {
      return static_cast<C>(std::atan2(static_cast<W>(y), static_cast<W>(x)));
    }
  }
};

template <>
struct BinaryOp<BinaryOpKind::kComplex> {
  template <ElementType T>
  static constexpr bool Supports = T == ElementType::kF32 || T == ElementType::kF64;
  template <ElementType T, typename C>
  static std::complex<C> Apply(C re, C im) { return std::complex<C>(re, im); }
};

template <BinaryOpKind K, ElementType In>
void BinaryLoop(const Tensor& x, const Tensor& y, Tensor& out) {
  using TI = Traits<In>;
  constexpr ElementType kOut = K == BinaryOpKind::kComplex ? ComplexOfT(In) : In;
  using TO = Traits<kOut>;
  const auto* a = x.as<typename TI::Storage>();
  const auto* b = y.as<typename TI::Storage>();
  auto* dst = out.mutable_as<typename TO::Storage>();
  const int64_t n = out.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    dst[i] = TO::Store(static_cast<typename TO::Compute>(
        BinaryOp<K>::template Apply<In>(TI::Load(a[i]), TI::Load(b[i]))));
  }
}

template <BinaryOpKind K>
BinaryKernel PickBinary(ElementType type) {
  return DispatchType(type, []<ElementType T>() -> BinaryKernel {
    if constexpr (BinaryOp<K>::template Supports<T>) {
      return &BinaryLoop<K, T>;
    } else {
      return nullptr;
    }
  });
}

}  // namespace

BinaryKernel GetBinaryKernel(BinaryOpKind op, ElementType type) {
  switch (op) {
#define PLUGRT_BINARY_CASE_(k) \
  case BinaryOpKind::k:        \
    return PickBinary<BinaryOpKind::k>(type);
    PLUGRT_BINARY_CASE_(kAdd)
    PLUGRT_BINARY_CASE_(kAnd)
    PLUGRT_BINARY_CASE_(kAtan2)
    PLUGRT_BINARY_CASE_(kComplex)
    PLUGRT_BINARY_CASE_(kDivide)
    PLUGRT_BINARY_CASE_(kMaximum)
    PLUGRT_BINARY_CASE_(kMinimum)
    PLUGRT_BINARY_CASE_(kMultiply)
    PLUGRT_BINARY_CASE_(kOr)
    PLUGRT_BINARY_CASE_(kPower)
    PLUGRT_BINARY_CASE_(kRemainder)
    PLUGRT_BINARY_CASE_(kShiftLeft)
    PLUGRT_BINARY_CASE_(kShiftRightArithmetic)
    PLUGRT_BINARY_CASE_(kShiftRightLogical)
    PLUGRT_BINARY_CASE_(kSubtract)
    PLUGRT_BINARY_CASE_(kXor)
#undef PLUGRT_BINARY_CASE_
  }
  return nullptr;
}

}  // namespace plugrt::cpu
