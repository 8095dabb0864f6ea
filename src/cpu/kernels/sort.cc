#include "cpu/kernels/sort.h"

#include <algorithm>
#include <cstring>

namespace plugrt::cpu {
namespace {

// Bottom-up merge sort of `order` with a fallible comparator; stable, and
// bounded by the array whatever the comparator answers.
template <typename Less>
Status MergeSort(std::vector<int64_t>& order, Less&& less) {
  const size_t n = order.size();
  std::vector<int64_t> buffer(n);
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        // Take from the right only when it is strictly before the left.
        PLUGRT_ASSIGN_OR_RETURN(bool right_first, less(order[j], order[i]));
        buffer[k++] = right_first ? order[j++] : order[i++];
      }
      while (i < mid) buffer[k++] = order[i++];
      while (j < hi) buffer[k++] = order[j++];
    }
    order.swap(buffer);
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::vector<Tensor>> Sort(const std::vector<Tensor>& operands, int64_t dimension,
                                   const ScalarBody& less) {
  if (operands.empty()) return InvalidArgument("sort needs at least one operand");
  const std::vector<int64_t>& dims = operands[0].dims();
  for (const Tensor& t : operands) {
    if (t.dims() != dims) return InvalidArgument("sort operands must have the same shape");
  }
  if (dimension < 0 || dimension >= static_cast<int64_t>(dims.size())) {
    return InvalidArgument("sort dimension ", dimension, " is out of range for rank ",
                           dims.size());
  }
  const size_t n = operands.size();
  std::vector<Tensor> results;
  for (const Tensor& t : operands) results.push_back(Tensor(t.type(), dims));
  const int64_t length = dims[dimension];
  const int64_t stride = RowMajorStrides(dims)[dimension];
  const int64_t total = NumElements(dims);
  if (total == 0) return results;
  std::vector<Tensor> args(2 * n);
  std::vector<int64_t> order(static_cast<size_t>(length));
  // Each slice starts at an offset whose `dimension` coordinate is zero.
  for (int64_t start = 0; start < total; ++start) {
    if ((start / stride) % length != 0) continue;
    for (int64_t i = 0; i < length; ++i) order[i] = i;
    auto compare = [&](int64_t a, int64_t b) -> StatusOr<bool> {
      for (size_t k = 0; k < n; ++k) {
        args[2 * k] = ScalarAt(operands[k], start + a * stride);
        args[2 * k + 1] = ScalarAt(operands[k], start + b * stride);
      }
      PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> r, less(args));
      if (r.size() != 1 || r[0].type() != ElementType::kI1 || r[0].num_elements() != 1) {
        return InvalidArgument("the sort comparator must return one i1 value");
      }
      return r[0].as<uint8_t>()[0] != 0;
    };
    PLUGRT_RETURN_IF_ERROR(MergeSort(order, compare));
    for (size_t k = 0; k < n; ++k) {
      const size_t bytes = static_cast<size_t>(shlo::StorageBytes(operands[k].type()));
      const std::byte* src = operands[k].data();
      std::byte* dst = results[k].MutableData();
      for (int64_t i = 0; i < length; ++i) {
        std::memcpy(dst + (start + i * stride) * bytes, src + (start + order[i] * stride) * bytes,
                    bytes);
      }
    }
  }
  return results;
}

}  // namespace plugrt::cpu
