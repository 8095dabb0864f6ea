#include "client/layout.h"

#include <cstring>
#include <sstream>

namespace plugrt {

Layout Layout::RowMajor(size_t rank) {
  Layout layout;
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

CLayoutView::CLayoutView(const Layout& layout) {
  std::memset(&c_, 0, sizeof(c_));
  c_.struct_size = PJRT_Buffer_MemoryLayout_STRUCT_SIZE;
  c_.type = layout.type;
  if (layout.type == PJRT_Buffer_MemoryLayout_Type_Strides) {
    c_.strides.struct_size = PJRT_Buffer_MemoryLayout_Strides_STRUCT_SIZE;
    c_.strides.byte_strides = layout.byte_strides.data();
    c_.strides.num_byte_strides = layout.byte_strides.size();
    return;
  }
  for (const auto& tile : layout.tiles) {
    tile_dims_.insert(tile_dims_.end(), tile.begin(), tile.end());
    tile_dim_sizes_.push_back(tile.size());
  }
  c_.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
  c_.tiled.minor_to_major = layout.minor_to_major.data();
  c_.tiled.minor_to_major_size = layout.minor_to_major.size();
  c_.tiled.tile_dims = tile_dims_.empty() ? nullptr : tile_dims_.data();
  c_.tiled.tile_dim_sizes = tile_dim_sizes_.empty() ? nullptr : tile_dim_sizes_.data();
  c_.tiled.num_tiles = tile_dim_sizes_.size();
}

}  // namespace plugrt
