#include "cpu/host_transfer.h"

#include <cstring>
#include <string>

#include "cpu/kernels/strided_copy.h"

namespace plugrt::cpu {

namespace {

bool IsSignedPacked(PJRT_Buffer_Type type) {
  return type == PJRT_Buffer_Type_S1 || type == PJRT_Buffer_Type_S2 || type == PJRT_Buffer_Type_S4;
}

std::string DimsToString(const std::vector<int64_t>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(values[i]);
  }
  return out + "]";
}

// Copies every element of an array of shape `dims` between two layouts given
// in byte strides (PJRT's), through the kernels' StridedCopy: in element
// strides where every stride is a whole number of elements, else as bytes
// with the element's bytes an innermost dimension of their own.
void CopyByteStrided(size_t element_bytes, const std::vector<int64_t>& dims, const char* src,
                     const std::vector<int64_t>& src_strides, char* dst,
                     const std::vector<int64_t>& dst_strides) {
  const int64_t eb = static_cast<int64_t>(element_bytes);
  bool whole = true;
  for (size_t k = 0; k < dims.size(); ++k) {
    whole = whole && src_strides[k] % eb == 0 && dst_strides[k] % eb == 0;
  }
  std::vector<int64_t> box = dims, from = src_strides, to = dst_strides;
  if (whole) {
    for (int64_t& stride : from) stride /= eb;
    for (int64_t& stride : to) stride /= eb;
  } else {
    box.push_back(eb);
    from.push_back(1);
    to.push_back(1);
  }
  StridedCopy(reinterpret_cast<const std::byte*>(src), from, reinterpret_cast<std::byte*>(dst), to,
              box, whole ? static_cast<int>(eb) : 1);
}

void Pack(const ElementFormat& format, const uint8_t* src, int64_t count, uint8_t* dst) {
  const int bits = format.bits;
  const uint8_t mask = static_cast<uint8_t>((1u << bits) - 1u);
  std::memset(dst, 0, DeviceByteSize(format, count));
  for (int64_t i = 0; i < count; ++i) {
    const int64_t bit = i * bits;
    dst[bit / 8] |= static_cast<uint8_t>((src[i] & mask) << (bit % 8));
  }
}

void Unpack(const ElementFormat& format, const uint8_t* src, int64_t count, uint8_t* dst) {
  const int bits = format.bits;
  const uint8_t mask = static_cast<uint8_t>((1u << bits) - 1u);
  const uint8_t sign_bit = static_cast<uint8_t>(1u << (bits - 1));
  for (int64_t i = 0; i < count; ++i) {
    const int64_t bit = i * bits;
    uint8_t value = static_cast<uint8_t>((src[bit / 8] >> (bit % 8)) & mask);
    if (format.sign_extend && (value & sign_bit)) value |= static_cast<uint8_t>(~mask);
    dst[i] = value;
  }
}

int64_t CountOf(const std::vector<int64_t>& dims) {
  int64_t count = 1;
  for (int64_t dim : dims) count *= dim;
  return count;
}

}  // namespace

StatusOr<ElementFormat> GetElementFormat(PJRT_Buffer_Type type) {
  const int bits = sdk::ElementBitWidth(type);
  if (bits <= 0 || (bits < 8 && 8 % bits != 0) || (bits >= 8 && bits % 8 != 0)) {
    return InvalidArgument("element type ", sdk::ElementTypeName(type), " (",
                           static_cast<int>(type), ") cannot be held in a buffer");
  }
  ElementFormat format;
  format.type = type;
  format.bits = bits;
  format.packed = bits < 8;
  format.host_bytes = format.packed ? 1 : static_cast<size_t>(bits / 8);
  format.sign_extend = IsSignedPacked(type);
  return format;
}

StatusOr<int64_t> ElementCount(const std::vector<int64_t>& dims) {
  // Bounded well below int64 so byte sizes (up to 16 bytes per element) and
  // stride products cannot overflow either.
  constexpr int64_t kMaxElements = int64_t{1} << 56;
  int64_t count = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      return InvalidArgument("dimension ", i, " has negative size ", dims[i], " in shape ",
                             DimsToString(dims));
    }
    if (dims[i] != 0 && count > kMaxElements / dims[i]) {
      return InvalidArgument("shape ", DimsToString(dims), " has too many elements");
    }
    count *= dims[i];
  }
  return count;
}

size_t DeviceByteSize(const ElementFormat& format, int64_t count) {
  return static_cast<size_t>((count * format.bits + 7) / 8);
}

std::vector<int64_t> DenseHostStrides(const ElementFormat& format,
                                      const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size());
  int64_t stride = static_cast<int64_t>(format.host_bytes);
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= dims[i] == 0 ? 1 : dims[i];
  }
  return strides;
}

Status CheckHostStrides(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides) {
  if (strides.size() != dims.size()) {
    return InvalidArgument("byte_strides has ", strides.size(), " entries but the array has rank ",
                           dims.size(), " (shape ", DimsToString(dims), ")");
  }
  // Any stride, negative and zero included, reads valid host memory as long
  // as the caller's array covers it; that we cannot check.
  return OkStatus();
}

bool IsDenseRowMajor(const ElementFormat& format, const std::vector<int64_t>& dims,
                     const std::vector<int64_t>& strides) {
  if (strides.size() != dims.size()) return false;
  const std::vector<int64_t> dense = DenseHostStrides(format, dims);
  for (size_t i = 0; i < dims.size(); ++i) {
    // A dimension of size 0 or 1 is never stepped, so its stride is moot.
    if (dims[i] > 1 && strides[i] != dense[i]) return false;
  }
  return true;
}

namespace {
bool TilesAreTrivial(const std::vector<std::vector<int64_t>>& tiles) {
  for (const auto& tile : tiles) {
    for (int64_t dim : tile) {
      if (dim != 1) return false;
    }
  }
  return true;
}

std::string TilesToString(const std::vector<std::vector<int64_t>>& tiles) {
  std::string out;
  for (const auto& tile : tiles) {
    std::string dims = DimsToString(tile);
    out += "(" + dims.substr(1, dims.size() - 2) + ")";
  }
  return out;
}
}  // namespace

bool IsRowMajorLayout(const sdk::Layout& layout, size_t rank) {
  if (layout.type != PJRT_Buffer_MemoryLayout_Type_Tiled) return false;
  if (layout.minor_to_major.size() != rank) return false;
  for (size_t i = 0; i < rank; ++i) {
    if (layout.minor_to_major[i] != static_cast<int64_t>(rank - 1 - i)) return false;
  }
  return TilesAreTrivial(layout.tiles);
}

StatusOr<std::vector<int64_t>> HostStridesForLayout(const ElementFormat& format,
                                                    const std::vector<int64_t>& dims,
                                                    const sdk::Layout* layout) {
  const size_t rank = dims.size();
  if (layout == nullptr) return DenseHostStrides(format, dims);
  if (layout->type == PJRT_Buffer_MemoryLayout_Type_Strides) {
    if (layout->byte_strides.size() != rank) {
      return InvalidArgument("host layout has ", layout->byte_strides.size(),
                             " byte strides but the array has rank ", rank);
    }
    for (size_t i = 0; i < rank; ++i) {
      if (layout->byte_strides[i] < 0) {
        return InvalidArgument("host layout byte stride ", layout->byte_strides[i],
                               " of dimension ", i,
                               " is negative; a destination is addressed from its start");
      }
    }
    return layout->byte_strides;
  }
  if (layout->type != PJRT_Buffer_MemoryLayout_Type_Tiled) {
    return InvalidArgument("unknown host layout type ", static_cast<int>(layout->type));
  }
  const std::vector<int64_t>& order = layout->minor_to_major;
  if (order.size() != rank) {
    return InvalidArgument("host layout minor_to_major ", DimsToString(order), " has ",
                           order.size(), " entries but the array has rank ", rank);
  }
  std::vector<bool> seen(rank, false);
  for (int64_t axis : order) {
    if (axis < 0 || axis >= static_cast<int64_t>(rank) || seen[axis]) {
      return InvalidArgument("host layout minor_to_major ", DimsToString(order),
                             " is not a permutation of 0..", rank == 0 ? 0 : rank - 1);
    }
    seen[axis] = true;
  }
  if (!TilesAreTrivial(layout->tiles)) {
    return Unimplemented("ToHostBuffer into a tiled host layout (tiles ",
                         TilesToString(layout->tiles),
                         ") is not supported; only untiled layouts are");
  }
  std::vector<int64_t> strides(rank);
  int64_t stride = static_cast<int64_t>(format.host_bytes);
  for (int64_t axis : order) {
    strides[axis] = stride;
    stride *= dims[axis] == 0 ? 1 : dims[axis];
  }
  return strides;
}

size_t HostSpan(const ElementFormat& format, const std::vector<int64_t>& dims,
                const std::vector<int64_t>& strides) {
  int64_t last = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 0) return 0;
    last += (dims[i] - 1) * strides[i];
  }
  return static_cast<size_t>(last) + format.host_bytes;
}

void CopyHostToDevice(const ElementFormat& format, const std::vector<int64_t>& dims,
                      const void* src, const std::vector<int64_t>& src_strides, void* dst) {
  const int64_t count = CountOf(dims);
  const char* in = static_cast<const char*>(src);
  if (!format.packed) {
    const std::vector<int64_t> dense = DenseHostStrides(format, dims);
    if (IsDenseRowMajor(format, dims, src_strides)) {
      std::memcpy(dst, in, static_cast<size_t>(count) * format.host_bytes);
    } else {
      CopyByteStrided(format.host_bytes, dims, in, src_strides, static_cast<char*>(dst), dense);
    }
    return;
  }
  // Sub-byte: gather to one byte per element, then pack.
  if (IsDenseRowMajor(format, dims, src_strides)) {
    Pack(format, reinterpret_cast<const uint8_t*>(in), count, static_cast<uint8_t*>(dst));
    return;
  }
  std::vector<uint8_t> gathered(static_cast<size_t>(count));
  CopyByteStrided(1, dims, in, src_strides, reinterpret_cast<char*>(gathered.data()),
                  DenseHostStrides(format, dims));
  Pack(format, gathered.data(), count, static_cast<uint8_t*>(dst));
}

void CopyDeviceToHost(const ElementFormat& format, const std::vector<int64_t>& dims,
                      const void* src, void* dst, const std::vector<int64_t>& dst_strides) {
  const int64_t count = CountOf(dims);
  char* out = static_cast<char*>(dst);
  const std::vector<int64_t> dense = DenseHostStrides(format, dims);
  if (!format.packed) {
    if (IsDenseRowMajor(format, dims, dst_strides)) {
      std::memcpy(out, src, static_cast<size_t>(count) * format.host_bytes);
    } else {
      CopyByteStrided(format.host_bytes, dims, static_cast<const char*>(src), dense, out,
                      dst_strides);
    }
    return;
  }
  if (IsDenseRowMajor(format, dims, dst_strides)) {
    Unpack(format, static_cast<const uint8_t*>(src), count, reinterpret_cast<uint8_t*>(out));
    return;
  }
  std::vector<uint8_t> unpacked(static_cast<size_t>(count));
  Unpack(format, static_cast<const uint8_t*>(src), count, unpacked.data());
  CopyByteStrided(1, dims, reinterpret_cast<const char*>(unpacked.data()), dense, out, dst_strides);
}

}  // namespace plugrt::cpu
