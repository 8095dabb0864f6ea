#include "stablehlo/type_inference.h"

#include <algorithm>
#include <optional>
#include <string>

namespace plugrt::shlo {
namespace {

using Dims = std::vector<int64_t>;

std::optional<Dims> Ints(const shlo::Attribute* attr) {
  if (attr == nullptr) return std::nullopt;
  StatusOr<Dims> list = shlo::AttrToIntList(*attr);
  if (!list.ok()) return std::nullopt;
  return *list;
}
std::optional<Dims> Ints(const Operation& op, const char* name) { return Ints(op.attribute(name)); }
Dims IntsOr(const Operation& op, const char* name, Dims fallback) {
  std::optional<Dims> v = Ints(op, name);
  return v ? *v : fallback;
}
int64_t IntOr(const shlo::Attribute* attr, int64_t fallback) {
  if (attr == nullptr) return fallback;
  StatusOr<int64_t> v = shlo::AttrToInt(*attr);
  return v.ok() ? *v : fallback;
}
Dims Field(const shlo::Attribute* dn, const char* name) {
  if (dn == nullptr) return {};
  std::optional<Dims> v = Ints(dn->field(name));
  return v ? *v : Dims{};
}
int64_t FieldInt(const shlo::Attribute* dn, const char* name, int64_t fallback) {
  return dn == nullptr ? fallback : IntOr(dn->field(name), fallback);
}

bool Known(int64_t d) { return d != kDynamicSize; }
bool In(const Dims& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

const Dims& OperandDims(const Operation& op, size_t i) { return op.operands[i]->type.dims(); }

// Output size of one windowed dimension (convolution, reduce_window).
int64_t WindowedSize(int64_t in, int64_t window, int64_t stride, int64_t pad_lo, int64_t pad_hi,
                     int64_t base_dilation, int64_t window_dilation) {
  if (!Known(in) || !Known(window)) return kDynamicSize;
  const int64_t dilated_in = in == 0 ? 0 : (in - 1) * base_dilation + 1;
  const int64_t padded = dilated_in + pad_lo + pad_hi;
  const int64_t dilated_window = window == 0 ? 0 : (window - 1) * window_dilation + 1;
  if (stride <= 0) return kDynamicSize;
  if (padded < dilated_window) return 0;
  return (padded - dilated_window) / stride + 1;
}

// Elementwise ops: each '?' result dim from an operand of the result's rank.
Dims ElementwiseDims(const Operation& op, const Type& result) {
  Dims dims = result.dims();
  for (size_t d = 0; d < dims.size(); ++d) {
    for (const shlo::Value* operand : op.operands) {
      if (!operand->type.is_tensor() || operand->type.rank() != result.rank()) continue;
      if (Known(operand->type.dims()[d])) {
        dims[d] = operand->type.dims()[d];
        break;
      }
    }
  }
  return dims;
}

// chlo's broadcasting binary ops: numpy-style broadcasting, right-aligned.
Dims BroadcastingDims(const Operation& op, const Type& result) {
  Dims dims = result.dims();
  const size_t rank = dims.size();
  for (size_t d = 0; d < rank; ++d) {
    int64_t size = 1;
    bool known = true;
    for (const shlo::Value* operand : op.operands) {
      const Dims& od = operand->type.dims();
      if (!operand->type.is_tensor() || od.size() > rank) return result.dims();
      const size_t offset = rank - od.size();
      if (d < offset) continue;
      const int64_t s = od[d - offset];
      if (!Known(s)) { known = false; continue; }
      if (s != 1) size = s;
    }
    if (known || size != 1) dims[d] = size;
  }
  return dims;
}

Dims ConvolutionDims(const Operation& op, const Type& result) {
  const shlo::Attribute* dn = op.attribute("dimension_numbers");
  if (dn == nullptr || op.operands.size() < 2) return result.dims();
  const Dims& lhs = OperandDims(op, 0);
  const Dims& rhs = OperandDims(op, 1);
  const Dims in_spatial = Field(dn, "input_spatial_dimensions");
  const Dims k_spatial = Field(dn, "kernel_spatial_dimensions");
  const Dims out_spatial = Field(dn, "output_spatial_dimensions");
  const size_t ns = in_spatial.size();
  if (k_spatial.size() != ns || out_spatial.size() != ns) return result.dims();
  const Dims ones(ns, 1);
  const Dims strides = IntsOr(op, "window_strides", ones);
  const Dims lhs_dil = IntsOr(op, "lhs_dilation", ones);
  const Dims rhs_dil = IntsOr(op, "rhs_dilation", ones);
  const Dims padding = IntsOr(op, "padding", Dims(2 * ns, 0));
  if (strides.size() != ns || lhs_dil.size() != ns || rhs_dil.size() != ns ||
      padding.size() != 2 * ns) {
    return result.dims();
  }
  Dims dims = result.dims();
  auto set = [&](int64_t d, int64_t v) {
    if (d >= 0 && d < static_cast<int64_t>(dims.size()) && !Known(dims[d])) dims[d] = v;
  };
  const int64_t batch_groups = IntOr(op.attribute("batch_group_count"), 1);
  const int64_t in_batch = lhs[FieldInt(dn, "input_batch_dimension", 0)];
  set(FieldInt(dn, "output_batch_dimension", 0),
      Known(in_batch) && batch_groups > 0 ? in_batch / batch_groups : kDynamicSize);
  set(FieldInt(dn, "output_feature_dimension", 1),
      rhs[FieldInt(dn, "kernel_output_feature_dimension", 0)]);
  for (size_t i = 0; i < ns; ++i) {
    set(out_spatial[i], WindowedSize(lhs[in_spatial[i]], rhs[k_spatial[i]], strides[i],
                                     padding[2 * i], padding[2 * i + 1], lhs_dil[i], rhs_dil[i]));
  }
  return dims;
}

Dims ReduceWindowDims(const Operation& op, const Type& result, size_t input) {
  const Dims& in = OperandDims(op, input);
  const size_t rank = in.size();
  const std::optional<Dims> window = Ints(op, "window_dimensions");
  if (!window || window->size() != rank) return result.dims();
  const Dims ones(rank, 1);
  const Dims strides = IntsOr(op, "window_strides", ones);
  const Dims base = IntsOr(op, "base_dilations", ones);
  const Dims wdil = IntsOr(op, "window_dilations", ones);
  const Dims padding = IntsOr(op, "padding", Dims(2 * rank, 0));
  if (strides.size() != rank || base.size() != rank || wdil.size() != rank ||
      padding.size() != 2 * rank) {
    return result.dims();
  }
  Dims dims(rank);
  for (size_t i = 0; i < rank; ++i) {
    dims[i] = WindowedSize(in[i], (*window)[i], strides[i], padding[2 * i], padding[2 * i + 1],
                           base[i], wdil[i]);
  }
  return dims;
}

Dims GatherDims(const Operation& op, const Type& result, const Dims& slice_sizes) {
  const shlo::Attribute* dn = op.attribute("dimension_numbers");
  if (dn == nullptr || op.operands.size() < 2) return result.dims();
  const Dims& indices = OperandDims(op, 1);
  const Dims offset_dims = Field(dn, "offset_dims");
  const Dims collapsed = Field(dn, "collapsed_slice_dims");
  const Dims operand_batching = Field(dn, "operand_batching_dims");
  const int64_t ivd = FieldInt(dn, "index_vector_dim", static_cast<int64_t>(indices.size()));
  Dims batch;
  for (size_t i = 0; i < indices.size(); ++i) {
    if (static_cast<int64_t>(i) != ivd) batch.push_back(indices[i]);
  }
  Dims offsets;
  for (size_t i = 0; i < slice_sizes.size(); ++i) {
    if (!In(collapsed, static_cast<int64_t>(i)) && !In(operand_batching, static_cast<int64_t>(i))) {
      offsets.push_back(slice_sizes[i]);
    }
  }
  Dims dims = result.dims();
  size_t b = 0, o = 0;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (In(offset_dims, static_cast<int64_t>(d))) {
      if (o < offsets.size()) dims[d] = offsets[o++];
    } else if (b < batch.size()) {
      dims[d] = batch[b++];
    }
  }
  return dims;
}

Dims DotGeneralDims(const Operation& op, const Type& result) {
  const shlo::Attribute* dn = op.attribute("dot_dimension_numbers");
  if (op.operands.size() < 2) return result.dims();
  const Dims& lhs = OperandDims(op, 0);
  const Dims& rhs = OperandDims(op, 1);
  const Dims lb = Field(dn, "lhs_batching_dimensions");
  const Dims rb = Field(dn, "rhs_batching_dimensions");
  const Dims lc = Field(dn, "lhs_contracting_dimensions");
  const Dims rc = Field(dn, "rhs_contracting_dimensions");
  Dims dims;
  for (int64_t d : lb) dims.push_back(lhs[d]);
  for (size_t d = 0; d < lhs.size(); ++d) {
    if (!In(lb, static_cast<int64_t>(d)) && !In(lc, static_cast<int64_t>(d))) dims.push_back(lhs[d]);
  }
  for (size_t d = 0; d < rhs.size(); ++d) {
    if (!In(rb, static_cast<int64_t>(d)) && !In(rc, static_cast<int64_t>(d))) dims.push_back(rhs[d]);
  }
  return dims;
}

// The dims one result should have, or the declared dims when no rule
// applies.
Dims InferDims(const Operation& op, size_t r) {
  const Type& result = op.results[r]->type;
  const auto operand_dims = [&](size_t i) -> Dims {
    return i < op.operands.size() && op.operands[i]->type.is_tensor() ? OperandDims(op, i)
                                                                      : result.dims();
  };
  switch (op.code) {
    case OpCode::kBroadcastInDim: {
      const std::optional<Dims> map = Ints(op, "broadcast_dimensions");
      const Dims& in = OperandDims(op, 0);
      Dims dims = result.dims();
      if (!map || map->size() != in.size()) return dims;
      for (size_t i = 0; i < in.size(); ++i) {
        const int64_t d = (*map)[i];
        if (d >= 0 && d < result.rank() && !Known(dims[d]) && in[i] != 1) dims[d] = in[i];
      }
      return dims;
    }
    case OpCode::kBroadcast: {
      Dims dims = IntsOr(op, "broadcast_sizes", {});
      for (int64_t d : OperandDims(op, 0)) dims.push_back(d);
      return dims;
    }
    case OpCode::kReshape: {
      const Type& in = op.operands[0]->type;
      Dims dims = result.dims();
      if (!in.has_static_shape()) return dims;
      int64_t known = 1, unknown = -1;
      for (size_t d = 0; d < dims.size(); ++d) {
        if (Known(dims[d])) {
          known *= dims[d];
        } else if (unknown >= 0) {
          return dims;  // two '?': ambiguous
        } else {
          unknown = static_cast<int64_t>(d);
        }
      }
      if (unknown >= 0 && known != 0) dims[unknown] = in.num_elements() / known;
      return dims;
    }
    case OpCode::kTranspose: {
      const std::optional<Dims> perm = Ints(op, "permutation");
      const Dims& in = OperandDims(op, 0);
      if (!perm || perm->size() != in.size()) return result.dims();
      Dims dims;
      for (int64_t p : *perm) dims.push_back(p >= 0 && p < static_cast<int64_t>(in.size()) ? in[p] : kDynamicSize);
      return dims;
    }
    case OpCode::kSlice: {
      const std::optional<Dims> start = Ints(op, "start_indices");
      const std::optional<Dims> limit = Ints(op, "limit_indices");
      if (!start || !limit || start->size() != limit->size()) return result.dims();
      const Dims strides = IntsOr(op, "strides", Dims(start->size(), 1));
      Dims dims;
      for (size_t i = 0; i < start->size() && i < strides.size(); ++i) {
        dims.push_back(strides[i] > 0 ? std::max<int64_t>(0, ((*limit)[i] - (*start)[i] + strides[i] - 1) / strides[i])
                                      : kDynamicSize);
      }
      return dims;
    }
    case OpCode::kConcatenate: {
      const int64_t dim = IntOr(op.attribute("dimension"), -1);
      Dims dims = ElementwiseDims(op, result);
      if (dim < 0 || dim >= result.rank()) return dims;
      int64_t total = 0;
      for (const shlo::Value* v : op.operands) {
        const int64_t s = v->type.dims()[dim];
        if (!Known(s)) { total = kDynamicSize; break; }
        total += s;
      }
      dims[dim] = total;
      return dims;
    }
    case OpCode::kPad: {
      const Dims& in = OperandDims(op, 0);
      const Dims lo = IntsOr(op, "edge_padding_low", {});
      const Dims hi = IntsOr(op, "edge_padding_high", {});
      const Dims interior = IntsOr(op, "interior_padding", Dims(in.size(), 0));
      if (lo.size() != in.size() || hi.size() != in.size() || interior.size() != in.size()) {
        return result.dims();
      }
      Dims dims;
      for (size_t i = 0; i < in.size(); ++i) {
        dims.push_back(Known(in[i]) ? lo[i] + hi[i] + in[i] + std::max<int64_t>(in[i] - 1, 0) * interior[i]
                                    : kDynamicSize);
      }
      return dims;
    }
    case OpCode::kReduce: {
      // inputs..., init_values...: result r reduces input r.
      const Dims reduced = IntsOr(op, "dimensions", {});
      const Dims& in = OperandDims(op, r);
      Dims dims;
      for (size_t d = 0; d < in.size(); ++d) {
        if (!In(reduced, static_cast<int64_t>(d))) dims.push_back(in[d]);
      }
      return dims;
    }
    case OpCode::kReduceWindow:
      return ReduceWindowDims(op, result, r);
    case OpCode::kDotGeneral:
      return DotGeneralDims(op, result);
    case OpCode::kDot: {
      const Dims& a = OperandDims(op, 0);
      const Dims& b = OperandDims(op, 1);
      Dims dims;
      if (a.size() == 2) dims.push_back(a[0]);
      if (b.size() == 2) dims.push_back(b[1]);
      return dims;
    }
    case OpCode::kConvolution:
    case OpCode::kDynamicConv:
      return ConvolutionDims(op, result);
    case OpCode::kGather: {
      const std::optional<Dims> sizes = Ints(op, "slice_sizes");
      return sizes ? GatherDims(op, result, *sizes) : result.dims();
    }
    case OpCode::kDynamicSlice:
      return IntsOr(op, "slice_sizes", result.dims());
    case OpCode::kReverse:
    case OpCode::kDynamicUpdateSlice:
    case OpCode::kSelectAndScatter:
    case OpCode::kCholesky:
    case OpCode::kMap:
      return operand_dims(0);
    case OpCode::kTriangularSolve:
      return operand_dims(1);
    case OpCode::kSort:
    case OpCode::kOptimizationBarrier:
    case OpCode::kScatter:
      return operand_dims(r);
    case OpCode::kBatchNormInference:
    case OpCode::kBatchNormTraining:
    case OpCode::kBatchNormGrad: {
      if (r == 0) return operand_dims(0);
      const int64_t feature = IntOr(op.attribute("feature_index"), -1);
      const Dims& in = OperandDims(op, 0);
      if (feature < 0 || feature >= static_cast<int64_t>(in.size())) return result.dims();
      return Dims{in[feature]};
    }
    case OpCode::kFft: {
      Dims dims = operand_dims(0);
      const std::optional<Dims> length = Ints(op, "fft_length");
      const shlo::Attribute* kind_attr = op.attribute("fft_type");
      StatusOr<std::string> kind = kind_attr != nullptr ? shlo::AttrToEnumValue(*kind_attr)
                                                        : StatusOr<std::string>(std::string("FFT"));
      if (!length || length->empty() || dims.empty() || !kind.ok()) return result.dims();
      if (*kind == "RFFT") dims.back() = length->back() / 2 + 1;
      if (*kind == "IRFFT") dims.back() = length->back();
      return dims;
    }
    case OpCode::kBitcastConvert: {
      const Type& in = op.operands[0]->type;
      if (shlo::BitWidth(in.element_type()) != shlo::BitWidth(result.element_type())) {
        // Different widths add or drop the last dim; the rest carry over.
        Dims dims = result.dims();
        for (size_t d = 0; d < dims.size() && d < in.dims().size(); ++d) {
          if (!Known(dims[d]) && d + 1 < std::max(dims.size(), in.dims().size())) dims[d] = in.dims()[d];
        }
        return dims;
      }
      return ElementwiseDims(op, result);
    }
    default:
      break;
  }
  if (shlo::IsElementwise(op.code)) return ElementwiseDims(op, result);
  if (op.code == OpCode::kUnknown) {
    if (op.name.rfind("chlo.broadcast_", 0) == 0) return BroadcastingDims(op, result);
    if (op.name == "chlo.top_k") {
      Dims dims = operand_dims(0);
      const int64_t k = IntOr(op.attribute("k"), kDynamicSize);
      if (!dims.empty()) dims.back() = k;
      return dims;
    }
    // Other chlo ops are elementwise (the special functions).
    if (op.name.rfind("chlo.", 0) == 0) return ElementwiseDims(op, result);
  }
  return result.dims();
}

}  // namespace

Type FillDynamicDims(const Type& declared, const std::vector<int64_t>& dims) {
  if (!declared.is_tensor() || dims.size() != declared.dims().size()) return declared;
  std::vector<int64_t> out = declared.dims();
  for (size_t d = 0; d < out.size(); ++d) {
    if (!Known(out[d])) out[d] = dims[d];
  }
  return Type::Tensor(declared.element_type(), std::move(out));
}

std::vector<Type> InferResultTypes(const Operation& op) {
  std::vector<Type> types;
  // Tuples carry their elements' types.
  if (op.code == OpCode::kTuple && op.results.size() == 1) {
    std::vector<Type> elements;
    for (const shlo::Value* operand : op.operands) elements.push_back(operand->type);
    return {Type::Tuple(std::move(elements))};
  }
  if (op.code == OpCode::kGetTupleElement && op.results.size() == 1 && !op.operands.empty() &&
      op.operands[0]->type.is_tuple()) {
    const int64_t index = IntOr(op.attribute("index"), -1);
    const std::vector<Type>& elements = op.operands[0]->type.tuple_elements();
    if (index >= 0 && static_cast<size_t>(index) < elements.size()) return {elements[index]};
    return {op.results[0]->type};
  }
  for (size_t r = 0; r < op.results.size(); ++r) {
    const Type& declared = op.results[r]->type;
    if (!declared.is_tensor() || declared.has_static_shape()) {
      types.push_back(declared);
      continue;
    }
    types.push_back(FillDynamicDims(declared, InferDims(op, r)));
  }
  return types;
}

}  // namespace plugrt::shlo
