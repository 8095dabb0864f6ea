// plugrt client: NumPy .npy files (format versions 1.0, 2.0 and 3.0) to and
// from dense host arrays of PJRT element types.
#ifndef PLUGRT_CLIENT_NPY_H_
#define PLUGRT_CLIENT_NPY_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

// A dense row-major array on the host, little-endian, one element per byte
// for sub-byte types (the layout PJRT host buffers use).
struct HostArray {
  PJRT_Buffer_Type type = PJRT_Buffer_Type_INVALID;
  std::vector<int64_t> dims;
  std::vector<std::byte> data;
};

// The element type a NumPy dtype string ('<f4', '|b1', '>i8', ...) stands
// for. Only dtypes whose meaning is unambiguous are accepted: the opaque
// void dtypes that ml_dtypes' bfloat16 and float8 types are saved as ('<V2')
// are refused with a message saying why.
StatusOr<PJRT_Buffer_Type> TypeFromNpyDescr(std::string_view descr);

// Parses the contents of a .npy file; `name` (the file) starts every error.
// Big-endian data is converted; Fortran order is refused unless it is the
// same as C order.
StatusOr<HostArray> ParseNpy(std::string_view bytes, std::string_view name);
// The file is read through the filesystem registry: any scheme
// (filesystem/registry.h).
StatusOr<HostArray> ReadNpyFile(const std::string& path);

// How an element type is saved: its own dtype where NumPy has one, else the
// NumPy type it widens to exactly (bf16/f8/f4 -> float32, sub-byte signed
// -> int8, sub-byte unsigned -> uint8). `widened` is set when it differs.
struct NpySaveType {
  std::string descr;            // e.g. "<f4"
  PJRT_Buffer_Type saved_type;  // the type the data is written as
  bool widened = false;
};
StatusOr<NpySaveType> NpySaveTypeFor(PJRT_Buffer_Type type);

// A .npy file (version 1.0, or 2.0 for very long headers) for `array`.
StatusOr<std::string> SerializeNpy(const HostArray& array);
Status WriteNpyFile(const std::string& path, const HostArray& array);

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_NPY_H_
