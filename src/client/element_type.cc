#include "client/element_type.h"

#include <cctype>
#include <string>

namespace plugrt {
namespace {

struct TypeInfo {
  PJRT_Buffer_Type type;
  std::string_view name;
  int bits;
};

// Indexed by enum value; the static_assert below keeps it in step with the
// ABI's enum.
constexpr TypeInfo kTypes[] = {
    {PJRT_Buffer_Type_INVALID, "invalid", 0},
    {PJRT_Buffer_Type_PRED, "pred", 8},
    {PJRT_Buffer_Type_S8, "s8", 8},
    {PJRT_Buffer_Type_S16, "s16", 16},
    {PJRT_Buffer_Type_S32, "s32", 32},
    {PJRT_Buffer_Type_S64, "s64", 64},
    {PJRT_Buffer_Type_U8, "u8", 8},
    {PJRT_Buffer_Type_U16, "u16", 16},
    {PJRT_Buffer_Type_U32, "u32", 32},
    {PJRT_Buffer_Type_U64, "u64", 64},
    {PJRT_Buffer_Type_F16, "f16", 16},
    {PJRT_Buffer_Type_F32, "f32", 32},
    {PJRT_Buffer_Type_F64, "f64", 64},
    {PJRT_Buffer_Type_BF16, "bf16", 16},
    {PJRT_Buffer_Type_C64, "c64", 64},
    {PJRT_Buffer_Type_C128, "c128", 128},
    {PJRT_Buffer_Type_F8E5M2, "f8e5m2", 8},
    {PJRT_Buffer_Type_F8E4M3FN, "f8e4m3fn", 8},
    {PJRT_Buffer_Type_F8E4M3B11FNUZ, "f8e4m3b11fnuz", 8},
    {PJRT_Buffer_Type_F8E5M2FNUZ, "f8e5m2fnuz", 8},
    {PJRT_Buffer_Type_F8E4M3FNUZ, "f8e4m3fnuz", 8},
    {PJRT_Buffer_Type_S4, "s4", 4},
    {PJRT_Buffer_Type_U4, "u4", 4},
    {PJRT_Buffer_Type_TOKEN, "token", 0},
    {PJRT_Buffer_Type_S2, "s2", 2},
    {PJRT_Buffer_Type_U2, "u2", 2},
    {PJRT_Buffer_Type_F8E4M3, "f8e4m3", 8},
    {PJRT_Buffer_Type_F8E3M4, "f8e3m4", 8},
    {PJRT_Buffer_Type_F8E8M0FNU, "f8e8m0fnu", 8},
    {PJRT_Buffer_Type_F4E2M1FN, "f4e2m1fn", 4},
    {PJRT_Buffer_Type_S1, "s1", 1},
    {PJRT_Buffer_Type_U1, "u1", 1},
};
constexpr int kNumTypes = sizeof(kTypes) / sizeof(kTypes[0]);
static_assert(kTypes[kNumTypes - 1].type == kNumTypes - 1, "element type table out of order");

const TypeInfo* Find(PJRT_Buffer_Type type) {
  int index = static_cast<int>(type);
  if (index < 0 || index >= kNumTypes) return nullptr;
  return &kTypes[index];
}

}  // namespace

std::string_view ElementTypeName(PJRT_Buffer_Type type) {
  const TypeInfo* info = Find(type);
  return info == nullptr ? "unknown" : info->name;
}

StatusOr<PJRT_Buffer_Type> ParseElementType(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const TypeInfo& info : kTypes) {
    if (info.type != PJRT_Buffer_Type_INVALID && info.name == lower) return info.type;
  }
  return InvalidArgument("unknown element type '", name, "'");
}

int ElementBitWidth(PJRT_Buffer_Type type) {
  const TypeInfo* info = Find(type);
  return info == nullptr ? 0 : info->bits;
}

int64_t HostElementByteSize(PJRT_Buffer_Type type) {
  int bits = ElementBitWidth(type);
  if (bits == 0) return 0;
  return bits < 8 ? 1 : bits / 8;
}

int64_t ElementCount(const std::vector<int64_t>& dims) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  return count;
}

int64_t HostByteSize(PJRT_Buffer_Type type, const std::vector<int64_t>& dims) {
  return ElementCount(dims) * HostElementByteSize(type);
}

const std::vector<PJRT_Buffer_Type>& AllElementTypes() {
  static const std::vector<PJRT_Buffer_Type> all = [] {
    std::vector<PJRT_Buffer_Type> types;
    for (const TypeInfo& info : kTypes) {
      if (info.type != PJRT_Buffer_Type_INVALID) types.push_back(info.type);
    }
    return types;
  }();
  return all;
}

}  // namespace plugrt
