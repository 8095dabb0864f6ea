#include "stablehlo/element_type.h"

#include <array>
#include <vector>

#include "common/element_type.h"

namespace plugrt::shlo {
namespace {

// One row per ElementType, in enum order: its ABI type, whose row in
// common/element_type.h gives the spelling and width. Types the ABI lacks
// (the f6 formats) carry their own.
struct TypeRow {
  ElementType type;
  PJRT_Buffer_Type pjrt;  // PJRT_Buffer_Type_INVALID: none
  std::string_view own_name = {};
  int own_bits = 0;
};

constexpr TypeRow kRows[] = {
    {ElementType::kI1, PJRT_Buffer_Type_PRED},
    {ElementType::kSI2, PJRT_Buffer_Type_S2},
    {ElementType::kSI4, PJRT_Buffer_Type_S4},
    {ElementType::kSI8, PJRT_Buffer_Type_S8},
    {ElementType::kSI16, PJRT_Buffer_Type_S16},
    {ElementType::kSI32, PJRT_Buffer_Type_S32},
    {ElementType::kSI64, PJRT_Buffer_Type_S64},
    {ElementType::kUI2, PJRT_Buffer_Type_U2},
    {ElementType::kUI4, PJRT_Buffer_Type_U4},
    {ElementType::kUI8, PJRT_Buffer_Type_U8},
    {ElementType::kUI16, PJRT_Buffer_Type_U16},
    {ElementType::kUI32, PJRT_Buffer_Type_U32},
    {ElementType::kUI64, PJRT_Buffer_Type_U64},
    {ElementType::kF4E2M1FN, PJRT_Buffer_Type_F4E2M1FN},
    {ElementType::kF6E2M3FN, PJRT_Buffer_Type_INVALID, "f6E2M3FN", 6},
    {ElementType::kF6E3M2FN, PJRT_Buffer_Type_INVALID, "f6E3M2FN", 6},
    {ElementType::kF8E3M4, PJRT_Buffer_Type_F8E3M4},
    {ElementType::kF8E4M3, PJRT_Buffer_Type_F8E4M3},
    {ElementType::kF8E4M3FN, PJRT_Buffer_Type_F8E4M3FN},
    {ElementType::kF8E4M3FNUZ, PJRT_Buffer_Type_F8E4M3FNUZ},
    {ElementType::kF8E4M3B11FNUZ, PJRT_Buffer_Type_F8E4M3B11FNUZ},
    {ElementType::kF8E5M2, PJRT_Buffer_Type_F8E5M2},
    {ElementType::kF8E5M2FNUZ, PJRT_Buffer_Type_F8E5M2FNUZ},
    {ElementType::kF8E8M0FNU, PJRT_Buffer_Type_F8E8M0FNU},
    {ElementType::kBF16, PJRT_Buffer_Type_BF16},
    {ElementType::kF16, PJRT_Buffer_Type_F16},
    {ElementType::kF32, PJRT_Buffer_Type_F32},
    {ElementType::kF64, PJRT_Buffer_Type_F64},
    {ElementType::kC64, PJRT_Buffer_Type_C64},
    {ElementType::kC128, PJRT_Buffer_Type_C128},
};
static_assert(sizeof(kRows) / sizeof(kRows[0]) == kNumElementTypes);

struct TypeInfo {
  std::string_view name;
  int bits;
  PJRT_Buffer_Type pjrt;
};

constexpr TypeInfo Resolve(const TypeRow& row) {
  if (row.pjrt == PJRT_Buffer_Type_INVALID) return {row.own_name, row.own_bits, row.pjrt};
  const ElementTypeInfo& abi = *FindElementType(row.pjrt);
  // i1 holds one bit of value; the ABI stores pred in a whole byte.
  const int bits = abi.kind == ElementKind::kBool ? 1 : abi.bits;
  return {abi.stablehlo, bits, row.pjrt};
}

constexpr auto kTypes = [] {
  std::array<TypeInfo, kNumElementTypes> types{};
  for (int i = 0; i < kNumElementTypes; ++i) types[i] = Resolve(kRows[i]);
  return types;
}();

constexpr bool RowsAreComplete() {
  for (int i = 0; i < kNumElementTypes; ++i) {
    if (static_cast<int>(kRows[i].type) != i || kTypes[i].name.empty() || kTypes[i].bits == 0) {
      return false;
    }
  }
  return true;
}
static_assert(RowsAreComplete(), "every ElementType needs a row, in enum order, with a spelling");

const TypeInfo& Info(ElementType type) { return kTypes[static_cast<int>(type)]; }

}  // namespace

std::string_view ElementTypeName(ElementType type) { return Info(type).name; }

std::optional<ElementType> ParseElementTypeName(std::string_view name) {
  for (int i = 0; i < kNumElementTypes; ++i) {
    if (kTypes[i].name == name) return static_cast<ElementType>(i);
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

// The inverse of the table's PJRT column, by PJRT type (-1: none), built at
// compile time: this runs for every argument of every execution.
constexpr size_t kPjrtTypeSlots = 64;
constexpr auto kFromPjrt = [] {
  std::array<int8_t, kPjrtTypeSlots> table{};
  for (int8_t& slot : table) slot = -1;
  for (int i = 0; i < kNumElementTypes; ++i) {
    const auto index = static_cast<size_t>(kTypes[i].pjrt);
    if (kTypes[i].pjrt == PJRT_Buffer_Type_INVALID || table[index] != -1) continue;
    table[index] = static_cast<int8_t>(i);
  }
  return table;
}();
static_assert(kNumElementTypes < 128);

std::optional<ElementType> FromPjrtType(PJRT_Buffer_Type type) {
  const auto index = static_cast<size_t>(type);
  if (index >= kPjrtTypeSlots || kFromPjrt[index] < 0) return std::nullopt;
  return static_cast<ElementType>(kFromPjrt[index]);
}

}  // namespace plugrt::shlo
