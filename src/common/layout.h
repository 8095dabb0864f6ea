// plugrt: Layout, the owning C++ form of PJRT_Buffer_MemoryLayout, and its
// conversions to and from the C struct. The one definition both sides of
// the ABI use: the client reads plugins' layouts and passes its own, the SDK
// reads callers' layouts and returns buffers' layouts.
#ifndef PLUGRT_COMMON_LAYOUT_H_
#define PLUGRT_COMMON_LAYOUT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
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

  // Dense row-major and untiled.
  bool IsRowMajor() const;
  // "{1,0}", "{0,1:T(2,2)}" or "strides{8,4}".
  std::string ToString() const;
  friend bool operator==(const Layout&, const Layout&) = default;

  // Copies a layout a plugin returned, trusting its arrays (they are only
  // valid until the plugin's next call on the buffer).
  static Layout FromC(const PJRT_Buffer_MemoryLayout& c);
};

// Reads a layout an untrusted caller passed, already copied whole: checks the
// type, the nested struct's size and that no array with elements is null.
// Errors are INVALID_ARGUMENT and start with `where` ("PJRT_Buffer_ToHostBuffer:
// host_layout").
StatusOr<Layout> CheckedLayoutFromC(const PJRT_Buffer_MemoryLayout& c, std::string_view where);

// Points `out` at `layout`'s data; `tile_dims` and `tile_dim_sizes` receive
// the flattened tiles. `out` is valid while all three live unchanged.
void LayoutToC(const Layout& layout, std::vector<int64_t>& tile_dims,
               std::vector<size_t>& tile_dim_sizes, PJRT_Buffer_MemoryLayout& out);

// A PJRT_Buffer_MemoryLayout pointing into a Layout (and flattened tile
// storage owned here). Valid while both this and the Layout live unchanged.
class CLayoutView {
 public:
  explicit CLayoutView(const Layout& layout) { LayoutToC(layout, tile_dims_, tile_dim_sizes_, c_); }
  CLayoutView(const CLayoutView&) = delete;
  CLayoutView& operator=(const CLayoutView&) = delete;
  PJRT_Buffer_MemoryLayout* get() { return &c_; }

 private:
  std::vector<int64_t> tile_dims_;
  std::vector<size_t> tile_dim_sizes_;
  PJRT_Buffer_MemoryLayout c_;
};

}  // namespace plugrt

#endif  // PLUGRT_COMMON_LAYOUT_H_
