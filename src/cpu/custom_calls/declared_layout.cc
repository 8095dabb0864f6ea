#include "cpu/custom_calls/declared_layout.h"

#include <algorithm>
#include <cstring>

#include "cpu/kernels/strided_copy.h"

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

bool IsColumnMajorMatrices(std::span<const int64_t> minor_to_major) {
  const size_t rank = minor_to_major.size();
  if (rank < 2 || minor_to_major[0] != static_cast<int64_t>(rank - 2) ||
      minor_to_major[1] != static_cast<int64_t>(rank - 1)) {
    return false;
  }
  for (size_t i = 2; i < rank; ++i) {
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
  StridedCopy(row_major.data(), StridesOf(dims, RowMajorOrder(dims.size())), out.MutableData(),
              StridesOf(dims, minor_to_major), dims,
              static_cast<int>(StorageBytes(row_major.type())));
  return out;
}

Tensor FromDeclaredLayout(const Tensor& declared, std::span<const int64_t> minor_to_major) {
  Tensor out = Tensor::Uninitialized(declared.type(), declared.dims());
  const std::vector<int64_t>& dims = declared.dims();
  if (dims.empty()) {
    std::memcpy(out.MutableData(), declared.data(), declared.byte_size());
    return out;
  }
  StridedCopy(declared.data(), StridesOf(dims, minor_to_major), out.MutableData(),
              StridesOf(dims, RowMajorOrder(dims.size())), dims,
              static_cast<int>(StorageBytes(declared.type())));
  return out;
}

}  // namespace plugrt::cpu
