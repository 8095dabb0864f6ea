// plugrt client: an owning form of PJRT_Buffer_MemoryLayout.
#ifndef PLUGRT_CLIENT_LAYOUT_H_
#define PLUGRT_CLIENT_LAYOUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "pjrt_c_api.h"

namespace plugrt {

struct Layout {
  PJRT_Buffer_MemoryLayout_Type type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  // Tiled: dimension numbers from most minor to most major, and tiles (each a
  // list of tile dimensions; empty for an untiled layout).
  std::vector<int64_t> minor_to_major;
  std::vector<std::vector<int64_t>> tiles;
  // Strides: the byte stride of each dimension.
  std::vector<int64_t> byte_strides;

  static Layout RowMajor(size_t rank);     // minor_to_major = rank-1 ... 0
  static Layout ColumnMajor(size_t rank);  // minor_to_major = 0 ... rank-1
  static Layout Strided(std::vector<int64_t> byte_strides);

  // "{1,0}", "{0,1:T(2,2)}" or "strides{8,4}".
  std::string ToString() const;
  friend bool operator==(const Layout&, const Layout&) = default;

  // Copies a layout a plugin returned (the plugin's arrays are only valid
  // until its next call on the buffer).
  static Layout FromC(const PJRT_Buffer_MemoryLayout& c);
};

// A PJRT_Buffer_MemoryLayout pointing into a Layout (and flattened tile
// storage owned here). Valid while both this and the Layout live unchanged.
class CLayoutView {
 public:
  explicit CLayoutView(const Layout& layout);
  CLayoutView(const CLayoutView&) = delete;
  CLayoutView& operator=(const CLayoutView&) = delete;
  PJRT_Buffer_MemoryLayout* get() { return &c_; }

 private:
  std::vector<int64_t> tile_dims_;
  std::vector<size_t> tile_dim_sizes_;
  PJRT_Buffer_MemoryLayout c_;
};

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_LAYOUT_H_
