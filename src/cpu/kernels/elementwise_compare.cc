// stablehlo.compare kernels: one loop per (direction, ordering, element type).
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "cpu/kernels/element_classes.h"
#include "cpu/kernels/element_traits.h"
#include "cpu/kernels/elementwise.h"

namespace plugrt::cpu {
namespace {

using namespace kernels;  // NOLINT: kernel-internal helpers

// An integer whose order is IEEE totalOrder:
// -NaN < -inf < ... < -0 < +0 < ... < inf < NaN.
inline int64_t TotalOrderKey(double v) {
  int64_t k = std::bit_cast<int64_t>(v);
  return k < 0 ? (k ^ INT64_MAX) : k;
}

enum class Ordering : uint8_t { kNative, kTotal, kAsSigned, kAsUnsigned };

template <CompareDirection D, typename K>
bool Decide(const K& a, const K& b) {
  if constexpr (D == CompareDirection::kEq) return a == b;
  else if constexpr (D == CompareDirection::kNe) return a != b;
  else if constexpr (D == CompareDirection::kGe) return a >= b;
  else if constexpr (D == CompareDirection::kGt) return a > b;
  else if constexpr (D == CompareDirection::kLe) return a <= b;
  else return a < b;
}

template <CompareDirection D, typename C>
bool DecideComplex(C a, C b) {
  if constexpr (D == CompareDirection::kEq) return a == b;
  else if constexpr (D == CompareDirection::kNe) return a != b;
  else {
    // Lexicographic on (real, imag), each compared as IEEE values.
    if (a.real() != b.real()) return Decide<D>(a.real(), b.real());
    return Decide<D>(a.imag(), b.imag());
  }
}

template <CompareDirection D, Ordering O, ElementType T>
void CompareLoop(const Tensor& x, const Tensor& y, Tensor& out) {
  using TI = Traits<T>;
  using C = typename TI::Compute;
  const auto* a = x.as<typename TI::Storage>();
  const auto* b = y.as<typename TI::Storage>();
  auto* dst = out.mutable_as<uint8_t>();
  const int64_t n = out.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    C va = TI::Load(a[i]), vb = TI::Load(b[i]);
    bool r;
    if constexpr (kIsComplex<C>) {
      r = DecideComplex<D>(va, vb);
    } else if constexpr (O == Ordering::kTotal) {
      r = Decide<D>(TotalOrderKey(static_cast<double>(va)), TotalOrderKey(static_cast<double>(vb)));
    } else if constexpr (O == Ordering::kAsSigned && kIsInt<C>) {
      using S = std::make_signed_t<C>;
      r = Decide<D>(static_cast<S>(va), static_cast<S>(vb));
    } else if constexpr (O == Ordering::kAsUnsigned && kIsInt<C>) {
      using U = std::make_unsigned_t<C>;
      // Sub-byte values are stored extended: mask to the element's bits.
      constexpr int kBits = TI::kBits;
      U ua = static_cast<U>(va), ub = static_cast<U>(vb);
      if constexpr (kBits < 8 * static_cast<int>(sizeof(U))) {
        ua &= static_cast<U>((1u << kBits) - 1);
        ub &= static_cast<U>((1u << kBits) - 1);
      }
      r = Decide<D>(ua, ub);
    } else {
      r = Decide<D>(va, vb);
    }
    dst[i] = r ? 1 : 0;
  }
}

template <CompareDirection D, Ordering O>
BinaryKernel PickCompare(ElementType type) {
  return DispatchType(type, []<ElementType T>() -> BinaryKernel {
    if constexpr (O == Ordering::kTotal && !IsFloatT(T)) {
      return nullptr;
    } else if constexpr ((O == Ordering::kAsSigned || O == Ordering::kAsUnsigned) &&
                         !(IsIntT(T) || IsBoolT(T))) {
      return nullptr;
    } else {
      return &CompareLoop<D, O, T>;
    }
  });
}

template <CompareDirection D>
BinaryKernel PickOrdering(CompareType compare_type, ElementType type) {
  switch (compare_type) {
    case CompareType::kDefault:
      return PickCompare<D, Ordering::kNative>(type);
    case CompareType::kFloat:
      if (!(IsFloatT(type) || IsComplexT(type))) return nullptr;
      return PickCompare<D, Ordering::kNative>(type);
    case CompareType::kTotalOrder:
      return PickCompare<D, Ordering::kTotal>(type);
    case CompareType::kSigned:
      return PickCompare<D, Ordering::kAsSigned>(type);
    case CompareType::kUnsigned:
      return PickCompare<D, Ordering::kAsUnsigned>(type);
  }
  return nullptr;
}

}  // namespace

BinaryKernel GetCompareKernel(CompareDirection direction, CompareType compare_type,
                              ElementType type) {
  switch (direction) {
    case CompareDirection::kEq: return PickOrdering<CompareDirection::kEq>(compare_type, type);
    case CompareDirection::kNe: return PickOrdering<CompareDirection::kNe>(compare_type, type);
    case CompareDirection::kGe: return PickOrdering<CompareDirection::kGe>(compare_type, type);
    case CompareDirection::kGt: return PickOrdering<CompareDirection::kGt>(compare_type, type);
    case CompareDirection::kLe: return PickOrdering<CompareDirection::kLe>(compare_type, type);
    case CompareDirection::kLt: return PickOrdering<CompareDirection::kLt>(compare_type, type);
  }
  return nullptr;
}

}  // namespace plugrt::cpu
