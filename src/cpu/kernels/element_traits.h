// plugrt CPU kernels: how each element type is stored and computed on.
//
// Internal to the kernel .cc files. Traits<T> gives the storage type of a
// cpu::Tensor element, the type arithmetic runs in, and the conversions
// between them (narrow floats are computed on in double and rounded once on
// store; sub-byte integers wrap to their width on store).
#ifndef PLUGRT_CPU_KERNELS_ELEMENT_TRAITS_H_
#define PLUGRT_CPU_KERNELS_ELEMENT_TRAITS_H_

#include <array>
#include <bit>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "stablehlo/element_type.h"
#include "stablehlo/float_format.h"

namespace plugrt::cpu::kernels {

using shlo::ElementType;

template <typename T>
struct ComplexTag : std::false_type {};
template <typename T>
struct ComplexTag<std::complex<T>> : std::true_type {};
template <typename T>
inline constexpr bool kIsComplex = ComplexTag<T>::value;

// The wider type f32 transcendental functions are evaluated in (3 ULP checks).
template <typename T>
struct WideOf { using type = T; };
template <>
struct WideOf<float> { using type = double; };
template <>
struct WideOf<std::complex<float>> { using type = std::complex<double>; };
template <typename T>
using Wide = typename WideOf<T>::type;

struct BoolTraits {
  using Storage = uint8_t;
  using Compute = bool;
  static constexpr int kBits = 1;
  static Compute Load(Storage s) { return s != 0; }
  static Storage Store(Compute c) { return c ? 1 : 0; }
};

template <typename S, int Bits>
struct IntTraits {
  using Storage = S;
  using Compute = S;
  static constexpr int kBits = Bits;
  static Compute Load(Storage s) { return s; }
  static Storage Store(Compute c) {
    if constexpr (Bits == 8 * static_cast<int>(sizeof(S))) {
      return c;
    } else {
      // Keep the low Bits bits, sign- or zero-extended to the byte.
      constexpr uint8_t kMask = static_cast<uint8_t>((1u << Bits) - 1);
      uint8_t u = static_cast<uint8_t>(c) & kMask;
      if constexpr (std::is_signed_v<S>) {
        if (u & (1u << (Bits - 1))) u |= static_cast<uint8_t>(~kMask);
      }
      return static_cast<S>(u);
    }
  }
};

template <typename F>
struct NativeFloatTraits {
  using Storage = F;
  using Compute = F;
  static constexpr int kBits = 8 * sizeof(F);
  static Compute Load(Storage s) { return s; }
  static Storage Store(Compute c) { return c; }
};

// 8-bit and smaller float kinds: decoded through a table built once.
template <ElementType T>
struct SmallFloatTraits {
  using Storage = uint8_t;
  using Compute = double;
  static constexpr int kBits = 8;
  static const double* Table() {
    static const std::array<double, 256> table = [] {
      std::array<double, 256> t{};
      for (int i = 0; i < 256; ++i) t[i] = shlo::DecodeFloat(T, static_cast<uint64_t>(i));
      return t;
    }();
    return table.data();
  }
  static Compute Load(Storage s) { return Table()[s]; }
  static Storage Store(Compute c) { return static_cast<Storage>(shlo::EncodeFloat(T, c)); }
};

struct BF16Traits {
  using Storage = uint16_t;
  using Compute = double;
  static constexpr int kBits = 16;
  static Compute Load(Storage s) {
    return std::bit_cast<float>(static_cast<uint32_t>(s) << 16);
  }
  static Storage Store(Compute c) {
    return static_cast<Storage>(shlo::EncodeFloat(ElementType::kBF16, c));
  }
};

struct F16Traits {
  using Storage = uint16_t;
  using Compute = double;
  static constexpr int kBits = 16;
  static Compute Load(Storage s) { return shlo::DecodeFloat(ElementType::kF16, s); }
  static Storage Store(Compute c) {
    return static_cast<Storage>(shlo::EncodeFloat(ElementType::kF16, c));
  }
};

template <typename C>
struct ComplexTraits {
  using Storage = C;
  using Compute = C;
  static constexpr int kBits = 8 * sizeof(C);
  static Compute Load(Storage s) { return s; }
  static Storage Store(Compute c) { return c; }
};

template <ElementType T>
struct Traits;
template <> struct Traits<ElementType::kI1> : BoolTraits {};
template <> struct Traits<ElementType::kSI2> : IntTraits<int8_t, 2> {};
template <> struct Traits<ElementType::kSI4> : IntTraits<int8_t, 4> {};
template <> struct Traits<ElementType::kSI8> : IntTraits<int8_t, 8> {};
template <> struct Traits<ElementType::kSI16> : IntTraits<int16_t, 16> {};
template <> struct Traits<ElementType::kSI32> : IntTraits<int32_t, 32> {};
template <> struct Traits<ElementType::kSI64> : IntTraits<int64_t, 64> {};
template <> struct Traits<ElementType::kUI2> : IntTraits<uint8_t, 2> {};
template <> struct Traits<ElementType::kUI4> : IntTraits<uint8_t, 4> {};
template <> struct Traits<ElementType::kUI8> : IntTraits<uint8_t, 8> {};
template <> struct Traits<ElementType::kUI16> : IntTraits<uint16_t, 16> {};
template <> struct Traits<ElementType::kUI32> : IntTraits<uint32_t, 32> {};
template <> struct Traits<ElementType::kUI64> : IntTraits<uint64_t, 64> {};
template <> struct Traits<ElementType::kF4E2M1FN> : SmallFloatTraits<ElementType::kF4E2M1FN> {};
template <> struct Traits<ElementType::kF6E2M3FN> : SmallFloatTraits<ElementType::kF6E2M3FN> {};
template <> struct Traits<ElementType::kF6E3M2FN> : SmallFloatTraits<ElementType::kF6E3M2FN> {};
template <> struct Traits<ElementType::kF8E3M4> : SmallFloatTraits<ElementType::kF8E3M4> {};
template <> struct Traits<ElementType::kF8E4M3> : SmallFloatTraits<ElementType::kF8E4M3> {};
template <> struct Traits<ElementType::kF8E4M3FN> : SmallFloatTraits<ElementType::kF8E4M3FN> {};
template <> struct Traits<ElementType::kF8E4M3FNUZ> : SmallFloatTraits<ElementType::kF8E4M3FNUZ> {};
template <> struct Traits<ElementType::kF8E4M3B11FNUZ>
    : SmallFloatTraits<ElementType::kF8E4M3B11FNUZ> {};
template <> struct Traits<ElementType::kF8E5M2> : SmallFloatTraits<ElementType::kF8E5M2> {};
template <> struct Traits<ElementType::kF8E5M2FNUZ> : SmallFloatTraits<ElementType::kF8E5M2FNUZ> {};
template <> struct Traits<ElementType::kF8E8M0FNU> : SmallFloatTraits<ElementType::kF8E8M0FNU> {};
template <> struct Traits<ElementType::kBF16> : BF16Traits {};
template <> struct Traits<ElementType::kF16> : F16Traits {};
template <> struct Traits<ElementType::kF32> : NativeFloatTraits<float> {};
template <> struct Traits<ElementType::kF64> : NativeFloatTraits<double> {};
template <> struct Traits<ElementType::kC64> : ComplexTraits<std::complex<float>> {};
template <> struct Traits<ElementType::kC128> : ComplexTraits<std::complex<double>> {};

// Calls fn.template operator()<T>() with the compile-time constant for `type`
// and returns its result: the one place a runtime type becomes a template
// argument (kernel selection, never inside loops).
#define PLUGRT_FOR_EACH_ELEMENT_TYPE_(X)                                              \
  X(kI1) X(kSI2) X(kSI4) X(kSI8) X(kSI16) X(kSI32) X(kSI64) X(kUI2) X(kUI4) X(kUI8) \
  X(kUI16) X(kUI32) X(kUI64) X(kF4E2M1FN) X(kF6E2M3FN) X(kF6E3M2FN) X(kF8E3M4)      \
  X(kF8E4M3) X(kF8E4M3FN) X(kF8E4M3FNUZ) X(kF8E4M3B11FNUZ) X(kF8E5M2)               \
  X(kF8E5M2FNUZ) X(kF8E8M0FNU) X(kBF16) X(kF16) X(kF32) X(kF64) X(kC64) X(kC128)

template <typename Fn>
auto DispatchType(ElementType type, Fn&& fn) -> decltype(fn.template operator()<ElementType::kF32>()) {
  switch (type) {
#define PLUGRT_DISPATCH_CASE_(t) \
  case ElementType::t:           \
    return fn.template operator()<ElementType::t>();
    PLUGRT_FOR_EACH_ELEMENT_TYPE_(PLUGRT_DISPATCH_CASE_)
#undef PLUGRT_DISPATCH_CASE_
  }
  return {};
}

// Classification of compute types inside op templates.
template <typename C>
inline constexpr bool kIsBool = std::is_same_v<C, bool>;
template <typename C>
inline constexpr bool kIsInt = std::is_integral_v<C> && !std::is_same_v<C, bool>;
template <typename C>
inline constexpr bool kIsReal = std::is_floating_point_v<C>;

// Two's complement arithmetic without signed overflow: computed in an
// unsigned type at least as wide as int.
template <typename T>
using WrapUnsigned =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
template <typename T>
T WrapAdd(T a, T b) { return static_cast<T>(static_cast<WrapUnsigned<T>>(a) + static_cast<WrapUnsigned<T>>(b)); }
template <typename T>
T WrapSub(T a, T b) { return static_cast<T>(static_cast<WrapUnsigned<T>>(a) - static_cast<WrapUnsigned<T>>(b)); }
template <typename T>
T WrapMul(T a, T b) { return static_cast<T>(static_cast<WrapUnsigned<T>>(a) * static_cast<WrapUnsigned<T>>(b)); }
template <typename T>
T WrapNeg(T a) { return static_cast<T>(WrapUnsigned<T>(0) - static_cast<WrapUnsigned<T>>(a)); }

}  // namespace plugrt::cpu::kernels

#endif  // PLUGRT_CPU_KERNELS_ELEMENT_TRAITS_H_
