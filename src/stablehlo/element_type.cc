#include "stablehlo/element_type.h"

#include <vector>

namespace plugrt::shlo {
namespace {

struct TypeInfo {
  ElementType type;
  std::string_view name;
  int bits;
  PJRT_Buffer_Type pjrt;  // PJRT_Buffer_Type_INVALID: none
};

// One row per ElementType, in enum order.
constexpr TypeInfo kTypes[] = {
    {ElementType::kI1, "i1", 1, PJRT_Buffer_Type_PRED},
    {ElementType::kSI2, "i2", 2, PJRT_Buffer_Type_S2},
    {ElementType::kSI4, "i4", 4, PJRT_Buffer_Type_S4},
    {ElementType::kSI8, "i8", 8, PJRT_Buffer_Type_S8},
    {ElementType::kSI16, "i16", 16, PJRT_Buffer_Type_S16},
    {ElementType::kSI32, "i32", 32, PJRT_Buffer_Type_S32},
    {ElementType::kSI64, "i64", 64, PJRT_Buffer_Type_S64},
    {ElementType::kUI2, "ui2", 2, PJRT_Buffer_Type_U2},
    {ElementType::kUI4, "ui4", 4, PJRT_Buffer_Type_U4},
    {ElementType::kUI8, "ui8", 8, PJRT_Buffer_Type_U8},
    {ElementType::kUI16, "ui16", 16, PJRT_Buffer_Type_U16},
    {ElementType::kUI32, "ui32", 32, PJRT_Buffer_Type_U32},
    {ElementType::kUI64, "ui64", 64, PJRT_Buffer_Type_U64},
    {ElementType::kF4E2M1FN, "f4E2M1FN", 4, PJRT_Buffer_Type_F4E2M1FN},
    {ElementType::kF6E2M3FN, "f6E2M3FN", 6, PJRT_Buffer_Type_INVALID},
    {ElementType::kF6E3M2FN, "f6E3M2FN", 6, PJRT_Buffer_Type_INVALID},
    {ElementType::kF8E3M4, "f8E3M4", 8, PJRT_Buffer_Type_F8E3M4},
    {ElementType::kF8E4M3, "f8E4M3", 8, PJRT_Buffer_Type_F8E4M3},
    {ElementType::kF8E4M3FN, "f8E4M3FN", 8, PJRT_Buffer_Type_F8E4M3FN},
    {ElementType::kF8E4M3FNUZ, "f8E4M3FNUZ", 8, PJRT_Buffer_Type_F8E4M3FNUZ},
    {ElementType::kF8E4M3B11FNUZ, "f8E4M3B11FNUZ", 8, PJRT_Buffer_Type_F8E4M3B11FNUZ},
    {ElementType::kF8E5M2, "f8E5M2", 8, PJRT_Buffer_Type_F8E5M2},
    {ElementType::kF8E5M2FNUZ, "f8E5M2FNUZ", 8, PJRT_Buffer_Type_F8E5M2FNUZ},
    {ElementType::kF8E8M0FNU, "f8E8M0FNU", 8, PJRT_Buffer_Type_F8E8M0FNU},
    {ElementType::kBF16, "bf16", 16, PJRT_Buffer_Type_BF16},
    {ElementType::kF16, "f16", 16, PJRT_Buffer_Type_F16},
    {ElementType::kF32, "f32", 32, PJRT_Buffer_Type_F32},
    {ElementType::kF64, "f64", 64, PJRT_Buffer_Type_F64},
    {ElementType::kC64, "complex<f32>", 64, PJRT_Buffer_Type_C64},
    {ElementType::kC128, "complex<f64>", 128, PJRT_Buffer_Type_C128},
};
static_assert(sizeof(kTypes) / sizeof(kTypes[0]) == kNumElementTypes);

const TypeInfo& Info(ElementType type) { return kTypes[static_cast<int>(type)]; }

}  // namespace

std::string_view ElementTypeName(ElementType type) { return Info(type).name; }

std::optional<ElementType> ParseElementTypeName(std::string_view name) {
  for (const TypeInfo& info : kTypes) {
    if (info.name == name) return info.type;
  }
  // Explicitly signed spellings.
  if (name.size() > 2 && name.substr(0, 2) == "si") {
    auto signless = ParseElementTypeName(name.substr(1));
    if (signless && IsSignedInteger(*signless)) return signless;
  }
  return std::nullopt;
}

int BitWidth(ElementType type) { return Info(type).bits; }

int StorageBytes(ElementType type) {
  int bits = Info(type).bits;
  return bits < 8 ? 1 : bits / 8;
}

bool IsBoolean(ElementType type) { return type == ElementType::kI1; }
bool IsSignedInteger(ElementType type) {
  return type >= ElementType::kSI2 && type <= ElementType::kSI64;
}
bool IsUnsignedInteger(ElementType type) {
  return type >= ElementType::kUI2 && type <= ElementType::kUI64;
}
bool IsInteger(ElementType type) { return IsSignedInteger(type) || IsUnsignedInteger(type); }
bool IsFloat(ElementType type) {
  return type >= ElementType::kF4E2M1FN && type <= ElementType::kF64;
}
bool IsComplex(ElementType type) { return type == ElementType::kC64 || type == ElementType::kC128; }
ElementType ComplexComponent(ElementType type) {
  return type == ElementType::kC128 ? ElementType::kF64 : ElementType::kF32;
}

std::optional<PJRT_Buffer_Type> ToPjrtType(ElementType type) {
  PJRT_Buffer_Type pjrt = Info(type).pjrt;
  if (pjrt == PJRT_Buffer_Type_INVALID) return std::nullopt;
  return pjrt;
}

std::optional<ElementType> FromPjrtType(PJRT_Buffer_Type type) {
  // An inverse table built once: this runs for every argument of every
  // execution.
  static const auto* inverse = [] {
    auto* table = new std::vector<std::optional<ElementType>>();
    for (const TypeInfo& info : kTypes) {
      if (info.pjrt == PJRT_Buffer_Type_INVALID) continue;
      const size_t index = static_cast<size_t>(info.pjrt);
      if (table->size() <= index) table->resize(index + 1);
      if (!(*table)[index]) (*table)[index] = info.type;
    }
    return table;
  }();
  const auto index = static_cast<size_t>(type);
  if (type == PJRT_Buffer_Type_INVALID || index >= inverse->size()) return std::nullopt;
  return (*inverse)[index];
}

}  // namespace plugrt::shlo
