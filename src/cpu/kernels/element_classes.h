// plugrt CPU kernels: compile-time element type classes for kernel tables.
#ifndef PLUGRT_CPU_KERNELS_ELEMENT_CLASSES_H_
#define PLUGRT_CPU_KERNELS_ELEMENT_CLASSES_H_

#include "stablehlo/element_type.h"

namespace plugrt::cpu::kernels {

using shlo::ElementType;

constexpr bool IsBoolT(ElementType t) { return t == ElementType::kI1; }
constexpr bool IsSignedIntT(ElementType t) {
  return t >= ElementType::kSI2 && t <= ElementType::kSI64;
}
constexpr bool IsUnsignedIntT(ElementType t) {
  return t >= ElementType::kUI2 && t <= ElementType::kUI64;
}
constexpr bool IsIntT(ElementType t) { return IsSignedIntT(t) || IsUnsignedIntT(t); }
constexpr bool IsFloatT(ElementType t) {
  return t >= ElementType::kF4E2M1FN && t <= ElementType::kF64;
}
constexpr bool IsComplexT(ElementType t) {
  return t == ElementType::kC64 || t == ElementType::kC128;
}
constexpr ElementType ComponentT(ElementType t) {
  return t == ElementType::kC64 ? ElementType::kF32 : t == ElementType::kC128 ? ElementType::kF64 : t;
}
constexpr ElementType ComplexOfT(ElementType t) {
  return t == ElementType::kF32 ? ElementType::kC64 : ElementType::kC128;
}

}  // namespace plugrt::cpu::kernels

#endif  // PLUGRT_CPU_KERNELS_ELEMENT_CLASSES_H_
