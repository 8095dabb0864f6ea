// plugrt StableHLO: the element types of tensors, shared by the IR, the
// verifier and the CPU kernels.
#ifndef PLUGRT_STABLEHLO_ELEMENT_TYPE_H_
#define PLUGRT_STABLEHLO_ELEMENT_TYPE_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "pjrt_c_api.h"

namespace plugrt::shlo {

// StableHLO's iN types are signless but behave as signed; they map to kSI*.
enum class ElementType : uint8_t {
  kI1,  // boolean
  kSI2, kSI4, kSI8, kSI16, kSI32, kSI64,
  kUI2, kUI4, kUI8, kUI16, kUI32, kUI64,
  kF4E2M1FN, kF6E2M3FN, kF6E3M2FN,
  kF8E3M4, kF8E4M3, kF8E4M3FN, kF8E4M3FNUZ, kF8E4M3B11FNUZ, kF8E5M2, kF8E5M2FNUZ, kF8E8M0FNU,
  kBF16, kF16, kF32, kF64,
  kC64, kC128,
};
inline constexpr int kNumElementTypes = static_cast<int>(ElementType::kC128) + 1;

// MLIR spelling: "i1", "i32" (signed kinds print as iN), "ui8", "f8E4M3FN",
// "bf16", "complex<f32>".
std::string_view ElementTypeName(ElementType type);
// Parses the MLIR spelling (also "si32" and "index"-free forms); nullopt if
// unknown.
std::optional<ElementType> ParseElementTypeName(std::string_view name);

// Bits of one element (i1: 1, complex<f32>: 64).
int BitWidth(ElementType type);
// Bytes one element takes in a cpu::Tensor (sub-byte kinds: 1; i1: 1).
int StorageBytes(ElementType type);

bool IsBoolean(ElementType type);
bool IsSignedInteger(ElementType type);    // kSI*
bool IsUnsignedInteger(ElementType type);  // kUI*
bool IsInteger(ElementType type);          // kSI* or kUI* (not i1)
bool IsFloat(ElementType type);            // every real floating kind
bool IsComplex(ElementType type);
// The real part's type of a complex type (kC64 -> kF32).
ElementType ComplexComponent(ElementType type);

// Conversions to and from the ABI's buffer types; nullopt where none exists.
std::optional<PJRT_Buffer_Type> ToPjrtType(ElementType type);
std::optional<ElementType> FromPjrtType(PJRT_Buffer_Type type);

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_ELEMENT_TYPE_H_
