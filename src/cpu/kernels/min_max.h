// plugrt CPU kernels: maximum and minimum with StableHLO's semantics, shared
// by the maximum/minimum and clamp kernels.
#ifndef PLUGRT_CPU_KERNELS_MIN_MAX_H_
#define PLUGRT_CPU_KERNELS_MIN_MAX_H_

#include <cmath>

#include "cpu/kernels/element_traits.h"

namespace plugrt::cpu::kernels {

// Complex values order lexicographically by (real, imag).
template <typename C>
bool LexLess(const C& a, const C& b) {
  if (a.real() != b.real()) return a.real() < b.real();
  return a.imag() < b.imag();
}

// NaN propagates; +0 is larger than -0.
template <typename C>
C MaxOf(C a, C b) {
  if constexpr (kIsBool<C>) {
    return a || b;
  } else if constexpr (kIsInt<C>) {
    return a < b ? b : a;
  } else if constexpr (kIsComplex<C>) {
    return LexLess(a, b) ? b : a;
  } else {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
    if (a == b) return std::signbit(a) ? b : a;
    return a < b ? b : a;
  }
}

template <typename C>
C MinOf(C a, C b) {
  if constexpr (kIsBool<C>) {
    return a && b;
  } else if constexpr (kIsInt<C>) {
    return b < a ? b : a;
  } else if constexpr (kIsComplex<C>) {
    return LexLess(b, a) ? b : a;
  } else {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
    if (a == b) return std::signbit(a) ? a : b;
    return b < a ? b : a;
  }
}

}  // namespace plugrt::cpu::kernels

#endif  // PLUGRT_CPU_KERNELS_MIN_MAX_H_
