#include "cpu/custom_calls/declared_layout.h"

#include <algorithm>
#include <cstring>

namespace plugrt::cpu {
namespace {

// Element strides of `dims` stored in the order `minor_to_major`.
std::vector<int64_t> StridesOf(const std::vector<int64_t>& dims,
                               std::span<const int64_t> minor_to_major) {
  std::vector<int64_t> strides(dims.size(), 0);
  int64_t stride = 1;
  for (int64_t d : minor_to_major) {
    strides[static_cast<size_t>(d)] = stride;
    stride *= dims[static_cast<size_t>(d)];
  }
  return strides;
}

// Copies every element of `dims`, reading at `src_strides` and writing at
// `dst_strides` (element strides), elements of N bytes.
template <size_t N>
void CopyStrided(const std::byte* src, const std::vector<int64_t>& src_strides, std::byte* dst,
                 const std::vector<int64_t>& dst_strides, const std::vector<int64_t>& dims,
                 size_t dim) {
  const int64_t n = dims[dim];
  const int64_t ss = src_strides[dim] * static_cast<int64_t>(N);
  const int64_t ds = dst_strides[dim] * static_cast<int64_t>(N);
  if (dim + 1 == dims.size()) {
    for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * ds, src + i * ss, N);
    return;
  }
  if (dim + 2 == dims.size()) {
    // The last two dimensions in tiles, so that a transposition (row-major
    // to column-major matrices) reads and writes whole cache lines.
    constexpr int64_t kTile = 32;
    const int64_t m = dims[dim + 1];
    const int64_t ss2 = src_strides[dim + 1] * static_cast<int64_t>(N);
    const int64_t ds2 = dst_strides[dim + 1] * static_cast<int64_t>(N);
    for (int64_t i0 = 0; i0 < n; i0 += kTile) {
      const int64_t i1 = std::min(n, i0 + kTile);
      for (int64_t j0 = 0; j0 < m; j0 += kTile) {
        const int64_t j1 = std::min(m, j0 + kTile);
        for (int64_t i = i0; i < i1; ++i) {
          for (int64_t j = j0; j < j1; ++j) {
            std::memcpy(dst + i * ds + j * ds2, src + i * ss + j * ss2, N);
          }
        }
      }
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    CopyStrided<N>(src + i * ss, src_strides, dst + i * ds, dst_strides, dims, dim + 1);
  }
}

void Copy(const std::byte* src, const std::vector<int64_t>& src_strides, std::byte* dst,
          const std::vector<int64_t>& dst_strides, const std::vector<int64_t>& dims,
          size_t element_bytes) {
  for (int64_t d : dims) {
    if (d == 0) return;
  }
  switch (element_bytes) {
    case 1: return CopyStrided<1>(src, src_strides, dst, dst_strides, dims, 0);
    case 2: return CopyStrided<2>(src, src_strides, dst, dst_strides, dims, 0);
    case 4: return CopyStrided<4>(src, src_strides, dst, dst_strides, dims, 0);
    case 8: return CopyStrided<8>(src, src_strides, dst, dst_strides, dims, 0);
    default: return CopyStrided<16>(src, src_strides, dst, dst_strides, dims, 0);
  }
}

}  // namespace

std::vector<int64_t> RowMajorOrder(size_t rank) {
  std::vector<int64_t> order(rank);
  for (size_t i = 0; i < rank; ++i) order[i] = static_cast<int64_t>(rank - 1 - i);
  return order;
}

bool IsRowMajorOrder(std::span<const int64_t> minor_to_major) {
  const size_t rank = minor_to_major.size();
  for (size_t i = 0; i < rank; ++i) {
    if (minor_to_major[i] != static_cast<int64_t>(rank - 1 - i)) return false;
  }
  return true;
}

bool IsDimensionOrder(std::span<const int64_t> minor_to_major, size_t rank) {
  if (minor_to_major.size() != rank) return false;
  std::vector<bool> seen(rank, false);
  for (int64_t d : minor_to_major) {
    if (d < 0 || static_cast<size_t>(d) >= rank || seen[static_cast<size_t>(d)]) return false;
    seen[static_cast<size_t>(d)] = true;
  }
  return true;
}

Tensor ToDeclaredLayout(const Tensor& row_major, std::span<const int64_t> minor_to_major) {
  Tensor out = Tensor::Uninitialized(row_major.type(), row_major.dims());
  const std::vector<int64_t>& dims = row_major.dims();
  if (dims.empty()) {
    std::memcpy(out.MutableData(), row_major.data(), row_major.byte_size());
    return out;
  }
  Copy(row_major.data(), StridesOf(dims, RowMajorOrder(dims.size())), out.MutableData(),
       StridesOf(dims, minor_to_major), dims, static_cast<size_t>(StorageBytes(row_major.type())));
  return out;
}

Tensor FromDeclaredLayout(const Tensor& declared, std::span<const int64_t> minor_to_major) {
  Tensor out = Tensor::Uninitialized(declared.type(), declared.dims());
  const std::vector<int64_t>& dims = declared.dims();
  if (dims.empty()) {
    std::memcpy(out.MutableData(), declared.data(), declared.byte_size());
    return out;
  }
  Copy(declared.data(), StridesOf(dims, minor_to_major), out.MutableData(),
       StridesOf(dims, RowMajorOrder(dims.size())), dims,
       static_cast<size_t>(StorageBytes(declared.type())));
  return out;
}

}  // namespace plugrt::cpu
