#include "cpu/host_transfer.h"

#include <cstring>
#include <string>

namespace plugrt::cpu {

namespace {

bool IsSignedPacked(PJRT_Buffer_Type type) {
  return type == PJRT_Buffer_Type_S1 || type == PJRT_Buffer_Type_S2 ||
         type == PJRT_Buffer_Type_S4;
}

std::string DimsToString(const std::vector<int64_t>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(values[i]);
  }
  return out + "]";
}

// Copies `n` elements of N bytes; the element size is a template argument so
// each row loop compiles to plain loads and stores.
template <size_t N>
void CopyRowFixed(const char* src, int64_t src_stride, char* dst, int64_t dst_stride, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(dst + i * dst_stride, src + i * src_stride, N);
  }
}

using RowCopier = void (*)(const char*, int64_t, char*, int64_t, int64_t);

RowCopier PickRowCopier(size_t element_bytes) {
  switch (element_bytes) {
    case 1: return &CopyRowFixed<1>;
    case 2: return &CopyRowFixed<2>;
    case 4: return &CopyRowFixed<4>;
    case 8: return &CopyRowFixed<8>;
    case 16: return &CopyRowFixed<16>;
    default: return nullptr;
  }
}

// Copies every element of an array of shape `dims` from one strided layout
// to another. Offsets are kept as integers so that negative strides never
// form out-of-range pointers.
void StridedCopy(size_t element_bytes, const std::vector<int64_t>& dims, const char* src,
                 const std::vector<int64_t>& src_strides, char* dst,
                 const std::vector<int64_t>& dst_strides) {
  const size_t rank = dims.size();
  if (rank == 0) {
    std::memcpy(dst, src, element_bytes);
    return;
  }
  for (int64_t dim : dims) {
    if (dim == 0) return;
  }
  const int64_t row_length = dims[rank - 1];
  const int64_t src_inner = src_strides[rank - 1];
  const int64_t dst_inner = dst_strides[rank - 1];
  const int64_t elem = static_cast<int64_t>(element_bytes);
  const bool contiguous_rows = src_inner == elem && dst_inner == elem;
  RowCopier copier = PickRowCopier(element_bytes);

  std::vector<int64_t> index(rank, 0);
  int64_t src_offset = 0;
  int64_t dst_offset = 0;
  for (;;) {
    const char* s = src + src_offset;
    char* d = dst + dst_offset;
    if (contiguous_rows) {
      std::memcpy(d, s, static_cast<size_t>(row_length * elem));
    } else if (copier != nullptr) {
      copier(s, src_inner, d, dst_inner, row_length);
    } else {
      for (int64_t i = 0; i < row_length; ++i) {
        std::memcpy(d + i * dst_inner, s + i * src_inner, element_bytes);
      }
    }
    // Advance the outer dimensions like an odometer.
    int64_t axis = static_cast<int64_t>(rank) - 2;
    for (; axis >= 0; --axis) {
      ++index[axis];
      src_offset += src_strides[axis];
      dst_offset += dst_strides[axis];
      if (index[axis] < dims[axis]) break;
      src_offset -= src_strides[axis] * dims[axis];
      dst_offset -= dst_strides[axis] * dims[axis];
      index[axis] = 0;
    }
    if (axis < 0) return;
  }
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
      StridedCopy(format.host_bytes, dims, in, src_strides, static_cast<char*>(dst), dense);
    }
    return;
  }
  // Sub-byte: gather to one byte per element, then pack.
  if (IsDenseRowMajor(format, dims, src_strides)) {
    Pack(format, reinterpret_cast<const uint8_t*>(in), count, static_cast<uint8_t*>(dst));
    return;
  }
  std::vector<uint8_t> gathered(static_cast<size_t>(count));
  StridedCopy(1, dims, in, src_strides, reinterpret_cast<char*>(gathered.data()),
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
      StridedCopy(format.host_bytes, dims, static_cast<const char*>(src), dense, out, dst_strides);
    }
    return;
  }
  if (IsDenseRowMajor(format, dims, dst_strides)) {
    Unpack(format, static_cast<const uint8_t*>(src), count, reinterpret_cast<uint8_t*>(out));
    return;
  }
  std::vector<uint8_t> unpacked(static_cast<size_t>(count));
  Unpack(format, static_cast<const uint8_t*>(src), count, unpacked.data());
  StridedCopy(1, dims, reinterpret_cast<const char*>(unpacked.data()), dense, out, dst_strides);
}

}  // namespace plugrt::cpu
