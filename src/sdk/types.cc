#include "sdk/types.h"

#include <limits>

namespace plugrt::sdk {

Layout Layout::RowMajor(size_t rank) {
  Layout layout;
  layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  layout.minor_to_major.reserve(rank);
  for (size_t i = rank; i > 0; --i) layout.minor_to_major.push_back(static_cast<int64_t>(i - 1));
  return layout;
}

bool Layout::IsRowMajor() const {
  if (type != PJRT_Buffer_MemoryLayout_Type_Tiled || !tiles.empty()) return false;
  const size_t rank = minor_to_major.size();
  for (size_t i = 0; i < rank; ++i) {
    if (minor_to_major[i] != static_cast<int64_t>(rank - 1 - i)) return false;
  }
  return true;
}

int ElementBitWidth(PJRT_Buffer_Type type) {
  switch (type) {
    case PJRT_Buffer_Type_INVALID:
    case PJRT_Buffer_Type_TOKEN:
      return 0;
    case PJRT_Buffer_Type_S1:
    case PJRT_Buffer_Type_U1:
      return 1;
    case PJRT_Buffer_Type_S2:
    case PJRT_Buffer_Type_U2:
      return 2;
    case PJRT_Buffer_Type_S4:
    case PJRT_Buffer_Type_U4:
    case PJRT_Buffer_Type_F4E2M1FN:
      return 4;
    case PJRT_Buffer_Type_PRED:
    case PJRT_Buffer_Type_S8:
    case PJRT_Buffer_Type_U8:
    case PJRT_Buffer_Type_F8E5M2:
    case PJRT_Buffer_Type_F8E4M3FN:
    case PJRT_Buffer_Type_F8E4M3B11FNUZ:
    case PJRT_Buffer_Type_F8E5M2FNUZ:
    case PJRT_Buffer_Type_F8E4M3FNUZ:
    case PJRT_Buffer_Type_F8E4M3:
    case PJRT_Buffer_Type_F8E3M4:
    case PJRT_Buffer_Type_F8E8M0FNU:
      return 8;
    case PJRT_Buffer_Type_S16:
    case PJRT_Buffer_Type_U16:
    case PJRT_Buffer_Type_F16:
    case PJRT_Buffer_Type_BF16:
      return 16;
    case PJRT_Buffer_Type_S32:
    case PJRT_Buffer_Type_U32:
    case PJRT_Buffer_Type_F32:
      return 32;
    case PJRT_Buffer_Type_S64:
    case PJRT_Buffer_Type_U64:
    case PJRT_Buffer_Type_F64:
    case PJRT_Buffer_Type_C64:
      return 64;
    case PJRT_Buffer_Type_C128:
      return 128;
  }
  return 0;  // a value outside the enum
}

std::string_view ElementTypeName(PJRT_Buffer_Type type) {
  switch (type) {
    case PJRT_Buffer_Type_INVALID: return "invalid";
    case PJRT_Buffer_Type_PRED: return "pred";
    case PJRT_Buffer_Type_S8: return "s8";
    case PJRT_Buffer_Type_S16: return "s16";
    case PJRT_Buffer_Type_S32: return "s32";
    case PJRT_Buffer_Type_S64: return "s64";
    case PJRT_Buffer_Type_U8: return "u8";
    case PJRT_Buffer_Type_U16: return "u16";
    case PJRT_Buffer_Type_U32: return "u32";
    case PJRT_Buffer_Type_U64: return "u64";
    case PJRT_Buffer_Type_F16: return "f16";
    case PJRT_Buffer_Type_F32: return "f32";
    case PJRT_Buffer_Type_F64: return "f64";
    case PJRT_Buffer_Type_BF16: return "bf16";
    case PJRT_Buffer_Type_C64: return "c64";
    case PJRT_Buffer_Type_C128: return "c128";
    case PJRT_Buffer_Type_F8E5M2: return "f8e5m2";
    case PJRT_Buffer_Type_F8E4M3FN: return "f8e4m3fn";
    case PJRT_Buffer_Type_F8E4M3B11FNUZ: return "f8e4m3b11fnuz";
    case PJRT_Buffer_Type_F8E5M2FNUZ: return "f8e5m2fnuz";
    case PJRT_Buffer_Type_F8E4M3FNUZ: return "f8e4m3fnuz";
    case PJRT_Buffer_Type_S4: return "s4";
    case PJRT_Buffer_Type_U4: return "u4";
    case PJRT_Buffer_Type_TOKEN: return "token";
    case PJRT_Buffer_Type_S2: return "s2";
    case PJRT_Buffer_Type_U2: return "u2";
    case PJRT_Buffer_Type_F8E4M3: return "f8e4m3";
    case PJRT_Buffer_Type_F8E3M4: return "f8e3m4";
    case PJRT_Buffer_Type_F8E8M0FNU: return "f8e8m0fnu";
    case PJRT_Buffer_Type_F4E2M1FN: return "f4e2m1fn";
    case PJRT_Buffer_Type_S1: return "s1";
    case PJRT_Buffer_Type_U1: return "u1";
  }
  return "unknown";
}

int64_t DenseByteSize(PJRT_Buffer_Type type, const std::vector<int64_t>& dims) {
  // Negative dimensions and sizes beyond int64 have no byte size: -1.
  const int64_t bits = ElementBitWidth(type);
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d < 0) return -1;
    if (d != 0 && count > kMax / d) return -1;
    count *= d;
  }
  if (count == 0 || bits == 0) return 0;
  if (count > (kMax - 7) / bits) return -1;
  return (count * bits + 7) / 8;
}

}  // namespace plugrt::sdk
