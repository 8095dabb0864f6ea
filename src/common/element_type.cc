// plugrt: lookups over the element type table (see element_type.h).
#include "common/element_type.h"

#include <cctype>
#include <limits>
#include <string>

namespace plugrt {

std::string_view NumpyTypeName(PJRT_Buffer_Type type) {
  const ElementTypeInfo* info = FindElementType(type);
  if (info == nullptr) return "unknown";
  return info->numpy.empty() ? info->name : info->numpy;
}

StatusOr<PJRT_Buffer_Type> ParseElementType(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const ElementTypeInfo& info : kElementTypes) {
    if (info.type != PJRT_Buffer_Type_INVALID && info.name == lower) return info.type;
  }
  return InvalidArgument("unknown element type '", name, "'");
}

int64_t DenseByteSize(PJRT_Buffer_Type type, const std::vector<int64_t>& dims) {
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

const std::vector<PJRT_Buffer_Type>& AllElementTypes() {
  static const std::vector<PJRT_Buffer_Type> all = [] {
    std::vector<PJRT_Buffer_Type> types;
    for (const ElementTypeInfo& info : kElementTypes) {
      if (info.type != PJRT_Buffer_Type_INVALID) types.push_back(info.type);
    }
    return types;
  }();
  return all;
}

int64_t ElementCount(const std::vector<int64_t>& dims) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  return count;
}

int64_t HostByteSize(PJRT_Buffer_Type type, const std::vector<int64_t>& dims) {
  return ElementCount(dims) * HostElementByteSize(type);
}

}  // namespace plugrt
