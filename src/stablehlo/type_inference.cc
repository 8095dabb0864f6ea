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

const Dims& OperandDims(const Operation& op, size_t i) { return op.operands[i]->type.dims(); }

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

shape::DotDimensions DotDims(const Operation& op) {
  const shlo::Attribute* dn = op.attribute("dot_dimension_numbers");
  return {Field(dn, "lhs_batching_dimensions"), Field(dn, "rhs_batching_dimensions"),
          Field(dn, "lhs_contracting_dimensions"), Field(dn, "rhs_contracting_dimensions")};
}

std::optional<Dims> ConvolutionDims(const Operation& op) {
  const shlo::Attribute* dn = op.attribute("dimension_numbers");
  if (dn == nullptr || op.operands.size() < 2) return std::nullopt;
  shape::ConvDimensions conv;
  conv.input_batch = FieldInt(dn, "input_batch_dimension", 0);
  conv.input_feature = FieldInt(dn, "input_feature_dimension", 1);
  conv.input_spatial = Field(dn, "input_spatial_dimensions");
  conv.kernel_input_feature = FieldInt(dn, "kernel_input_feature_dimension", 0);
  conv.kernel_output_feature = FieldInt(dn, "kernel_output_feature_dimension", 1);
  conv.kernel_spatial = Field(dn, "kernel_spatial_dimensions");
  conv.output_batch = FieldInt(dn, "output_batch_dimension", 0);
  conv.output_feature = FieldInt(dn, "output_feature_dimension", 1);
  conv.output_spatial = Field(dn, "output_spatial_dimensions");
  const Dims ones(conv.input_spatial.size(), 1);
  Dims dims = shape::Convolution(OperandDims(op, 0), OperandDims(op, 1), conv,
                                 IntsOr(op, "window_strides", ones),
                                 IntsOr(op, "padding", Dims(2 * ones.size(), 0)),
                                 IntsOr(op, "lhs_dilation", ones), IntsOr(op, "rhs_dilation", ones),
                                 IntOr(op.attribute("batch_group_count"), 1));
  // dynamic_conv's padding is an operand: its spatial sizes are not known here.
  if (op.code == OpCode::kDynamicConv) {
    for (int64_t d : conv.output_spatial) {
      if (d >= 0 && static_cast<size_t>(d) < dims.size()) dims[d] = kDynamicSize;
    }
  }
  return dims;
}

std::optional<Dims> ReduceWindowDims(const Operation& op, size_t input) {
  const Dims& in = OperandDims(op, input);
  const std::optional<Dims> window = Ints(op, "window_dimensions");
  if (!window) return std::nullopt;
  const Dims ones(in.size(), 1);
  return shape::ReduceWindow(
      in, {*window, IntsOr(op, "window_strides", ones), IntsOr(op, "base_dilations", ones),
           IntsOr(op, "window_dilations", ones), IntsOr(op, "padding", Dims(2 * in.size(), 0))});
}

std::optional<Dims> GatherDims(const Operation& op) {
  const shlo::Attribute* dn = op.attribute("dimension_numbers");
  const std::optional<Dims> sizes = Ints(op, "slice_sizes");
  if (dn == nullptr || !sizes || op.operands.size() < 2) return std::nullopt;
  const Dims& indices = OperandDims(op, 1);
  return shape::Gather(indices, *sizes,
                       {Field(dn, "offset_dims"), Field(dn, "collapsed_slice_dims"),
                        Field(dn, "operand_batching_dims"),
                        FieldInt(dn, "index_vector_dim", 0)});
}

// --- the rules, one per OpShape ------------------------------------------------
// Each gives result `r`'s dims, or nullopt when the op's attributes or operands
// do not let the rule apply (the declared type stands).

using Rule = std::optional<Dims> (*)(const Operation& op, size_t r);

std::optional<Dims> Operand(const Operation& op, size_t i) {
  if (i >= op.operands.size() || !op.operands[i]->type.is_tensor()) return std::nullopt;
  return OperandDims(op, i);
}

std::optional<Dims> LikeOperands(const Operation& op, size_t r) {
  return ElementwiseDims(op, op.results[r]->type);
}
std::optional<Dims> LikeOperand0(const Operation& op, size_t) { return Operand(op, 0); }
std::optional<Dims> LikeOperand1(const Operation& op, size_t) { return Operand(op, 1); }
std::optional<Dims> LikeInput(const Operation& op, size_t r) { return Operand(op, r); }

std::optional<Dims> BroadcastInDimRule(const Operation& op, size_t r) {
  const std::optional<Dims> map = Ints(op, "broadcast_dimensions");
  const Dims& in = OperandDims(op, 0);
  const Type& result = op.results[r]->type;
  Dims dims = result.dims();
  if (!map || map->size() != in.size()) return std::nullopt;
  for (size_t i = 0; i < in.size(); ++i) {
    const int64_t d = (*map)[i];
    if (d >= 0 && d < result.rank() && !Known(dims[d]) && in[i] != 1) dims[d] = in[i];
  }
  return dims;
}
std::optional<Dims> BroadcastRule(const Operation& op, size_t) {
  const std::optional<Dims> sizes = Ints(op, "broadcast_sizes");
  if (!sizes) return std::nullopt;
  return shape::Broadcast(*sizes, OperandDims(op, 0));
}
std::optional<Dims> ReshapeRule(const Operation& op, size_t r) {
  const Type& in = op.operands[0]->type;
  return shape::Reshape(in.has_static_shape() ? in.num_elements() : -1, op.results[r]->type.dims());
}
std::optional<Dims> TransposeRule(const Operation& op, size_t) {
  const std::optional<Dims> perm = Ints(op, "permutation");
  if (!perm || perm->size() != OperandDims(op, 0).size()) return std::nullopt;
  return shape::Transpose(OperandDims(op, 0), *perm);
}
std::optional<Dims> SliceRule(const Operation& op, size_t) {
  const std::optional<Dims> start = Ints(op, "start_indices");
  const std::optional<Dims> limit = Ints(op, "limit_indices");
  if (!start || !limit || start->size() != limit->size()) return std::nullopt;
  return shape::Slice(*start, *limit, IntsOr(op, "strides", Dims(start->size(), 1)));
}
std::optional<Dims> SliceSizesRule(const Operation& op, size_t) { return Ints(op, "slice_sizes"); }
std::optional<Dims> ConcatenateRule(const Operation& op, size_t) {
  const int64_t dim = IntOr(op.attribute("dimension"), -1);
  std::vector<Dims> inputs;
  for (const shlo::Value* v : op.operands) {
    if (!v->type.is_tensor() || dim < 0 || dim >= v->type.rank()) return std::nullopt;
    inputs.push_back(v->type.dims());
  }
  if (inputs.empty()) return std::nullopt;
  return shape::Concatenate(inputs, dim);
}
std::optional<Dims> PadRule(const Operation& op, size_t) {
  const Dims& in = OperandDims(op, 0);
  const Dims lo = IntsOr(op, "edge_padding_low", {});
  const Dims hi = IntsOr(op, "edge_padding_high", {});
  const Dims interior = IntsOr(op, "interior_padding", Dims(in.size(), 0));
  if (lo.size() != in.size() || hi.size() != in.size() || interior.size() != in.size()) {
    return std::nullopt;
  }
  return shape::Pad(in, lo, hi, interior);
}
std::optional<Dims> ReduceRule(const Operation& op, size_t r) {
  // inputs..., init_values...: result r reduces input r.
  if (r >= op.operands.size()) return std::nullopt;
  return shape::Reduce(OperandDims(op, r), IntsOr(op, "dimensions", {}));
}
std::optional<Dims> ReduceWindowRule(const Operation& op, size_t r) {
  if (r >= op.operands.size()) return std::nullopt;
  return ReduceWindowDims(op, r);
}
std::optional<Dims> DotGeneralRule(const Operation& op, size_t) {
  if (op.operands.size() < 2) return std::nullopt;
  return shape::DotGeneral(OperandDims(op, 0), OperandDims(op, 1), DotDims(op));
}
std::optional<Dims> DotRule(const Operation& op, size_t) {
  if (op.operands.size() < 2) return std::nullopt;
  return shape::Dot(OperandDims(op, 0), OperandDims(op, 1));
}
std::optional<Dims> ConvolutionRule(const Operation& op, size_t) { return ConvolutionDims(op); }
std::optional<Dims> GatherRule(const Operation& op, size_t) { return GatherDims(op); }
std::optional<Dims> BatchNormRule(const Operation& op, size_t r) {
  if (r == 0) return Operand(op, 0);
  const int64_t feature = IntOr(op.attribute("feature_index"), -1);
  const Dims& in = OperandDims(op, 0);
  if (feature < 0 || feature >= static_cast<int64_t>(in.size())) return std::nullopt;
  return Dims{in[feature]};
}
std::optional<Dims> FftRule(const Operation& op, size_t) {
  std::optional<Dims> dims = Operand(op, 0);
  const std::optional<Dims> length = Ints(op, "fft_length");
  const shlo::Attribute* kind_attr = op.attribute("fft_type");
  StatusOr<std::string> kind = kind_attr != nullptr ? shlo::AttrToEnumValue(*kind_attr)
                                                    : StatusOr<std::string>(std::string("FFT"));
  if (!dims || !length || length->empty() || dims->empty() || !kind.ok()) return std::nullopt;
  if (*kind == "RFFT") dims->back() = length->back() / 2 + 1;
  if (*kind == "IRFFT") dims->back() = length->back();
  return dims;
}
std::optional<Dims> BitcastConvertRule(const Operation& op, size_t r) {
  const Type& in = op.operands[0]->type;
  const Type& result = op.results[r]->type;
  if (shlo::BitWidth(in.element_type()) == shlo::BitWidth(result.element_type())) {
    return ElementwiseDims(op, result);
  }
  // Different widths add or drop the last dim; the rest carry over.
  Dims dims = result.dims();
  for (size_t d = 0; d < dims.size() && d < in.dims().size(); ++d) {
    if (!Known(dims[d]) && d + 1 < std::max(dims.size(), in.dims().size())) dims[d] = in.dims()[d];
  }
  return dims;
}
// Rules not about dims: their types are given by InferResultTypes (tuples)
// or by the caller (regions), or as declared.
std::optional<Dims> NoDimsRule(const Operation&, size_t) { return std::nullopt; }

// Ops of dialects outside the op table (chlo, which the CHLO lowering
// rewrites): their shapes by name.
std::optional<Dims> ChloDims(const Operation& op, size_t r) {
  const Type& result = op.results[r]->type;
  if (op.name.rfind("chlo.broadcast_", 0) == 0) return BroadcastingDims(op, result);
  if (op.name == "chlo.top_k") {
    std::optional<Dims> dims = Operand(op, 0);
    if (dims && !dims->empty()) dims->back() = IntOr(op.attribute("k"), kDynamicSize);
    return dims;
  }
  // Other chlo ops are elementwise (the special functions).
  if (op.name.rfind("chlo.", 0) == 0) return ElementwiseDims(op, result);
  return std::nullopt;
}

// Indexed by OpShape, in its order.
constexpr Rule kRules[] = {
    LikeOperands,     LikeOperands /* kSameShape */, LikeOperand0,       LikeOperand1,   LikeInput,       BroadcastInDimRule,
    BroadcastRule,    ReshapeRule,        TransposeRule,  SliceRule,       SliceSizesRule,
    ConcatenateRule,  PadRule,            ReduceRule,     ReduceWindowRule, DotGeneralRule,
    DotRule,          ConvolutionRule,    GatherRule,     BatchNormRule,   FftRule,
    BitcastConvertRule, NoDimsRule /* kTuple */, NoDimsRule /* kTupleElement */,
    NoDimsRule /* kRegions */, NoDimsRule /* kDeclared */,
};
static_assert(sizeof(kRules) / sizeof(kRules[0]) == static_cast<size_t>(OpShape::kDeclared) + 1,
              "one rule per OpShape");

bool OperandsAreTensors(const Operation& op) {
  for (const shlo::Value* v : op.operands) {
    if (!v->type.is_tensor()) return false;
  }
  return true;
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

std::optional<std::vector<int64_t>> InferResultDims(const Operation& op, size_t r) {
  if (r >= op.results.size() || !op.results[r]->type.is_tensor()) return std::nullopt;
  const OpShape rule = TraitsOf(op.code).shape;
  if (rule == OpShape::kDeclared && op.code != OpCode::kUnknown) return std::nullopt;
  // The rules read operand dims: an operand that is a token or tuple leaves
  // the declared type standing (the verifier reports it).
  if (!OperandsAreTensors(op) && rule != OpShape::kLikeOperands && rule != OpShape::kSameShape) {
    return std::nullopt;
  }
  if (op.code == OpCode::kUnknown) return ChloDims(op, r);
  return kRules[static_cast<size_t>(rule)](op, r);
}

std::vector<Type> InferResultTypes(const Operation& op) {
  const OpShape rule = TraitsOf(op.code).shape;
  // Tuples carry their elements' types.
  if (rule == OpShape::kTuple && op.results.size() == 1) {
    std::vector<Type> elements;
    for (const shlo::Value* operand : op.operands) elements.push_back(operand->type);
    return {Type::Tuple(std::move(elements))};
  }
  if (rule == OpShape::kTupleElement && op.results.size() == 1 && !op.operands.empty() &&
      op.operands[0]->type.is_tuple()) {
    const int64_t index = IntOr(op.attribute("index"), -1);
    const std::vector<Type>& elements = op.operands[0]->type.tuple_elements();
    if (index >= 0 && static_cast<size_t>(index) < elements.size()) return {elements[index]};
    return {op.results[0]->type};
  }
  std::vector<Type> types;
  for (size_t r = 0; r < op.results.size(); ++r) {
    const Type& declared = op.results[r]->type;
    if (!declared.is_tensor() || declared.has_static_shape()) {
      types.push_back(declared);
      continue;
    }
    std::optional<Dims> dims = InferResultDims(op, r);
    types.push_back(dims ? FillDynamicDims(declared, *dims) : declared);
  }
  return types;
}

}  // namespace plugrt::shlo
