// plugrt CPU backend: moving array data between host memory (any byte
// strides, any dimension order, one element per byte for sub-byte types) and
// device storage (dense row-major, sub-byte types packed).
#ifndef PLUGRT_CPU_HOST_TRANSFER_H_
#define PLUGRT_CPU_HOST_TRANSFER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/status.h"
#include "pjrt_c_api.h"
#include "sdk/types.h"
#include "profiler/recorder.h"

namespace plugrt::cpu {

// How one element type is held on each side.
struct ElementFormat {
  PJRT_Buffer_Type type = PJRT_Buffer_Type_INVALID;
  int bits = 0;           // on the device
  size_t host_bytes = 0;  // in host memory; 1 for sub-byte types (as NumPy holds int4)
  bool packed = false;    // fewer than 8 bits: several elements share a device byte
  bool sign_extend = false;  // signed packed integers widen with their sign on the host
};

// INVALID_ARGUMENT for types that have no array representation (TOKEN,
// INVALID, values outside the enum).
StatusOr<ElementFormat> GetElementFormat(PJRT_Buffer_Type type);

// Product of `dims`; INVALID_ARGUMENT for negative sizes or overflow.
StatusOr<int64_t> ElementCount(const std::vector<int64_t>& dims);

// Bytes the device representation of `count` elements takes: packed
// element 0 in the low bits of byte 0, rounded up to a whole byte.
size_t DeviceByteSize(const ElementFormat& format, int64_t count);

// Byte strides of a dense row-major host array.
std::vector<int64_t> DenseHostStrides(const ElementFormat& format,
                                      const std::vector<int64_t>& dims);

// Validates caller-given host byte strides (one per dimension; negative and
// zero strides are allowed for reading).
Status CheckHostStrides(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides);

// True when `strides` address the host array densely in row-major order.
bool IsDenseRowMajor(const ElementFormat& format, const std::vector<int64_t>& dims,
                     const std::vector<int64_t>& strides);

// True for a tiled layout with minor_to_major = rank-1 ... 0 and no tiling
// that changes the order of elements.
bool IsRowMajorLayout(const sdk::Layout& layout, size_t rank);

// Byte strides of a ToHost destination laid out as `layout` (row-major when
// null). Tiled layouts may order dimensions in any permutation; real tiling
// is UNIMPLEMENTED; strided layouts must not be negative.
StatusOr<std::vector<int64_t>> HostStridesForLayout(const ElementFormat& format,
                                                    const std::vector<int64_t>& dims,
                                                    const sdk::Layout* layout);

// Bytes from the start of a host array to the end of its last element
// (strides non-negative).
size_t HostSpan(const ElementFormat& format, const std::vector<int64_t>& dims,
                const std::vector<int64_t>& strides);

// A host transfer as the profiler sees it (profiler/recorder.h): one
// "transfer" event of `bytes` around the copy; nothing when not recording.
class TracedTransfer {
 public:
  TracedTransfer(std::string_view name, size_t bytes) : event_(profiler::category::kTransfer, name) {
    if (event_.active()) event_.AddStat(profiler::stat::kBytesWritten, static_cast<int64_t>(bytes));
  }

 private:
  profiler::ScopedEvent event_;
};

// `dst` holds DeviceByteSize bytes; `src` points at element (0, ..., 0).
void CopyHostToDevice(const ElementFormat& format, const std::vector<int64_t>& dims,
                      const void* src, const std::vector<int64_t>& src_strides, void* dst);
void CopyDeviceToHost(const ElementFormat& format, const std::vector<int64_t>& dims,
                      const void* src, void* dst, const std::vector<int64_t>& dst_strides);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_HOST_TRANSFER_H_
