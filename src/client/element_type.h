// plugrt client: names and sizes of PJRT element types, for printing and
// for parsing user input (the CLI, test tables).
#ifndef PLUGRT_CLIENT_ELEMENT_TYPE_H_
#define PLUGRT_CLIENT_ELEMENT_TYPE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

// Canonical lower-case name: "pred", "s4", "f32", "bf16", "f8e4m3fn", "token",
// "invalid"; "unknown" for values outside the enum.
std::string_view ElementTypeName(PJRT_Buffer_Type type);

// The type called `name` (case-insensitive); INVALID_ARGUMENT otherwise.
StatusOr<PJRT_Buffer_Type> ParseElementType(std::string_view name);

// Bits of one element as stored on a device (packed sub-byte types report
// 1, 2 or 4); 0 for INVALID, TOKEN and unknown values.
int ElementBitWidth(PJRT_Buffer_Type type);

// Bytes of one element in a host buffer: sub-byte types take one whole byte
// per element on the host; 0 where ElementBitWidth is 0.
int64_t HostElementByteSize(PJRT_Buffer_Type type);

// Number of elements of an array with these dimensions (1 for a scalar).
int64_t ElementCount(const std::vector<int64_t>& dims);

// Bytes of a dense row-major host array (one element per byte for sub-byte
// types).
int64_t HostByteSize(PJRT_Buffer_Type type, const std::vector<int64_t>& dims);

// Every valid element type of the ABI (excludes INVALID; includes TOKEN).
const std::vector<PJRT_Buffer_Type>& AllElementTypes();

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_ELEMENT_TYPE_H_
