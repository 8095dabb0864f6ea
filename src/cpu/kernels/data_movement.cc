#include "cpu/kernels/data_movement.h"

#include <algorithm>
#include <cstring>

#include "cpu/kernels/compute_common.h"
#include "cpu/kernels/parallel.h"
#include "cpu/kernels/strided_copy.h"
#include "stablehlo/shape_rules.h"

namespace plugrt::cpu {
namespace {

int ElementBytes(const Tensor& t) { return shlo::StorageBytes(t.type()); }

Status CheckRankedList(const char* what, const std::vector<int64_t>& list, int64_t rank) {
  if (static_cast<int64_t>(list.size()) != rank) {
    return InvalidArgument(what, " has ", list.size(), " entries, the operand rank is ", rank);
  }
  return OkStatus();
}

// A fresh tensor of `dims`, refusing negative or absurd sizes.
StatusOr<Tensor> NewTensor(ElementType type, const std::vector<int64_t>& dims) {
  PLUGRT_RETURN_IF_ERROR(CheckedElementCount(dims).status());
  return Tensor(type, dims);
}

std::string DimsString(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

}  // namespace

StatusOr<Tensor> BroadcastInDim(const Tensor& operand, const std::vector<int64_t>& result_dims,
                                const std::vector<int64_t>& broadcast_dimensions, int threads) {
  PLUGRT_RETURN_IF_ERROR(
      CheckRankedList("broadcast_dimensions", broadcast_dimensions, operand.rank()));
  const int64_t result_rank = static_cast<int64_t>(result_dims.size());
  std::vector<int64_t> src_strides(result_dims.size(), 0);
  std::vector<int64_t> operand_strides = operand.Strides();
  std::vector<bool> used(result_dims.size(), false);
  for (int64_t k = 0; k < operand.rank(); ++k) {
    int64_t d = broadcast_dimensions[k];
    if (d < 0 || d >= result_rank || used[d]) {
      return InvalidArgument("broadcast_dimensions ", DimsString(broadcast_dimensions),
                             " must be distinct dimensions of the rank-", result_rank, " result");
    }
    used[d] = true;
    if (operand.dims()[k] == result_dims[d]) {
      src_strides[d] = operand_strides[k];
    } else if (operand.dims()[k] != 1) {
      return InvalidArgument("operand dimension ", k, " of size ", operand.dims()[k],
                             " cannot broadcast to result dimension ", d, " of size ",
                             result_dims[d]);
    }
  }
  // Every element is written below: no zeroing first.
  PLUGRT_RETURN_IF_ERROR(CheckedElementCount(result_dims).status());
  Tensor result = Tensor::Uninitialized(operand.type(), result_dims);
  const std::vector<int64_t> dst_strides = RowMajorStrides(result_dims);
  StridedCopyInBands(operand.data(), src_strides, result.MutableData(), dst_strides, result_dims,
                     static_cast<int>(ElementBytes(operand)), threads);
  return result;
}

StatusOr<Tensor> Reshape(const Tensor& operand, const std::vector<int64_t>& result_dims) {
  PLUGRT_ASSIGN_OR_RETURN(int64_t count, CheckedElementCount(result_dims));
  if (count != operand.num_elements()) {
    return InvalidArgument("cannot reshape ", operand.num_elements(), " elements to ",
                           DimsString(result_dims));
  }
  return operand.Reshaped(result_dims);
}

StatusOr<Tensor> Transpose(const Tensor& operand, const std::vector<int64_t>& permutation,
                           int threads) {
  PLUGRT_RETURN_IF_ERROR(CheckRankedList("permutation", permutation, operand.rank()));
  std::vector<int64_t> operand_strides = operand.Strides();
  std::vector<int64_t> src_strides(permutation.size());
  std::vector<bool> used(permutation.size(), false);
  for (size_t k = 0; k < permutation.size(); ++k) {
    int64_t p = permutation[k];
    if (p < 0 || p >= operand.rank() || used[p]) {
      return InvalidArgument("permutation ", DimsString(permutation), " is not a permutation of 0..",
                             operand.rank() - 1);
    }
    used[p] = true;
    src_strides[k] = operand_strides[p];
  }
  const std::vector<int64_t> result_dims = shlo::shape::Transpose(operand.dims(), permutation);
  Tensor result(operand.type(), result_dims);
  StridedCopyInBands(operand.data(), src_strides, result.MutableData(),
                     RowMajorStrides(result_dims), result_dims,
                     static_cast<int>(ElementBytes(operand)), threads);
  return result;
}

StatusOr<Tensor> Slice(const Tensor& operand, const std::vector<int64_t>& start,
                       const std::vector<int64_t>& limit, const std::vector<int64_t>& strides) {
  PLUGRT_RETURN_IF_ERROR(CheckRankedList("start_indices", start, operand.rank()));
  PLUGRT_RETURN_IF_ERROR(CheckRankedList("limit_indices", limit, operand.rank()));
  PLUGRT_RETURN_IF_ERROR(CheckRankedList("strides", strides, operand.rank()));
  std::vector<int64_t> operand_strides = operand.Strides();
  std::vector<int64_t> src_strides(start.size());
  int64_t offset = 0;
  for (size_t k = 0; k < start.size(); ++k) {
    if (start[k] < 0 || start[k] > limit[k] || limit[k] > operand.dims()[k] || strides[k] <= 0) {
      return InvalidArgument("slice of dimension ", k, " (size ", operand.dims()[k], "): need 0 <= start (",
                             start[k], ") <= limit (", limit[k], ") <= size and stride (",
                             strides[k], ") > 0");
    }
    src_strides[k] = operand_strides[k] * strides[k];
    offset += start[k] * operand_strides[k];
  }
  const std::vector<int64_t> result_dims = shlo::shape::Slice(start, limit, strides);
  Tensor result(operand.type(), result_dims);
  if (result.num_elements() == 0) return result;
  const int eb = ElementBytes(operand);
  StridedCopy(operand.data() + offset * eb, src_strides, result.MutableData(),
              RowMajorStrides(result_dims), result_dims, eb);
  return result;
}

StatusOr<Tensor> DynamicSlice(const Tensor& operand, const std::vector<int64_t>& start,
                              const std::vector<int64_t>& sizes) {
  PLUGRT_RETURN_IF_ERROR(CheckRankedList("start indices", start, operand.rank()));
  PLUGRT_RETURN_IF_ERROR(CheckRankedList("slice_sizes", sizes, operand.rank()));
  std::vector<int64_t> operand_strides = operand.Strides();
  int64_t offset = 0;
  for (size_t k = 0; k < sizes.size(); ++k) {
    if (sizes[k] < 0 || sizes[k] > operand.dims()[k]) {
      return InvalidArgument("slice size ", sizes[k], " of dimension ", k,
                             " is outside [0, ", operand.dims()[k], "]");
    }
    offset += std::clamp<int64_t>(start[k], 0, operand.dims()[k] - sizes[k]) * operand_strides[k];
  }
  Tensor result(operand.type(), sizes);
  if (result.num_elements() == 0) return result;
  const int eb = ElementBytes(operand);
  StridedCopy(operand.data() + offset * eb, operand_strides, result.MutableData(),
              RowMajorStrides(sizes), sizes, eb);
  return result;
}

StatusOr<Tensor> DynamicUpdateSlice(const Tensor& operand, const Tensor& update,
                                    const std::vector<int64_t>& start) {
  Tensor result = operand.Clone();
  PLUGRT_RETURN_IF_ERROR(DynamicUpdateSliceInPlace(result, update, start));
  return result;
}

Status DynamicUpdateSliceInPlace(Tensor& operand, const Tensor& update,
                                 const std::vector<int64_t>& start) {
  PLUGRT_RETURN_IF_ERROR(CheckRankedList("start indices", start, operand.rank()));
  if (update.rank() != operand.rank() || update.type() != operand.type()) {
    return InvalidArgument("update must have the operand's rank and element type");
  }
  std::vector<int64_t> operand_strides = operand.Strides();
  int64_t offset = 0;
  for (size_t k = 0; k < start.size(); ++k) {
    if (update.dims()[k] > operand.dims()[k]) {
      return InvalidArgument("update dimension ", k, " (", update.dims()[k],
                             ") exceeds the operand's (", operand.dims()[k], ")");
    }
    offset += std::clamp<int64_t>(start[k], 0, operand.dims()[k] - update.dims()[k]) *
              operand_strides[k];
  }
  if (update.num_elements() == 0) return OkStatus();
  const int eb = ElementBytes(operand);
  StridedCopy(update.data(), update.Strides(), operand.MutableData() + offset * eb,
              operand_strides, update.dims(), eb);
  return OkStatus();
}

StatusOr<Tensor> Concatenate(const std::vector<Tensor>& inputs, int64_t dimension) {
  if (inputs.empty()) return InvalidArgument("concatenate needs at least one input");
  const Tensor& first = inputs.front();
  if (dimension < 0 || dimension >= first.rank()) {
    return InvalidArgument("dimension ", dimension, " is outside the inputs' rank ", first.rank());
  }
  std::vector<std::vector<int64_t>> shapes;
  for (const Tensor& input : inputs) {
    bool same = input.type() == first.type() && input.rank() == first.rank();
    for (int64_t k = 0; same && k < first.rank(); ++k) {
      same = k == dimension || input.dims()[k] == first.dims()[k];
    }
    if (!same) {
      return InvalidArgument("concatenate inputs must share element type and every dimension but ",
                             dimension);
    }
    shapes.push_back(input.dims());
  }
  const std::vector<int64_t> result_dims = shlo::shape::Concatenate(shapes, dimension);
  PLUGRT_ASSIGN_OR_RETURN(Tensor result, NewTensor(first.type(), result_dims));
  const std::vector<int64_t> dst_strides = RowMajorStrides(result_dims);
  const int eb = ElementBytes(first);
  int64_t position = 0;
  for (const Tensor& input : inputs) {
    StridedCopy(input.data(), input.Strides(),
                result.MutableData() + position * dst_strides[dimension] * eb, dst_strides,
                input.dims(), eb);
    position += input.dims()[dimension];
  }
  return result;
}

StatusOr<Tensor> Pad(const Tensor& operand, const Tensor& padding_value,
                     const std::vector<int64_t>& low, const std::vector<int64_t>& high,
                     const std::vector<int64_t>& interior) {
  PLUGRT_RETURN_IF_ERROR(CheckRankedList("edge_padding_low", low, operand.rank()));
  PLUGRT_RETURN_IF_ERROR(CheckRankedList("edge_padding_high", high, operand.rank()));
  PLUGRT_RETURN_IF_ERROR(CheckRankedList("interior_padding", interior, operand.rank()));
  if (padding_value.num_elements() != 1 || padding_value.type() != operand.type()) {
    return InvalidArgument("padding value must be one element of the operand's type");
  }
  const size_t rank = low.size();
  // Paddings beyond +-2^40 cannot describe a real buffer; bounding them keeps
  // the size arithmetic below free of overflow.
  constexpr int64_t kLimit = int64_t{1} << 40;
  for (size_t k = 0; k < rank; ++k) {
    int64_t d = operand.dims()[k];
    if (interior[k] < 0 || interior[k] > kLimit || low[k] < -kLimit || low[k] > kLimit ||
        high[k] < -kLimit || high[k] > kLimit) {
      return InvalidArgument("padding of dimension ", k, " out of range (interior must be >= 0)");
    }
    if (d > 1 && interior[k] > 0 && d - 1 > kLimit / interior[k]) {
      return ResourceExhausted("interior padding of dimension ", k, " is too large");
    }
  }
  const std::vector<int64_t> result_dims = shlo::shape::Pad(operand.dims(), low, high, interior);
  for (size_t k = 0; k < rank; ++k) {
    if (result_dims[k] < 0) {
      return InvalidArgument("padding makes dimension ", k, " negative (", result_dims[k], ")");
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(Tensor result, NewTensor(operand.type(), result_dims));
  const int eb = ElementBytes(operand);
  FillElements(result.MutableData(), result.num_elements(), padding_value.data(), eb);

  // Per dim: operand elements [first, first + count) land at
  // low + i * (interior + 1); those that land outside the result are cropped.
  const std::vector<int64_t> operand_strides = operand.Strides();
  const std::vector<int64_t> result_strides = RowMajorStrides(result_dims);
  std::vector<int64_t> counts(rank), src_strides(rank), dst_strides(rank);
  int64_t src_offset = 0, dst_offset = 0;
  for (size_t k = 0; k < rank; ++k) {
    const int64_t step = interior[k] + 1;
    int64_t first = low[k] >= 0 ? 0 : (-low[k] + step - 1) / step;
    int64_t last = operand.dims()[k];  // exclusive
    // Largest i with low + i * step < result size.
    int64_t fit = result_dims[k] - low[k] <= 0 ? 0 : (result_dims[k] - low[k] - 1) / step + 1;
    last = std::min(last, fit);
    if (last <= first) return result;  // nothing of the operand survives
    counts[k] = last - first;
    src_offset += first * operand_strides[k];
    dst_offset += (low[k] + first * step) * result_strides[k];
    src_strides[k] = operand_strides[k];
    dst_strides[k] = step * result_strides[k];
  }
  StridedCopy(operand.data() + src_offset * eb, src_strides, result.MutableData() + dst_offset * eb,
              dst_strides, counts, eb);
  return result;
}

StatusOr<Tensor> Reverse(const Tensor& operand, const std::vector<int64_t>& dimensions) {
  std::vector<int64_t> src_strides = operand.Strides();
  std::vector<bool> flipped(operand.rank(), false);
  int64_t offset = 0;
  for (int64_t d : dimensions) {
    if (d < 0 || d >= operand.rank() || flipped[d]) {
      return InvalidArgument("reverse dimensions ", DimsString(dimensions),
                             " must be distinct dimensions of the rank-", operand.rank(), " operand");
    }
    flipped[d] = true;
    if (operand.dims()[d] > 0) offset += (operand.dims()[d] - 1) * src_strides[d];
    src_strides[d] = -src_strides[d];
  }
  Tensor result(operand.type(), operand.dims());
  if (result.num_elements() == 0) return result;
  const int eb = ElementBytes(operand);
  StridedCopy(operand.data() + offset * eb, src_strides, result.MutableData(), result.Strides(),
              operand.dims(), eb);
  return result;
}

}  // namespace plugrt::cpu
