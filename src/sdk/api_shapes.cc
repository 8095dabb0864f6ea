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
  const int64_t type = RawEnum(in.type);
  if (type != PJRT_Buffer_MemoryLayout_Type_Tiled && type != PJRT_Buffer_MemoryLayout_Type_Strides) {
    return call.Invalid(field, ".type has the unknown value ", type);
  }
  Layout layout;
  layout.type = in.type;
  switch (in.type) {
    case PJRT_Buffer_MemoryLayout_Type_Tiled: {
      const std::string where = StrCat(field, ".tiled");
      PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_MemoryLayout_Tiled tiled,
                              ReadNested(&in.tiled, call.fn(), where.c_str()));
      PLUGRT_RETURN_IF_ERROR(call.Array(tiled.minor_to_major, tiled.minor_to_major_size,
                                        StrCat(where, ".minor_to_major").c_str()));
      if (tiled.minor_to_major_size > 0) {
        layout.minor_to_major.assign(tiled.minor_to_major,
                                     tiled.minor_to_major + tiled.minor_to_major_size);
      }
      PLUGRT_RETURN_IF_ERROR(call.Array(tiled.tile_dim_sizes, tiled.num_tiles,
                                        StrCat(where, ".tile_dim_sizes").c_str()));
      size_t total = 0;
      for (size_t i = 0; i < tiled.num_tiles; ++i) total += tiled.tile_dim_sizes[i];
      PLUGRT_RETURN_IF_ERROR(call.Array(tiled.tile_dims, total, StrCat(where, ".tile_dims").c_str()));
      size_t offset = 0;
      for (size_t i = 0; i < tiled.num_tiles; ++i) {
        const int64_t* first = tiled.tile_dims + offset;
        layout.tiles.emplace_back(first, first + tiled.tile_dim_sizes[i]);
        offset += tiled.tile_dim_sizes[i];
      }
      return layout;
    }
    case PJRT_Buffer_MemoryLayout_Type_Strides: {
      const std::string where = StrCat(field, ".strides");
      PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_MemoryLayout_Strides strides,
                              ReadNested(&in.strides, call.fn(), where.c_str()));
      PLUGRT_RETURN_IF_ERROR(call.Array(strides.byte_strides, strides.num_byte_strides,
                                        StrCat(where, ".byte_strides").c_str()));
      if (strides.num_byte_strides > 0) {
        layout.byte_strides.assign(strides.byte_strides,
                                   strides.byte_strides + strides.num_byte_strides);
      }
      return layout;
    }
  }
  return Internal(call.fn(), ": unreachable layout type");
}

void LayoutToC(const Layout& layout, std::vector<int64_t>& tile_dims,
               std::vector<size_t>& tile_dim_sizes, PJRT_Buffer_MemoryLayout& out) {
  std::memset(static_cast<void*>(&out), 0, sizeof(out));
  out.struct_size = PJRT_Buffer_MemoryLayout_STRUCT_SIZE;
  out.type = layout.type;
  if (layout.type == PJRT_Buffer_MemoryLayout_Type_Strides) {
    out.strides.struct_size = PJRT_Buffer_MemoryLayout_Strides_STRUCT_SIZE;
    out.strides.byte_strides = layout.byte_strides.data();
    out.strides.num_byte_strides = layout.byte_strides.size();
    return;
  }
  tile_dims.clear();
  tile_dim_sizes.clear();
  for (const auto& tile : layout.tiles) {
    tile_dims.insert(tile_dims.end(), tile.begin(), tile.end());
    tile_dim_sizes.push_back(tile.size());
  }
  out.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
  out.tiled.minor_to_major = layout.minor_to_major.data();
  out.tiled.minor_to_major_size = layout.minor_to_major.size();
  out.tiled.tile_dims = tile_dims.data();
  out.tiled.tile_dim_sizes = tile_dim_sizes.data();
  out.tiled.num_tiles = tile_dim_sizes.size();
}

}  // namespace plugrt::sdk
