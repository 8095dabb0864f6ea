// plugrt: the one table of the ABI's element types (PJRT_Buffer_Type) and
// every fact about them that more than one layer needs: canonical name, bit
// width, kind, StableHLO spelling and NumPy dtype name. The client, the SDK,
// the StableHLO library and the CLI all read this table; none keeps its own.
#ifndef PLUGRT_COMMON_ELEMENT_TYPE_H_
#define PLUGRT_COMMON_ELEMENT_TYPE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

enum class ElementKind : uint8_t {
  kNone,  // INVALID and TOKEN: no values
  kBool,
  kSigned,
  kUnsigned,
  kFloat,
  kComplex,
};

struct ElementTypeInfo {
  PJRT_Buffer_Type type;
  // Canonical lower-case name: "pred", "s4", "f32", "bf16", "f8e4m3fn".
  std::string_view name;
  // Bits of one element on a device (sub-byte types packed: 1, 2 or 4; pred
  // takes 8); 0 for INVALID and TOKEN.
  int bits;
  ElementKind kind;
  // The MLIR/StableHLO element type spelling ("i1", "i32", "ui8",
  // "f8E4M3FN", "complex<f32>"); empty where none exists.
  std::string_view stablehlo;
  // The NumPy (or ml_dtypes) dtype name ("float32", "bfloat16", "int4");
  // empty where none exists.
  std::string_view numpy;
};

// Rows in enum order, so kElementTypes[t] describes t (checked below).
// Adding a PJRT element type is one row here.
inline constexpr ElementTypeInfo kElementTypes[] = {
    {PJRT_Buffer_Type_INVALID, "invalid", 0, ElementKind::kNone, "", ""},
    {PJRT_Buffer_Type_PRED, "pred", 8, ElementKind::kBool, "i1", "bool"},
    {PJRT_Buffer_Type_S8, "s8", 8, ElementKind::kSigned, "i8", "int8"},
    {PJRT_Buffer_Type_S16, "s16", 16, ElementKind::kSigned, "i16", "int16"},
    {PJRT_Buffer_Type_S32, "s32", 32, ElementKind::kSigned, "i32", "int32"},
    {PJRT_Buffer_Type_S64, "s64", 64, ElementKind::kSigned, "i64", "int64"},
    {PJRT_Buffer_Type_U8, "u8", 8, ElementKind::kUnsigned, "ui8", "uint8"},
    {PJRT_Buffer_Type_U16, "u16", 16, ElementKind::kUnsigned, "ui16", "uint16"},
    {PJRT_Buffer_Type_U32, "u32", 32, ElementKind::kUnsigned, "ui32", "uint32"},
    {PJRT_Buffer_Type_U64, "u64", 64, ElementKind::kUnsigned, "ui64", "uint64"},
    {PJRT_Buffer_Type_F16, "f16", 16, ElementKind::kFloat, "f16", "float16"},
    {PJRT_Buffer_Type_F32, "f32", 32, ElementKind::kFloat, "f32", "float32"},
    {PJRT_Buffer_Type_F64, "f64", 64, ElementKind::kFloat, "f64", "float64"},
    {PJRT_Buffer_Type_BF16, "bf16", 16, ElementKind::kFloat, "bf16", "bfloat16"},
    {PJRT_Buffer_Type_C64, "c64", 64, ElementKind::kComplex, "complex<f32>", "complex64"},
    {PJRT_Buffer_Type_C128, "c128", 128, ElementKind::kComplex, "complex<f64>", "complex128"},
    {PJRT_Buffer_Type_F8E5M2, "f8e5m2", 8, ElementKind::kFloat, "f8E5M2", "float8_e5m2"},
    {PJRT_Buffer_Type_F8E4M3FN, "f8e4m3fn", 8, ElementKind::kFloat, "f8E4M3FN", "float8_e4m3fn"},
    {PJRT_Buffer_Type_F8E4M3B11FNUZ, "f8e4m3b11fnuz", 8, ElementKind::kFloat, "f8E4M3B11FNUZ",
     "float8_e4m3b11fnuz"},
    {PJRT_Buffer_Type_F8E5M2FNUZ, "f8e5m2fnuz", 8, ElementKind::kFloat, "f8E5M2FNUZ",
     "float8_e5m2fnuz"},
    {PJRT_Buffer_Type_F8E4M3FNUZ, "f8e4m3fnuz", 8, ElementKind::kFloat, "f8E4M3FNUZ",
     "float8_e4m3fnuz"},
    {PJRT_Buffer_Type_S4, "s4", 4, ElementKind::kSigned, "i4", "int4"},
    {PJRT_Buffer_Type_U4, "u4", 4, ElementKind::kUnsigned, "ui4", "uint4"},
    {PJRT_Buffer_Type_TOKEN, "token", 0, ElementKind::kNone, "", ""},
    {PJRT_Buffer_Type_S2, "s2", 2, ElementKind::kSigned, "i2", "int2"},
    {PJRT_Buffer_Type_U2, "u2", 2, ElementKind::kUnsigned, "ui2", "uint2"},
    {PJRT_Buffer_Type_F8E4M3, "f8e4m3", 8, ElementKind::kFloat, "f8E4M3", "float8_e4m3"},
    {PJRT_Buffer_Type_F8E3M4, "f8e3m4", 8, ElementKind::kFloat, "f8E3M4", "float8_e3m4"},
    {PJRT_Buffer_Type_F8E8M0FNU, "f8e8m0fnu", 8, ElementKind::kFloat, "f8E8M0FNU",
     "float8_e8m0fnu"},
    {PJRT_Buffer_Type_F4E2M1FN, "f4e2m1fn", 4, ElementKind::kFloat, "f4E2M1FN", "float4_e2m1fn"},
    {PJRT_Buffer_Type_S1, "s1", 1, ElementKind::kSigned, "", "int1"},
    {PJRT_Buffer_Type_U1, "u1", 1, ElementKind::kUnsigned, "", "uint1"},
};
inline constexpr int kNumPjrtElementTypes = sizeof(kElementTypes) / sizeof(kElementTypes[0]);

constexpr bool ElementTableInEnumOrder() {
  for (int i = 0; i < kNumPjrtElementTypes; ++i) {
    if (static_cast<int>(kElementTypes[i].type) != i) return false;
  }
  return true;
}
static_assert(ElementTableInEnumOrder(), "kElementTypes rows must follow PJRT_Buffer_Type");
static_assert(kElementTypes[kNumPjrtElementTypes - 1].type == PJRT_Buffer_Type_U1,
              "a PJRT_Buffer_Type was added to the ABI: give it a row in kElementTypes");

// The row of `type`; nullptr for values outside the enum. The lookups take
// the enum's integer: C callers may pass any integer, and a C++ value of the
// enum type outside its enumerators' range would be undefined behaviour.
constexpr const ElementTypeInfo* FindElementType(int type) {
  if (type < 0 || type >= kNumPjrtElementTypes) return nullptr;
  return &kElementTypes[type];
}

// The row's name; "unknown" for values outside the enum.
constexpr std::string_view ElementTypeName(int type) {
  const ElementTypeInfo* info = FindElementType(type);
  return info == nullptr ? std::string_view("unknown") : info->name;
}

// The row's bits; 0 for INVALID, TOKEN and values outside the enum.
constexpr int ElementBitWidth(int type) {
  const ElementTypeInfo* info = FindElementType(type);
  return info == nullptr ? 0 : info->bits;
}

constexpr ElementKind KindOf(PJRT_Buffer_Type type) {
  const ElementTypeInfo* info = FindElementType(type);
  return info == nullptr ? ElementKind::kNone : info->kind;
}

// Bytes of one element in a host buffer: sub-byte types take one whole byte
// per element on the host; 0 where ElementBitWidth is 0.
constexpr int64_t HostElementByteSize(PJRT_Buffer_Type type) {
  const int bits = ElementBitWidth(type);
  if (bits == 0) return 0;
  return bits < 8 ? 1 : bits / 8;
}

// The NumPy/ml_dtypes dtype name; the canonical name where NumPy has none.
std::string_view NumpyTypeName(PJRT_Buffer_Type type);

// The type called `name` (canonical name, case-insensitive); INVALID_ARGUMENT
// otherwise.
StatusOr<PJRT_Buffer_Type> ParseElementType(std::string_view name);

// Bytes of a dense row-major device array: sub-byte types packed, the whole
// flattened array rounded up to whole bytes as one run. -1 for negative
// dimensions or sizes beyond int64.
int64_t DenseByteSize(PJRT_Buffer_Type type, const std::vector<int64_t>& dims);

// Every valid element type of the ABI (excludes INVALID; includes TOKEN).
const std::vector<PJRT_Buffer_Type>& AllElementTypes();

// Number of elements of an array with these dimensions (1 for a scalar).
int64_t ElementCount(const std::vector<int64_t>& dims);

// Bytes of a dense row-major host array (one element per byte for sub-byte
// types).
int64_t HostByteSize(PJRT_Buffer_Type type, const std::vector<int64_t>& dims);

}  // namespace plugrt

#endif  // PLUGRT_COMMON_ELEMENT_TYPE_H_
