// plugrt SDK: plain value types shared by the backend interfaces.
#ifndef PLUGRT_SDK_TYPES_H_
#define PLUGRT_SDK_TYPES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/memory_stats.h"
#include "common/named_value.h"
#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt::sdk {

// A named value as PJRT_NamedValue carries it, but owning its data.
using AttributeValue = NamedValueData;
using Attribute = NamedValue;
using Attributes = std::vector<Attribute>;
// FindNamedValue (common/named_value.h) looks one up by name.

// A buffer's memory layout, as PJRT_Buffer_MemoryLayout describes it.
struct Layout {
  PJRT_Buffer_MemoryLayout_Type type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  // Tiled layouts: dimension numbers from most minor to most major, and
  // optional tiles (each a list of tile dimensions).
  std::vector<int64_t> minor_to_major;
  std::vector<std::vector<int64_t>> tiles;
  // Strided layouts: the byte stride of each dimension.
  std::vector<int64_t> byte_strides;

  // Dense row-major layout of the given rank (minor_to_major = rank-1 ... 0).
  static Layout RowMajor(size_t rank);
  bool IsRowMajor() const;
};

using plugrt::MemoryStats;  // common/memory_stats.h

// Size in bits of one element of `type`; 0 for types without a fixed size
// (PJRT_Buffer_Type_INVALID, TOKEN).
int ElementBitWidth(PJRT_Buffer_Type type);
// Canonical lower-case name ("f32", "s4", "pred", "bf16", ...).
std::string_view ElementTypeName(PJRT_Buffer_Type type);
// Bytes of a dense row-major array; sub-byte types are packed, each row of
// the flattened array rounded up to whole bytes as a single run.
int64_t DenseByteSize(PJRT_Buffer_Type type, const std::vector<int64_t>& dims);

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_TYPES_H_
