#include "sdk/api_shapes.h"

#include <cstring>
#include <string>

namespace plugrt::sdk {

StatusOr<std::vector<int64_t>> DimsFromC(const int64_t* dims, size_t count, const Call& call,
                                         const char* field) {
  PLUGRT_RETURN_IF_ERROR(call.Array(dims, count, field));
  std::vector<int64_t> result;
  if (count == 0) return result;
  result.assign(dims, dims + count);
  for (size_t i = 0; i < count; ++i) {
    if (result[i] < 0) return call.Invalid(field, "[", i, "] is negative (", result[i], ")");
  }
  return result;
}

Status CheckArrayElementType(const PJRT_Buffer_Type& type, const Call& call, const char* field) {
  const int64_t raw = RawEnum(type);
  if (raw < PJRT_Buffer_Type_INVALID || raw > PJRT_Buffer_Type_U1) {
    return call.Invalid(field, " has the unknown value ", raw);
  }
  if (ElementBitWidth(type) == 0) {
    return call.Invalid(field, " (", ElementTypeName(type), ") is not an array element type");
  }
  return OkStatus();
}

StatusOr<Layout> LayoutFromC(const PJRT_Buffer_MemoryLayout* c_layout, const Call& call,
                             const char* field) {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_MemoryLayout in, ReadNested(c_layout, call.fn(), field));
  return CheckedLayoutFromC(in, StrCat(call.fn(), ": ", field));
}

}  // namespace plugrt::sdk
