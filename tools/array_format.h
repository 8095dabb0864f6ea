// plugrt CLI: prints host arrays the way NumPy's repr does, e.g.
//   array([[1. , 2.5],
//          [3. , 4. ]], dtype=float32)
// with NumPy's defaults: 8 digits of precision, lines of 75 characters,
// arrays over 1000 elements summarised with their first and last 3 items.
#ifndef PLUGRT_TOOLS_ARRAY_FORMAT_H_
#define PLUGRT_TOOLS_ARRAY_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt::tools {

// `data` is a dense row-major host array (one element per byte for sub-byte
// types) of `size` bytes; INVALID_ARGUMENT if that does not fit the shape.
StatusOr<std::string> FormatArray(PJRT_Buffer_Type type, const std::vector<int64_t>& dims,
                                  const std::byte* data, size_t size);

// "f32[2,3]": the element type and shape in one word.
std::string ShapeString(PJRT_Buffer_Type type, const std::vector<int64_t>& dims);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_ARRAY_FORMAT_H_
