// plugrt SDK: checked conversions of shapes and layouts between the C ABI
// and sdk types.
#ifndef PLUGRT_SDK_API_SHAPES_H_
#define PLUGRT_SDK_API_SHAPES_H_

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "pjrt_c_api.h"
#include "sdk/api_args.h"
#include "sdk/types.h"

namespace plugrt::sdk {

// Copies `count` dimensions; a null array with count > 0 or a negative
// dimension is INVALID_ARGUMENT naming `field`.
StatusOr<std::vector<int64_t>> DimsFromC(const int64_t* dims, size_t count, const Call& call,
                                         const char* field);

// Accepts only array element types with a size (not INVALID, TOKEN or
// values outside the enum). Takes the caller's field itself (see RawEnum).
Status CheckArrayElementType(const PJRT_Buffer_Type& type, const Call& call, const char* field);

// Reads a caller's layout: the struct-size rule (ReadNested), then
// CheckedLayoutFromC (common/layout.h).
StatusOr<Layout> LayoutFromC(const PJRT_Buffer_MemoryLayout* layout, const Call& call,
                             const char* field);
// Layout to C: LayoutToC in common/layout.h.

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_API_SHAPES_H_
