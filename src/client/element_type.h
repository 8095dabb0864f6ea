// plugrt client: sizes of host arrays. Element type names, widths and kinds
// live in common/element_type.h (the one table), included here for callers.
#ifndef PLUGRT_CLIENT_ELEMENT_TYPE_H_
#define PLUGRT_CLIENT_ELEMENT_TYPE_H_

#include <cstdint>
#include <vector>

#include "common/element_type.h"

namespace plugrt {

// Number of elements of an array with these dimensions (1 for a scalar).
int64_t ElementCount(const std::vector<int64_t>& dims);

// Bytes of a dense row-major host array (one element per byte for sub-byte
// types).
int64_t HostByteSize(PJRT_Buffer_Type type, const std::vector<int64_t>& dims);

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_ELEMENT_TYPE_H_
