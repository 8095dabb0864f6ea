#include "stablehlo/shape_rules.h"

#include <algorithm>

namespace plugrt::shlo::shape {
namespace {

bool Unknown(int64_t d) { return d == kDynamicSize; }
bool Has(const Dims& list, int64_t x) { return std::find(list.begin(), list.end(), x) != list.end(); }

int64_t Sum(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (Unknown(a) || Unknown(b) || __builtin_add_overflow(a, b, &sum)) return kDynamicSize;
  return sum;
}

// Each dim of `dims` but those in `drop` (and `drop2`), in order.
Dims Without(const Dims& dims, const Dims& drop, const Dims& drop2 = {}) {
  Dims kept;
  for (size_t d = 0; d < dims.size(); ++d) {
    const int64_t i = static_cast<int64_t>(d);
    if (!Has(drop, i) && !Has(drop2, i)) kept.push_back(dims[d]);
  }
  return kept;
}

}  // namespace

int64_t Dilated(int64_t size, int64_t dilation) {
  int64_t product = 0;
  if (Unknown(size) || __builtin_mul_overflow(size - 1, dilation, &product)) return kDynamicSize;
  return size == 0 ? 0 : Sum(product, 1);
}

int64_t Padded(int64_t low, int64_t size, int64_t high) { return Sum(Sum(low, size), high); }

int64_t NumWindows(int64_t padded, int64_t window, int64_t stride) {
  if (Unknown(padded) || Unknown(window) || stride <= 0) return kDynamicSize;
  if (padded == 0 || window > padded) return 0;
  return (padded - window) / stride + 1;
}

int64_t WindowedSize(int64_t in, int64_t window, int64_t stride, int64_t pad_low,
                     int64_t pad_high, int64_t base_dilation, int64_t window_dilation) {
  return NumWindows(Padded(pad_low, Dilated(in, base_dilation), pad_high),
                    Dilated(window, window_dilation), stride);
}

Dims Broadcast(const Dims& sizes, const Dims& operand) {
  Dims dims = sizes;
  dims.insert(dims.end(), operand.begin(), operand.end());
  return dims;
}

Dims Transpose(const Dims& operand, const Dims& permutation) {
  Dims dims;
  for (int64_t p : permutation) {
    dims.push_back(p >= 0 && p < static_cast<int64_t>(operand.size()) ? operand[p] : kDynamicSize);
  }
  return dims;
}

Dims Slice(const Dims& start, const Dims& limit, const Dims& strides) {
  Dims dims;
  for (size_t d = 0; d < start.size() && d < limit.size() && d < strides.size(); ++d) {
    dims.push_back(strides[d] > 0
                       ? std::max<int64_t>(0, (limit[d] - start[d] + strides[d] - 1) / strides[d])
                       : kDynamicSize);
  }
  return dims;
}

Dims Concatenate(const std::vector<Dims>& inputs, int64_t dimension) {
  if (inputs.empty()) return {};
  Dims dims = inputs[0];
  if (dimension < 0 || dimension >= static_cast<int64_t>(dims.size())) return dims;
  // A '?' of the first input at another dim takes a later input's size.
  for (size_t d = 0; d < dims.size(); ++d) {
    for (size_t i = 1; i < inputs.size() && Unknown(dims[d]); ++i) {
      if (static_cast<int64_t>(d) != dimension && d < inputs[i].size()) dims[d] = inputs[i][d];
    }
  }
  int64_t total = 0;
  for (const Dims& input : inputs) {
    total = static_cast<size_t>(dimension) < input.size() ? Sum(total, input[dimension])
                                                          : kDynamicSize;
  }
  dims[dimension] = total;
  return dims;
}

Dims Pad(const Dims& operand, const Dims& low, const Dims& high, const Dims& interior) {
  Dims dims;
  for (size_t d = 0; d < operand.size(); ++d) {
    const int64_t size = operand[d];
    if (Unknown(size) || d >= low.size() || d >= high.size() || d >= interior.size()) {
      dims.push_back(kDynamicSize);
      continue;
    }
    int64_t inner = 0;
    if (__builtin_mul_overflow(std::max<int64_t>(size - 1, 0), interior[d], &inner)) {
      dims.push_back(kDynamicSize);
      continue;
    }
    dims.push_back(Sum(Padded(low[d], size, high[d]), inner));
  }
  return dims;
}

Dims Reduce(const Dims& operand, const Dims& dimensions) { return Without(operand, dimensions); }

Dims DotGeneral(const Dims& lhs, const Dims& rhs, const DotDimensions& dn) {
  Dims dims;
  for (int64_t d : dn.lhs_batching) {
    dims.push_back(d >= 0 && d < static_cast<int64_t>(lhs.size()) ? lhs[d] : kDynamicSize);
  }
  for (int64_t d : Without(lhs, dn.lhs_batching, dn.lhs_contracting)) dims.push_back(d);
  for (int64_t d : Without(rhs, dn.rhs_batching, dn.rhs_contracting)) dims.push_back(d);
  return dims;
}

Dims Dot(const Dims& lhs, const Dims& rhs) {
  Dims dims;
  if (lhs.size() == 2) dims.push_back(lhs[0]);
  if (rhs.size() == 2) dims.push_back(rhs[1]);
  return dims;
}

Dims ReduceWindow(const Dims& operand, const Window& w) {
  const size_t rank = operand.size();
  if (w.dimensions.size() != rank || w.strides.size() != rank || w.base_dilations.size() != rank ||
      w.window_dilations.size() != rank || w.padding.size() != 2 * rank) {
    return Dims(rank, kDynamicSize);
  }
  Dims dims;
  for (size_t d = 0; d < rank; ++d) {
    dims.push_back(WindowedSize(operand[d], w.dimensions[d], w.strides[d], w.padding[2 * d],
                                w.padding[2 * d + 1], w.base_dilations[d], w.window_dilations[d]));
  }
  return dims;
}

Dims Convolution(const Dims& lhs, const Dims& rhs, const ConvDimensions& dn, const Dims& strides,
                 const Dims& padding, const Dims& lhs_dilation, const Dims& rhs_dilation,
                 int64_t batch_group_count) {
  const size_t spatial = dn.input_spatial.size();
  const size_t rank = lhs.size();
  Dims dims(rank, kDynamicSize);
  auto in_range = [](int64_t d, size_t n) { return d >= 0 && static_cast<size_t>(d) < n; };
  if (!in_range(dn.output_batch, rank) || !in_range(dn.output_feature, rank) ||
      !in_range(dn.input_batch, lhs.size()) || !in_range(dn.kernel_output_feature, rhs.size())) {
    return dims;
  }
  const int64_t batch = lhs[dn.input_batch];
  dims[dn.output_batch] =
      Unknown(batch) || batch_group_count <= 0 ? kDynamicSize : batch / batch_group_count;
  dims[dn.output_feature] = rhs[dn.kernel_output_feature];
  if (dn.kernel_spatial.size() != spatial || dn.output_spatial.size() != spatial ||
      strides.size() != spatial || lhs_dilation.size() != spatial ||
      rhs_dilation.size() != spatial || padding.size() != 2 * spatial) {
    return dims;
  }
  for (size_t s = 0; s < spatial; ++s) {
    if (!in_range(dn.output_spatial[s], rank) || !in_range(dn.input_spatial[s], lhs.size()) ||
        !in_range(dn.kernel_spatial[s], rhs.size())) {
      continue;
    }
    dims[dn.output_spatial[s]] =
        WindowedSize(lhs[dn.input_spatial[s]], rhs[dn.kernel_spatial[s]], strides[s],
                     padding[2 * s], padding[2 * s + 1], lhs_dilation[s], rhs_dilation[s]);
  }
  return dims;
}

Dims Gather(const Dims& indices, const Dims& slice_sizes, const GatherDimensions& dn) {
  Dims batch;
  for (size_t d = 0; d < indices.size(); ++d) {
    if (static_cast<int64_t>(d) != dn.index_vector_dim) batch.push_back(indices[d]);
  }
  const Dims offsets = Without(slice_sizes, dn.collapsed_slice_dims, dn.operand_batching_dims);
  Dims dims;
  const size_t rank = batch.size() + offsets.size();
  size_t b = 0, o = 0;
  for (size_t d = 0; d < rank; ++d) {
    if (Has(dn.offset_dims, static_cast<int64_t>(d)) && o < offsets.size()) {
      dims.push_back(offsets[o++]);
    } else if (b < batch.size()) {
      dims.push_back(batch[b++]);
    } else {
      dims.push_back(offsets[o++]);
    }
  }
  return dims;
}

Dims Reshape(int64_t elements, const Dims& declared) {
  Dims dims = declared;
  if (elements < 0) return dims;
  int64_t known = 1;
  int64_t unknown = -1;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (!Unknown(dims[d])) {
      known *= dims[d];
    } else if (unknown >= 0) {
      return dims;  // two '?': ambiguous
    } else {
      unknown = static_cast<int64_t>(d);
    }
  }
  if (unknown >= 0 && known != 0) dims[unknown] = elements / known;
  return dims;
}

}  // namespace plugrt::shlo::shape
