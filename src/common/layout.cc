// plugrt: Layout and its C conversions (see layout.h).
#include "common/layout.h"

#include <cstring>
#include <sstream>
#include <type_traits>

namespace plugrt {

Layout Layout::RowMajor(size_t rank) {
  Layout layout;
  layout.minor_to_major.reserve(rank);
  for (size_t i = rank; i > 0; --i) layout.minor_to_major.push_back(static_cast<int64_t>(i - 1));
  return layout;
}

Layout Layout::ColumnMajor(size_t rank) {
  Layout layout;
  for (size_t i = 0; i < rank; ++i) layout.minor_to_major.push_back(static_cast<int64_t>(i));
  return layout;
}

Layout Layout::Strided(std::vector<int64_t> byte_strides) {
  Layout layout;
  layout.type = PJRT_Buffer_MemoryLayout_Type_Strides;
  layout.byte_strides = std::move(byte_strides);
  return layout;
}

bool Layout::IsRowMajor() const {
  if (type != PJRT_Buffer_MemoryLayout_Type_Tiled || !tiles.empty()) return false;
  const size_t rank = minor_to_major.size();
  for (size_t i = 0; i < rank; ++i) {
    if (minor_to_major[i] != static_cast<int64_t>(rank - 1 - i)) return false;
  }
  return true;
}

std::string Layout::ToString() const {
  std::ostringstream out;
  auto list = [&out](const std::vector<int64_t>& values) {
    for (size_t i = 0; i < values.size(); ++i) out << (i ? "," : "") << values[i];
  };
  if (type == PJRT_Buffer_MemoryLayout_Type_Strides) {
    out << "strides{";
    list(byte_strides);
    out << "}";
    return out.str();
  }
  out << "{";
  list(minor_to_major);
  if (!tiles.empty()) {
    out << ":";
    for (const auto& tile : tiles) {
      out << "T(";
      list(tile);
      out << ")";
    }
  }
  out << "}";
  return out.str();
}

Layout Layout::FromC(const PJRT_Buffer_MemoryLayout& c) {
  Layout layout;
  layout.type = c.type;
  if (c.type == PJRT_Buffer_MemoryLayout_Type_Strides) {
    if (c.strides.byte_strides != nullptr) {
      layout.byte_strides.assign(c.strides.byte_strides,
                                 c.strides.byte_strides + c.strides.num_byte_strides);
    }
    return layout;
  }
  const PJRT_Buffer_MemoryLayout_Tiled& t = c.tiled;
  if (t.minor_to_major != nullptr) {
    layout.minor_to_major.assign(t.minor_to_major, t.minor_to_major + t.minor_to_major_size);
  }
  if (t.num_tiles > 0 && t.tile_dims != nullptr && t.tile_dim_sizes != nullptr) {
    const int64_t* dims = t.tile_dims;
    for (size_t i = 0; i < t.num_tiles; ++i) {
      layout.tiles.emplace_back(dims, dims + t.tile_dim_sizes[i]);
      dims += t.tile_dim_sizes[i];
    }
  }
  return layout;
}

namespace {

Status NullArray(const void* p, size_t count, std::string_view where, std::string_view field) {
  if (p == nullptr && count > 0) {
    return InvalidArgument(where, ".", field, " is null but its size is ", count);
  }
  return OkStatus();
}

Status NestedSize(size_t declared, size_t minimum, std::string_view where,
                  std::string_view member, std::string_view struct_name) {
  if (declared >= minimum) return OkStatus();
  return InvalidArgument(where, ".", member, ": ", struct_name, ".struct_size is ", declared,
                         ", smaller than the ", minimum, " bytes of its original fields");
}

}  // namespace

StatusOr<Layout> CheckedLayoutFromC(const PJRT_Buffer_MemoryLayout& c, std::string_view where) {
  // A C caller may store any integer in the enum field: read its bits.
  std::underlying_type_t<PJRT_Buffer_MemoryLayout_Type> raw;
  std::memcpy(&raw, &c.type, sizeof(raw));
  Layout layout;
  if (raw == PJRT_Buffer_MemoryLayout_Type_Tiled) {
    const PJRT_Buffer_MemoryLayout_Tiled& t = c.tiled;
    PLUGRT_RETURN_IF_ERROR(NestedSize(t.struct_size, PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE,
                                      where, "tiled", "PJRT_Buffer_MemoryLayout_Tiled"));
    PLUGRT_RETURN_IF_ERROR(
        NullArray(t.minor_to_major, t.minor_to_major_size, where, "tiled.minor_to_major"));
    if (t.minor_to_major_size > 0) {
      layout.minor_to_major.assign(t.minor_to_major, t.minor_to_major + t.minor_to_major_size);
    }
    PLUGRT_RETURN_IF_ERROR(NullArray(t.tile_dim_sizes, t.num_tiles, where, "tiled.tile_dim_sizes"));
    size_t total = 0;
    for (size_t i = 0; i < t.num_tiles; ++i) total += t.tile_dim_sizes[i];
    PLUGRT_RETURN_IF_ERROR(NullArray(t.tile_dims, total, where, "tiled.tile_dims"));
    size_t offset = 0;
    for (size_t i = 0; i < t.num_tiles; ++i) {
      const int64_t* first = t.tile_dims + offset;
      layout.tiles.emplace_back(first, first + t.tile_dim_sizes[i]);
      offset += t.tile_dim_sizes[i];
    }
    return layout;
  }
  if (raw == PJRT_Buffer_MemoryLayout_Type_Strides) {
    const PJRT_Buffer_MemoryLayout_Strides& s = c.strides;
    PLUGRT_RETURN_IF_ERROR(NestedSize(s.struct_size, PJRT_Buffer_MemoryLayout_Strides_STRUCT_SIZE,
                                      where, "strides", "PJRT_Buffer_MemoryLayout_Strides"));
    PLUGRT_RETURN_IF_ERROR(
        NullArray(s.byte_strides, s.num_byte_strides, where, "strides.byte_strides"));
    layout.type = PJRT_Buffer_MemoryLayout_Type_Strides;
    if (s.num_byte_strides > 0) {
      layout.byte_strides.assign(s.byte_strides, s.byte_strides + s.num_byte_strides);
    }
    return layout;
  }
  return InvalidArgument(where, ".type has the unknown value ", static_cast<int64_t>(raw));
}

void LayoutToC(const Layout& layout, std::vector<int64_t>& tile_dims,
               std::vector<size_t>& tile_dim_sizes, PJRT_Buffer_MemoryLayout& out) {
  std::memset(static_cast<void*>(&out), 0, sizeof(out));
  out.struct_size = PJRT_Buffer_MemoryLayout_STRUCT_SIZE;
  out.type = layout.type;
  tile_dims.clear();
  tile_dim_sizes.clear();
  if (layout.type == PJRT_Buffer_MemoryLayout_Type_Strides) {
    out.strides.struct_size = PJRT_Buffer_MemoryLayout_Strides_STRUCT_SIZE;
    out.strides.byte_strides = layout.byte_strides.data();
    out.strides.num_byte_strides = layout.byte_strides.size();
    return;
  }
  for (const auto& tile : layout.tiles) {
    tile_dims.insert(tile_dims.end(), tile.begin(), tile.end());
    tile_dim_sizes.push_back(tile.size());
  }
  out.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
  out.tiled.minor_to_major = layout.minor_to_major.data();
  out.tiled.minor_to_major_size = layout.minor_to_major.size();
  out.tiled.tile_dims = tile_dims.empty() ? nullptr : tile_dims.data();
  out.tiled.tile_dim_sizes = tile_dim_sizes.empty() ? nullptr : tile_dim_sizes.data();
  out.tiled.num_tiles = tile_dim_sizes.size();
}

}  // namespace plugrt
