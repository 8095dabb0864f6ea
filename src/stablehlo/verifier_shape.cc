// plugrt StableHLO verifier: rules of the shape ops (broadcasts, concatenate,
// slices, pads, reshapes, gather/scatter, sort, transpose and their dynamic
// and legacy variants).
//
// Labels are the (Cn) constraints of each op's section in the StableHLO
// spec; (In) labels name the spec's input rows (the operand's kind, e.g. "a
// 0-dimensional tensor of integer type"). Ops the spec does not describe
// (broadcast, real_dynamic_slice, set_dimension_size, torch_index_select,
// einsum, unary_einsum) number their rules in this file, noted at each check.
// A '?' dimension is compatible with any size: rules that compare sizes only
// reject sizes that are known to differ.
#include <algorithm>
#include <string>
#include <vector>

#include "stablehlo/verifier_util.h"

namespace plugrt::shlo::verify {
namespace {

using Dims = std::vector<int64_t>;

std::string Shape(const Type& type) { return ListToString(type.dims()); }

// `type` has rank size(expected) and each dim is compatible with `expected`'s.
bool ShapeIs(const Type& type, const Dims& expected) {
  if (type.rank() != static_cast<int64_t>(expected.size())) return false;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (!DimsCompatible(type.dims()[i], expected[i])) return false;
  }
  return true;
}

bool Contains(const Dims& values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

Dims Concat(Dims a, const Dims& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

bool UniqueSorted(const Dims& values) {
  return AllUnique(values) && IsSortedAscending(values);
}

int64_t Size(const Dims& values) { return static_cast<int64_t>(values.size()); }

std::string ElementName(const Type& type) {
  return std::string(ElementTypeName(type.element_type()));
}

Status SameElementType(const Operation& op, std::string_view label, std::string_view rule,
                       const Type& a, const Type& b) {
  if (a.element_type() == b.element_type()) return OkStatus();
  return Violation(op, label, rule, ElementName(a), " vs ", ElementName(b));
}

// The operand at `index` is a 0-dimensional tensor of integer type.
Status IntegerScalar(const Operation& op, size_t index, std::string_view label,
                     std::string_view what) {
  const Type& type = OperandType(op, index);
  if (type.rank() == 0 && IsInteger(type.element_type())) return OkStatus();
  return Violation(op, label, StrCat(what, " is a 0-dimensional tensor of integer type"),
                   "operand #", index, " is ", type.ToString());
}

// The operand at `index` is a 1-dimensional integer tensor with `size`
// elements (unchecked when `size` is '?').
Status IntegerVector(const Operation& op, size_t index, std::string_view type_label,
                     std::string_view size_label, std::string_view what, int64_t size,
                     std::string_view size_rule) {
  const Type& type = OperandType(op, index);
  if (type.rank() != 1 || !IsInteger(type.element_type())) {
    return Violation(op, type_label, StrCat(what, " is a 1-dimensional tensor of integer type"),
                     "got ", type.ToString());
  }
  if (!DimsCompatible(type.dims()[0], size)) {
    return Violation(op, size_label, size_rule, what, " has ", type.dims()[0],
                     " elements, expected ", size);
  }
  return OkStatus();
}

Status CheckBasics(const Operation& op, int operands, int results) {
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, operands, results));
  return CheckAllTensors(op);
}

// --- broadcasts ---------------------------------------------------------------

// broadcast_in_dim (C1-C5) and dynamic_broadcast_in_dim (same labels, plus
// C7-C10 on output_dimensions and the known (non)expanding dimensions).
Status CheckBroadcastInDim(const Operation& op) {
  const bool dynamic = op.code == OpCode::kDynamicBroadcastInDim;
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, dynamic ? 2 : 1, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(Dims dims, RequiredIntListAttr(op, "broadcast_dimensions"));
  PLUGRT_RETURN_IF_ERROR(SameElementType(
      op, "C1", "element_type(operand) = element_type(result)", operand, result));
  if (Size(dims) != operand.rank()) {
    return Violation(op, "C2", "size(broadcast_dimensions) = rank(operand)",
                     ListToString(dims), " for rank ", operand.rank());
  }
  if (!AllInRange(dims, 0, result.rank())) {
    return Violation(op, "C3", "0 <= broadcast_dimensions < rank(result)", ListToString(dims),
                     " for rank ", result.rank());
  }
  if (!AllUnique(dims)) {
    return Violation(op, "C4", "is_unique(broadcast_dimensions)", ListToString(dims));
  }
  for (size_t j = 0; j < dims.size(); ++j) {
    const int64_t from = operand.dims()[j];
    const int64_t to = result.dims()[dims[j]];
    if (from != 1 && !DimsCompatible(from, to)) {
      return Violation(op, "C5",
                       "dim(operand, j) = 1 or dim(operand, j) = dim(result, "
                       "broadcast_dimensions[j])",
                       "operand ", Shape(operand), " dim ", j, " (", from, ") vs result ",
                       Shape(result), " dim ", dims[j], " (", to, ")");
    }
  }
  if (!dynamic) return OkStatus();
  PLUGRT_RETURN_IF_ERROR(IntegerVector(op, 1, "I2", "C7", "output_dimensions", result.rank(),
                                       "size(output_dimensions) = rank(result)"));
  PLUGRT_ASSIGN_OR_RETURN(Dims expanding, IntListAttr(op, "known_expanding_dimensions", {}));
  PLUGRT_ASSIGN_OR_RETURN(Dims nonexpanding,
                          IntListAttr(op, "known_nonexpanding_dimensions", {}));
  if (!AllUnique(Concat(expanding, nonexpanding))) {
    return Violation(op, "C8",
                     "is_unique(known_expanding_dimensions + known_nonexpanding_dimensions)",
                     ListToString(expanding), " and ", ListToString(nonexpanding));
  }
  if (!AllInRange(expanding, 0, operand.rank())) {
    return Violation(op, "C9", "0 <= known_expanding_dimensions < rank(operand)",
                     ListToString(expanding), " for rank ", operand.rank());
  }
  if (!AllInRange(nonexpanding, 0, operand.rank())) {
    return Violation(op, "C10", "0 <= known_nonexpanding_dimensions < rank(operand)",
                     ListToString(nonexpanding), " for rank ", operand.rank());
  }
  return OkStatus();
}

// broadcast (legacy, no spec section): C1 element types match; C2 the result
// shape is broadcast_sizes followed by the operand's shape.
Status CheckBroadcast(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, 1, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(Dims sizes, RequiredIntListAttr(op, "broadcast_sizes"));
  PLUGRT_RETURN_IF_ERROR(SameElementType(
      op, "C1", "element_type(operand) = element_type(result)", operand, result));
  const Dims expected = Concat(sizes, operand.dims());
  if (!ShapeIs(result, expected)) {
    return Violation(op, "C2", "shape(result) = broadcast_sizes + shape(operand)", "expected ",
                     ListToString(expected), ", result is ", Shape(result));
  }
  return OkStatus();
}

// --- concatenate ----------------------------------------------------------------

Status CheckConcatenate(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, -1, 1));
  if (op.operands.empty()) return Violation(op, "C3", "0 < size(inputs)", "no inputs");
  const Type& first = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, RequiredIntAttr(op, "dimension"));
  if (dimension < 0 || dimension >= first.rank()) {
    return Violation(op, "C4", "0 <= dimension < rank(inputs[0])", "dimension ", dimension,
                     " for rank ", first.rank());
  }
  for (size_t i = 1; i < op.operands.size(); ++i) {
    PLUGRT_RETURN_IF_ERROR(SameElementType(op, "C1", "same(element_type(inputs...))", first,
                                           OperandType(op, i)));
  }
  Dims expected = first.dims();
  for (size_t i = 1; i < op.operands.size(); ++i) {
    const Type& input = OperandType(op, i);
    bool same = input.rank() == first.rank();
    for (int64_t d = 0; same && d < first.rank(); ++d) {
      same = d == dimension || DimsCompatible(input.dims()[d], first.dims()[d]);
    }
    if (!same) {
      return Violation(op, "C2", "same(shape(inputs...)) except for dim(inputs..., dimension)",
                       "input #0 is ", Shape(first), ", input #", i, " is ", Shape(input),
                       " (dimension ", dimension, ")");
    }
    const int64_t size = input.dims()[dimension];
    int64_t& sum = expected[dimension];
    sum = sum == kDynamicSize || size == kDynamicSize ? kDynamicSize : sum + size;
  }
  PLUGRT_RETURN_IF_ERROR(SameElementType(
      op, "C5", "element_type(result) = element_type(inputs[0])", result, first));
  if (!ShapeIs(result, expected)) {
    return Violation(op, "C6",
                     "shape(result) = shape(inputs[0]) except dim(result, dimension) is the "
                     "sum of the inputs' dims",
                     "expected ", ListToString(expected), ", result is ", Shape(result));
  }
  return OkStatus();
}

// --- slices -------------------------------------------------------------------

// The start index operands from `first` on: each a 0-dimensional integer
// tensor (`scalar_label`), all of one type (`same_label`).
Status CheckStartIndices(const Operation& op, size_t first, std::string_view scalar_label,
                         std::string_view same_label) {
  for (size_t i = first; i < op.operands.size(); ++i) {
    PLUGRT_RETURN_IF_ERROR(IntegerScalar(op, i, scalar_label, "each start index"));
    if (OperandType(op, i) != OperandType(op, first)) {
      return Violation(op, same_label, "same(type(start_indices...))",
                       OperandType(op, first).ToString(), " vs ",
                       OperandType(op, i).ToString());
    }
  }
  return OkStatus();
}

Status CheckDynamicSlice(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, -1, 1));
  if (op.operands.empty()) {
    return Violation(op, kStructure, "number of operands", "expected at least 1, got 0");
  }
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(Dims sizes, RequiredIntListAttr(op, "slice_sizes"));
  PLUGRT_RETURN_IF_ERROR(SameElementType(
      op, "C1", "element_type(operand) = element_type(result)", operand, result));
  const int64_t indices = static_cast<int64_t>(op.operands.size()) - 1;
  if (indices != operand.rank() || Size(sizes) != operand.rank()) {
    return Violation(op, "C2", "size(start_indices) = size(slice_sizes) = rank(operand)",
                     indices, " start indices, slice_sizes ", ListToString(sizes), ", rank ",
                     operand.rank());
  }
  PLUGRT_RETURN_IF_ERROR(CheckStartIndices(op, 1, "I2", "C3"));
  for (size_t d = 0; d < sizes.size(); ++d) {
    const int64_t dim = operand.dims()[d];
    if (sizes[d] < 0 || (dim != kDynamicSize && sizes[d] > dim)) {
      return Violation(op, "C4", "0 <= slice_sizes <= shape(operand)", "slice_sizes ",
                       ListToString(sizes), ", operand ", Shape(operand));
    }
  }
  if (!ShapeIs(result, sizes)) {
    return Violation(op, "C5", "shape(result) = slice_sizes", "slice_sizes ",
                     ListToString(sizes), ", result ", Shape(result));
  }
  return OkStatus();
}

Status CheckDynamicUpdateSlice(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, -1, 1));
  if (op.operands.size() < 2) {
    return Violation(op, kStructure, "number of operands", "expected at least 2, got ",
                     op.operands.size());
  }
  const Type& operand = OperandType(op, 0);
  const Type& update = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  if (!TypesCompatible(operand, result)) {
    return Violation(op, "C1", "type(operand) = type(result)", operand.ToString(), " vs ",
                     result.ToString());
  }
  PLUGRT_RETURN_IF_ERROR(SameElementType(
      op, "C2", "element_type(update) = element_type(operand)", update, operand));
  if (update.rank() != operand.rank()) {
    return Violation(op, "C3", "rank(update) = rank(operand)", update.rank(), " vs ",
                     operand.rank());
  }
  const int64_t indices = static_cast<int64_t>(op.operands.size()) - 2;
  if (indices != operand.rank()) {
    return Violation(op, "C4", "size(start_indices) = rank(operand)", indices,
                     " start indices for rank ", operand.rank());
  }
  PLUGRT_RETURN_IF_ERROR(CheckStartIndices(op, 2, "I3", "C5"));
  for (int64_t d = 0; d < operand.rank(); ++d) {
    const int64_t u = update.dims()[d];
    const int64_t o = operand.dims()[d];
    if (u != kDynamicSize && o != kDynamicSize && u > o) {
      return Violation(op, "C6", "0 <= shape(update) <= shape(operand)", "update ",
                       Shape(update), ", operand ", Shape(operand));
    }
  }
  return OkStatus();
}

Status CheckSlice(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, 1, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(Dims start, RequiredIntListAttr(op, "start_indices"));
  PLUGRT_ASSIGN_OR_RETURN(Dims limit, RequiredIntListAttr(op, "limit_indices"));
  PLUGRT_ASSIGN_OR_RETURN(Dims strides, IntListAttr(op, "strides", Dims(start.size(), 1)));
  PLUGRT_RETURN_IF_ERROR(SameElementType(
      op, "C1", "element_type(operand) = element_type(result)", operand, result));
  const int64_t rank = operand.rank();
  if (Size(start) != rank || Size(limit) != rank || Size(strides) != rank) {
    return Violation(op, "C2",
                     "size(start_indices) = size(limit_indices) = size(strides) = rank(operand)",
                     "sizes ", start.size(), ", ", limit.size(), ", ", strides.size(),
                     " for rank ", rank);
  }
  Dims expected(start.size());
  for (size_t d = 0; d < start.size(); ++d) {
    const int64_t dim = operand.dims()[d];
    if (start[d] < 0 || start[d] > limit[d] || (dim != kDynamicSize && limit[d] > dim)) {
      return Violation(op, "C3", "0 <= start_indices <= limit_indices <= shape(operand)",
                       "dimension ", d, ": start ", start[d], ", limit ", limit[d],
                       ", operand ", Shape(operand));
    }
    if (strides[d] <= 0) {
      return Violation(op, "C4", "0 < strides", ListToString(strides));
    }
    expected[d] = (limit[d] - start[d] + strides[d] - 1) / strides[d];
  }
  if (!ShapeIs(result, expected)) {
    return Violation(op, "C5",
                     "shape(result) = ceil((limit_indices - start_indices) / strides)",
                     "expected ", ListToString(expected), ", result is ", Shape(result));
  }
  return OkStatus();
}

// real_dynamic_slice (no spec section; rules numbered as slice's): C1 element
// types match; C2 start_indices, limit_indices and strides are 1-dimensional
// integer tensors of size rank(operand); C5 rank(result) = rank(operand).
Status CheckRealDynamicSlice(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, 4, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_RETURN_IF_ERROR(SameElementType(
      op, "C1", "element_type(operand) = element_type(result)", operand, result));
  const char* names[] = {"start_indices", "limit_indices", "strides"};
  for (size_t i = 1; i <= 3; ++i) {
    PLUGRT_RETURN_IF_ERROR(IntegerVector(op, i, "C2", "C2", names[i - 1], operand.rank(),
                                         "size(start_indices) = size(limit_indices) = "
                                         "size(strides) = rank(operand)"));
  }
  if (result.rank() != operand.rank()) {
    return Violation(op, "C5", "rank(result) = rank(operand)", result.rank(), " vs ",
                     operand.rank());
  }
  return OkStatus();
}

// --- pads -----------------------------------------------------------------------

Status CheckPad(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, 2, 1));
  const Type& operand = OperandType(op, 0);
  const Type& value = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  const int64_t rank = operand.rank();
  PLUGRT_ASSIGN_OR_RETURN(Dims low, RequiredIntListAttr(op, "edge_padding_low"));
  PLUGRT_ASSIGN_OR_RETURN(Dims high, RequiredIntListAttr(op, "edge_padding_high"));
  PLUGRT_ASSIGN_OR_RETURN(Dims interior, IntListAttr(op, "interior_padding", Dims(rank, 0)));
  const char* rule1 = "element_type(operand) = element_type(padding_value) = element_type(result)";
  PLUGRT_RETURN_IF_ERROR(SameElementType(op, "C1", rule1, operand, value));
  PLUGRT_RETURN_IF_ERROR(SameElementType(op, "C1", rule1, operand, result));
  if (value.rank() != 0) {
    return Violation(op, "I2", "padding_value is a 0-dimensional tensor", "got ",
                     value.ToString());
  }
  if (Size(low) != rank || Size(high) != rank || Size(interior) != rank) {
    return Violation(op, "C2",
                     "size(edge_padding_low) = size(edge_padding_high) = size(interior_padding) "
                     "= rank(operand)",
                     "sizes ", low.size(), ", ", high.size(), ", ", interior.size(),
                     " for rank ", rank);
  }
  if (std::any_of(interior.begin(), interior.end(), [](int64_t v) { return v < 0; })) {
    return Violation(op, "C3", "0 <= interior_padding", ListToString(interior));
  }
  Dims expected(rank);
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t dim = operand.dims()[d];
    expected[d] = dim == kDynamicSize
                      ? kDynamicSize
                      : dim + low[d] + std::max<int64_t>(dim - 1, 0) * interior[d] + high[d];
  }
  if (!ShapeIs(result, expected)) {
    return Violation(op, "C4",
                     "shape(result) = shape(operand) + edge_padding_low + "
                     "max(shape(operand) - 1, 0) * interior_padding + edge_padding_high",
                     "expected ", ListToString(expected), ", result is ", Shape(result));
  }
  return OkStatus();
}

// dynamic_pad: the paddings are operands, so only their kinds, sizes and the
// result's rank are static.
Status CheckDynamicPad(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, 5, 1));
  const Type& operand = OperandType(op, 0);
  const Type& value = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  const char* rule1 = "element_type(operand) = element_type(padding_value) = element_type(result)";
  PLUGRT_RETURN_IF_ERROR(SameElementType(op, "C1", rule1, operand, value));
  PLUGRT_RETURN_IF_ERROR(SameElementType(op, "C1", rule1, operand, result));
  if (value.rank() != 0) {
    return Violation(op, "I2", "padding_value is a 0-dimensional tensor", "got ",
                     value.ToString());
  }
  const char* names[] = {"edge_padding_low", "edge_padding_high", "interior_padding"};
  const char* labels[] = {"I3", "I4", "I5"};
  for (size_t i = 2; i <= 4; ++i) {
    PLUGRT_RETURN_IF_ERROR(IntegerVector(op, i, labels[i - 2], "C2", names[i - 2],
                                         operand.rank(),
                                         "size(edge_padding_low) = size(edge_padding_high) = "
                                         "size(interior_padding) = rank(operand)"));
  }
  if (result.rank() != operand.rank()) {
    return Violation(op, "C4", "rank(result) = rank(operand)", result.rank(), " vs ",
                     operand.rank());
  }
  return OkStatus();
}

// --- reshapes -----------------------------------------------------------------

Status CheckReshape(const Operation& op) {
  const bool dynamic = op.code == OpCode::kDynamicReshape;
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, dynamic ? 2 : 1, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_RETURN_IF_ERROR(SameElementType(
      op, "C1", "element_type(operand) = element_type(result)", operand, result));
  if (operand.has_static_shape() && result.has_static_shape() &&
      operand.num_elements() != result.num_elements()) {
    return Violation(op, "C2", "size(operand) = size(result)", Shape(operand), " has ",
                     operand.num_elements(), " elements, ", Shape(result), " has ",
                     result.num_elements());
  }
  if (dynamic) {
    PLUGRT_RETURN_IF_ERROR(IntegerVector(op, 1, "I2", "C4", "output_shape", result.rank(),
                                         "size(output_shape) = rank(result)"));
  }
  return OkStatus();
}

Status CheckTranspose(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, 1, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(Dims permutation, RequiredIntListAttr(op, "permutation"));
  PLUGRT_RETURN_IF_ERROR(SameElementType(
      op, "C1", "element_type(operand) = element_type(result)", operand, result));
  if (!IsPermutation(permutation, operand.rank())) {
    return Violation(op, "C2", "permutation is a permutation of range(rank(operand))",
                     ListToString(permutation), " for rank ", operand.rank());
  }
  Dims expected;
  for (int64_t p : permutation) expected.push_back(operand.dims()[p]);
  if (!ShapeIs(result, expected)) {
    return Violation(op, "C3", "shape(result) = dim(operand, permutation...)", "expected ",
                     ListToString(expected), ", result is ", Shape(result));
  }
  return OkStatus();
}

Status CheckReverse(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, 1, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(Dims dims, RequiredIntListAttr(op, "dimensions"));
  if (!TypesCompatible(operand, result)) {
    return Violation(op, "C1", "type(operand) = type(result)", operand.ToString(), " vs ",
                     result.ToString());
  }
  if (!AllUnique(dims)) return Violation(op, "C2", "is_unique(dimensions)", ListToString(dims));
  if (!AllInRange(dims, 0, result.rank())) {
    return Violation(op, "C3", "0 <= dimensions < rank(result)", ListToString(dims),
                     " for rank ", result.rank());
  }
  return OkStatus();
}

// --- iota and dimension sizes -----------------------------------------------------

Status CheckDynamicIota(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, 1, 1));
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, RequiredIntAttr(op, "iota_dimension"));
  PLUGRT_RETURN_IF_ERROR(IntegerVector(op, 0, "I1", "C2", "output_shape", result.rank(),
                                       "rank(result) = size(output_shape)"));
  if (dimension < 0 || dimension >= result.rank()) {
    return Violation(op, "C1", "0 <= iota_dimension < size(output_shape)", "iota_dimension ",
                     dimension, " for rank ", result.rank());
  }
  return OkStatus();
}

Status CheckGetDimensionSize(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, 1, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, RequiredIntAttr(op, "dimension"));
  if (dimension < 0 || dimension >= operand.rank()) {
    return Violation(op, "C1", "0 <= dimension < rank(operand)", "dimension ", dimension,
                     " for rank ", operand.rank());
  }
  if (result.rank() != 0 || result.element_type() != ElementType::kSI32) {
    return Violation(op, kStructure, "the result is a 0-dimensional tensor of type si32",
                     "got ", result.ToString());
  }
  return OkStatus();
}

// set_dimension_size (no spec section): C1 0 <= dimension < rank(operand);
// C2 size is a 0-dimensional integer tensor; C3 the result has the operand's
// element type and shape except at `dimension`.
Status CheckSetDimensionSize(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, 2, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, RequiredIntAttr(op, "dimension"));
  if (dimension < 0 || dimension >= operand.rank()) {
    return Violation(op, "C1", "0 <= dimension < rank(operand)", "dimension ", dimension,
                     " for rank ", operand.rank());
  }
  PLUGRT_RETURN_IF_ERROR(IntegerScalar(op, 1, "C2", "size"));
  bool same = operand.element_type() == result.element_type() && result.rank() == operand.rank();
  for (int64_t d = 0; same && d < operand.rank(); ++d) {
    same = d == dimension || DimsCompatible(operand.dims()[d], result.dims()[d]);
  }
  if (!same) {
    return Violation(op, "C3",
                     "type(result) = type(operand) except for dim(result, dimension)",
                     operand.ToString(), " vs ", result.ToString(), " (dimension ", dimension,
                     ")");
  }
  return OkStatus();
}

// --- gather and scatter --------------------------------------------------------------

// gather and dynamic_gather (whose slice_sizes is an operand: the rules on
// slice_sizes' values do not apply, the result's offset dims are unknown).
Status CheckGather(const Operation& op) {
  const bool dynamic = op.code == OpCode::kDynamicGather;
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, dynamic ? 3 : 2, 1));
  const Type& operand = OperandType(op, 0);
  const Type& indices = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  const Attribute* numbers = StructAttr(op, "dimension_numbers");
  if (numbers == nullptr) {
    return Violation(op, kStructure, "attribute 'dimension_numbers' is a #stablehlo.gather",
                     op.attribute("dimension_numbers") == nullptr
                         ? std::string("it is absent")
                         : op.attribute("dimension_numbers")->ToString());
  }
  PLUGRT_ASSIGN_OR_RETURN(Dims offset_dims, FieldList(op, *numbers, "offset_dims"));
  PLUGRT_ASSIGN_OR_RETURN(Dims collapsed, FieldList(op, *numbers, "collapsed_slice_dims"));
  PLUGRT_ASSIGN_OR_RETURN(Dims operand_batching, FieldList(op, *numbers, "operand_batching_dims"));
  PLUGRT_ASSIGN_OR_RETURN(Dims indices_batching,
                          FieldList(op, *numbers, "start_indices_batching_dims"));
  PLUGRT_ASSIGN_OR_RETURN(Dims index_map, FieldList(op, *numbers, "start_index_map"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t index_vector_dim,
                          FieldInt(op, *numbers, "index_vector_dim", 0));
  Dims slice_sizes;
  if (!dynamic) {
    PLUGRT_ASSIGN_OR_RETURN(slice_sizes, RequiredIntListAttr(op, "slice_sizes"));
  }
  const int64_t rank = operand.rank();
  const int64_t indices_rank = indices.rank();

  if (!IsInteger(indices.element_type())) {
    return Violation(op, "I2", "start_indices is a tensor of integer type", "got ",
                     indices.ToString());
  }
  if (Size(offset_dims) + Size(collapsed) + Size(operand_batching) != rank) {
    return Violation(op, "C1",
                     "rank(operand) = size(offset_dims) + size(collapsed_slice_dims) + "
                     "size(operand_batching_dims)",
                     "rank ", rank, ", offset_dims ", ListToString(offset_dims),
                     ", collapsed_slice_dims ", ListToString(collapsed),
                     ", operand_batching_dims ", ListToString(operand_batching));
  }
  if (index_vector_dim < 0 || index_vector_dim > indices_rank) {
    return Violation(op, "C2", "0 <= index_vector_dim <= rank(start_indices)",
                     "index_vector_dim ", index_vector_dim, " for rank ", indices_rank);
  }
  const int64_t index_count =
      index_vector_dim < indices_rank ? indices.dims()[index_vector_dim] : 1;
  if (!DimsCompatible(Size(index_map), index_count)) {
    return Violation(op, "C3",
                     "size(start_index_map) = dim(start_indices, index_vector_dim) (1 when "
                     "index_vector_dim = rank(start_indices))",
                     "start_index_map ", ListToString(index_map), ", expected ", index_count,
                     " entries");
  }
  if (!UniqueSorted(offset_dims)) {
    return Violation(op, "C4", "is_unique(offset_dims) and is_sorted(offset_dims)",
                     ListToString(offset_dims));
  }
  if (!AllInRange(offset_dims, 0, result.rank())) {
    return Violation(op, "C5", "0 <= offset_dims < rank(result)", ListToString(offset_dims),
                     " for rank ", result.rank());
  }
  if (!AllUnique(Concat(collapsed, operand_batching))) {
    return Violation(op, "C6", "is_unique(collapsed_slice_dims + operand_batching_dims)",
                     ListToString(collapsed), " and ", ListToString(operand_batching));
  }
  if (!IsSortedAscending(collapsed)) {
    return Violation(op, "C7", "is_sorted(collapsed_slice_dims)", ListToString(collapsed));
  }
  if (!AllInRange(collapsed, 0, rank)) {
    return Violation(op, "C8", "0 <= collapsed_slice_dims < rank(operand)",
                     ListToString(collapsed), " for rank ", rank);
  }
  if (!IsSortedAscending(operand_batching)) {
    return Violation(op, "C10", "is_sorted(operand_batching_dims)",
                     ListToString(operand_batching));
  }
  if (!AllInRange(operand_batching, 0, rank)) {
    return Violation(op, "C11", "0 <= operand_batching_dims < rank(operand)",
                     ListToString(operand_batching), " for rank ", rank);
  }
  if (!UniqueSorted(indices_batching)) {
    return Violation(op, "C13",
                     "is_unique(start_indices_batching_dims) and "
                     "is_sorted(start_indices_batching_dims)",
                     ListToString(indices_batching));
  }
  if (!AllInRange(indices_batching, 0, indices_rank)) {
    return Violation(op, "C14", "0 <= start_indices_batching_dims < rank(start_indices)",
                     ListToString(indices_batching), " for rank ", indices_rank);
  }
  if (Contains(indices_batching, index_vector_dim)) {
    return Violation(op, "C15", "index_vector_dim not in start_indices_batching_dims",
                     "index_vector_dim ", index_vector_dim, ", start_indices_batching_dims ",
                     ListToString(indices_batching));
  }
  if (operand_batching.size() != indices_batching.size()) {
    return Violation(op, "C16",
                     "size(operand_batching_dims) = size(start_indices_batching_dims)",
                     ListToString(operand_batching), " vs ", ListToString(indices_batching));
  }
  for (size_t i = 0; i < operand_batching.size(); ++i) {
    const int64_t a = operand.dims()[operand_batching[i]];
    const int64_t b = indices.dims()[indices_batching[i]];
    if (!DimsCompatible(a, b)) {
      return Violation(op, "C17",
                       "dim(operand, operand_batching_dims...) = "
                       "dim(start_indices, start_indices_batching_dims...)",
                       "operand ", Shape(operand), " dim ", operand_batching[i], " vs indices ",
                       Shape(indices), " dim ", indices_batching[i]);
    }
  }
  if (!AllUnique(Concat(index_map, operand_batching))) {
    return Violation(op, "C18", "is_unique(start_index_map + operand_batching_dims)",
                     ListToString(index_map), " and ", ListToString(operand_batching));
  }
  if (!AllInRange(index_map, 0, rank)) {
    return Violation(op, "C19", "0 <= start_index_map < rank(operand)",
                     ListToString(index_map), " for rank ", rank);
  }
  if (dynamic) {
    PLUGRT_RETURN_IF_ERROR(IntegerVector(op, 2, "I3", "C20", "slice_sizes", rank,
                                         "size(slice_sizes) = rank(operand)"));
    slice_sizes.assign(rank, kDynamicSize);
  } else {
    if (Size(slice_sizes) != rank) {
      return Violation(op, "C20", "size(slice_sizes) = rank(operand)", ListToString(slice_sizes),
                       " for rank ", rank);
    }
    for (int64_t d : collapsed) {
      if (slice_sizes[d] > 1) {
        return Violation(op, "C9", "slice_sizes[collapsed_slice_dims...] <= 1", "slice_sizes ",
                         ListToString(slice_sizes), ", collapsed_slice_dims ",
                         ListToString(collapsed));
      }
    }
    for (int64_t d : operand_batching) {
      if (slice_sizes[d] > 1) {
        return Violation(op, "C12", "slice_sizes[operand_batching_dims...] <= 1",
                         "slice_sizes ", ListToString(slice_sizes), ", operand_batching_dims ",
                         ListToString(operand_batching));
      }
    }
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t dim = operand.dims()[d];
      if (slice_sizes[d] < 0 || (dim != kDynamicSize && slice_sizes[d] > dim)) {
        return Violation(op, "C21", "0 <= slice_sizes <= shape(operand)", "slice_sizes ",
                         ListToString(slice_sizes), ", operand ", Shape(operand));
      }
    }
  }
  Dims batch_sizes;
  for (int64_t d = 0; d < indices_rank; ++d) {
    if (d != index_vector_dim) batch_sizes.push_back(indices.dims()[d]);
  }
  Dims offset_sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(collapsed, d) && !Contains(operand_batching, d)) {
      offset_sizes.push_back(slice_sizes[d]);
    }
  }
  const char* rule22 =
      "shape(result) = combine(batch_dim_sizes, offset_dim_sizes) (start_indices' dims but "
      "index_vector_dim at the batch dims, slice_sizes but collapsed and batching dims at "
      "offset_dims)";
  Dims expected;
  size_t next_batch = 0, next_offset = 0;
  for (int64_t d = 0; d < result.rank(); ++d) {
    if (Contains(offset_dims, d)) {
      if (next_offset < offset_sizes.size()) expected.push_back(offset_sizes[next_offset]);
      ++next_offset;
    } else {
      if (next_batch < batch_sizes.size()) expected.push_back(batch_sizes[next_batch]);
      ++next_batch;
    }
  }
  if (next_batch != batch_sizes.size() || next_offset != offset_sizes.size()) {
    return Violation(op, "C22", rule22, "result rank ", result.rank(), ", expected ",
                     batch_sizes.size() + offset_sizes.size());
  }
  if (!ShapeIs(result, expected)) {
    return Violation(op, "C22", rule22, "expected ", ListToString(expected), ", result is ",
                     Shape(result));
  }
  return SameElementType(op, "C23", "element_type(operand) = element_type(result)", operand,
                         result);
}

Status CheckScatter(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckAllTensors(op));
  const size_t operands = op.operands.size();
  if (operands < 3 || operands % 2 == 0) {
    return Violation(op, "C5", "0 < size(inputs) = size(updates) = N",
                     "operands are N inputs, the scatter indices and N updates; got ", operands,
                     " operands");
  }
  const size_t n = (operands - 1) / 2;
  if (op.results.size() != n) {
    return Violation(op, kStructure, "one result per input", n, " inputs, ", op.results.size(),
                     " results");
  }
  if (op.regions.size() != 1) {
    return Violation(op, kStructure, "one update_computation region", "got ",
                     op.regions.size());
  }
  const Type& input = OperandType(op, 0);
  const Type& indices = OperandType(op, n);
  const Type& update = OperandType(op, n + 1);
  const Attribute* numbers = StructAttr(op, "scatter_dimension_numbers");
  if (numbers == nullptr) {
    const Attribute* attr = op.attribute("scatter_dimension_numbers");
    return Violation(op, kStructure,
                     "attribute 'scatter_dimension_numbers' is a #stablehlo.scatter",
                     attr == nullptr ? std::string("it is absent") : attr->ToString());
  }
  PLUGRT_ASSIGN_OR_RETURN(Dims window_dims, FieldList(op, *numbers, "update_window_dims"));
  PLUGRT_ASSIGN_OR_RETURN(Dims inserted, FieldList(op, *numbers, "inserted_window_dims"));
  PLUGRT_ASSIGN_OR_RETURN(Dims input_batching, FieldList(op, *numbers, "input_batching_dims"));
  PLUGRT_ASSIGN_OR_RETURN(Dims indices_batching,
                          FieldList(op, *numbers, "scatter_indices_batching_dims"));
  PLUGRT_ASSIGN_OR_RETURN(Dims to_operand,
                          FieldList(op, *numbers, "scatter_dims_to_operand_dims"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t index_vector_dim,
                          FieldInt(op, *numbers, "index_vector_dim", 0));
  const int64_t rank = input.rank();
  const int64_t indices_rank = indices.rank();

  for (size_t i = 1; i < n; ++i) {
    if (!ShapesCompatible(OperandType(op, i), input)) {
      return Violation(op, "C1", "same(shape(inputs...))", Shape(input), " vs ",
                       Shape(OperandType(op, i)));
    }
  }
  if (!IsInteger(indices.element_type())) {
    return Violation(op, "I2", "scatter_indices is a tensor of integer type", "got ",
                     indices.ToString());
  }
  if (Size(window_dims) + Size(inserted) + Size(input_batching) != rank) {
    return Violation(op, "C2",
                     "rank(inputs[0]) = size(update_window_dims) + size(inserted_window_dims) + "
                     "size(input_batching_dims)",
                     "rank ", rank, ", update_window_dims ", ListToString(window_dims),
                     ", inserted_window_dims ", ListToString(inserted), ", input_batching_dims ",
                     ListToString(input_batching));
  }
  for (size_t i = 1; i < n; ++i) {
    if (!ShapesCompatible(OperandType(op, n + 1 + i), update)) {
      return Violation(op, "C3", "same(shape(updates...))", Shape(update), " vs ",
                       Shape(OperandType(op, n + 1 + i)));
    }
  }
  for (size_t i = 0; i < n; ++i) {
    PLUGRT_RETURN_IF_ERROR(SameElementType(op, "C6",
                                           "element_type(updates...) = element_type(inputs...)",
                                           OperandType(op, n + 1 + i), OperandType(op, i)));
  }
  if (!UniqueSorted(window_dims)) {
    return Violation(op, "C7", "is_unique(update_window_dims) and is_sorted(update_window_dims)",
                     ListToString(window_dims));
  }
  if (!AllInRange(window_dims, 0, update.rank())) {
    return Violation(op, "C8", "0 <= update_window_dims < rank(updates[0])",
                     ListToString(window_dims), " for rank ", update.rank());
  }
  if (!AllUnique(Concat(inserted, input_batching))) {
    return Violation(op, "C9", "is_unique(inserted_window_dims + input_batching_dims)",
                     ListToString(inserted), " and ", ListToString(input_batching));
  }
  if (!IsSortedAscending(inserted)) {
    return Violation(op, "C10", "is_sorted(inserted_window_dims)", ListToString(inserted));
  }
  if (!AllInRange(inserted, 0, rank)) {
    return Violation(op, "C11", "0 <= inserted_window_dims < rank(inputs[0])",
                     ListToString(inserted), " for rank ", rank);
  }
  if (!IsSortedAscending(input_batching)) {
    return Violation(op, "C12", "is_sorted(input_batching_dims)", ListToString(input_batching));
  }
  if (!AllInRange(input_batching, 0, rank)) {
    return Violation(op, "C13", "0 <= input_batching_dims < rank(inputs[0])",
                     ListToString(input_batching), " for rank ", rank);
  }
  if (!UniqueSorted(indices_batching)) {
    return Violation(op, "C14",
                     "is_unique(scatter_indices_batching_dims) and "
                     "is_sorted(scatter_indices_batching_dims)",
                     ListToString(indices_batching));
  }
  if (!AllInRange(indices_batching, 0, indices_rank)) {
    return Violation(op, "C15", "0 <= scatter_indices_batching_dims < rank(scatter_indices)",
                     ListToString(indices_batching), " for rank ", indices_rank);
  }
  if (Contains(indices_batching, index_vector_dim)) {
    return Violation(op, "C16", "index_vector_dim not in scatter_indices_batching_dims",
                     "index_vector_dim ", index_vector_dim, ", scatter_indices_batching_dims ",
                     ListToString(indices_batching));
  }
  if (input_batching.size() != indices_batching.size()) {
    return Violation(op, "C17",
                     "size(input_batching_dims) = size(scatter_indices_batching_dims)",
                     ListToString(input_batching), " vs ", ListToString(indices_batching));
  }
  for (size_t i = 0; i < input_batching.size(); ++i) {
    const int64_t a = input.dims()[input_batching[i]];
    const int64_t b = indices.dims()[indices_batching[i]];
    if (!DimsCompatible(a, b)) {
      return Violation(op, "C18",
                       "dim(inputs[0], input_batching_dims...) = "
                       "dim(scatter_indices, scatter_indices_batching_dims...)",
                       "input ", Shape(input), " dim ", input_batching[i], " vs indices ",
                       Shape(indices), " dim ", indices_batching[i]);
    }
  }
  if (index_vector_dim < 0 || index_vector_dim > indices_rank) {
    return Violation(op, "C22", "0 <= index_vector_dim <= rank(scatter_indices)",
                     "index_vector_dim ", index_vector_dim, " for rank ", indices_rank);
  }
  const int64_t index_count =
      index_vector_dim < indices_rank ? indices.dims()[index_vector_dim] : 1;
  if (!DimsCompatible(Size(to_operand), index_count)) {
    return Violation(op, "C19",
                     "size(scatter_dims_to_operand_dims) = dim(scatter_indices, "
                     "index_vector_dim) (1 when index_vector_dim = rank(scatter_indices))",
                     "scatter_dims_to_operand_dims ", ListToString(to_operand), ", expected ",
                     index_count, " entries");
  }
  if (!AllUnique(Concat(to_operand, input_batching))) {
    return Violation(op, "C20", "is_unique(scatter_dims_to_operand_dims + input_batching_dims)",
                     ListToString(to_operand), " and ", ListToString(input_batching));
  }
  if (!AllInRange(to_operand, 0, rank)) {
    return Violation(op, "C21", "0 <= scatter_dims_to_operand_dims < rank(inputs[0])",
                     ListToString(to_operand), " for rank ", rank);
  }
  // C4: the updates' scatter dims are the indices' dims but index_vector_dim;
  // their window dims are at most the input's dims but the inserted and
  // batching ones.
  Dims scatter_sizes;
  for (int64_t d = 0; d < indices_rank; ++d) {
    if (d != index_vector_dim) scatter_sizes.push_back(indices.dims()[d]);
  }
  Dims window_bounds;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(inserted, d) && !Contains(input_batching, d)) {
      window_bounds.push_back(input.dims()[d]);
    }
  }
  const char* rule4 =
      "shape(updates[0]) = combine(update_scatter_dim_sizes, update_window_dim_sizes) "
      "(scatter_indices' dims but index_vector_dim at the scatter dims, at most the input's "
      "dims but inserted and batching dims at update_window_dims)";
  if (update.rank() != Size(scatter_sizes) + Size(window_bounds)) {
    return Violation(op, "C4", rule4, "updates rank ", update.rank(), ", expected ",
                     scatter_sizes.size() + window_bounds.size());
  }
  size_t next_scatter = 0, next_window = 0;
  for (int64_t d = 0; d < update.rank(); ++d) {
    const int64_t size = update.dims()[d];
    if (Contains(window_dims, d)) {
      const int64_t bound = next_window < window_bounds.size() ? window_bounds[next_window] : 0;
      ++next_window;
      if (size != kDynamicSize && bound != kDynamicSize && size > bound) {
        return Violation(op, "C4", rule4, "updates ", Shape(update), " dim ", d, " exceeds ",
                         bound, " of inputs[0] ", Shape(input));
      }
    } else {
      const int64_t want =
          next_scatter < scatter_sizes.size() ? scatter_sizes[next_scatter] : kDynamicSize;
      ++next_scatter;
      if (!DimsCompatible(size, want)) {
        return Violation(op, "C4", rule4, "updates ", Shape(update), " dim ", d, " vs ", want,
                         " of scatter_indices ", Shape(indices));
      }
    }
  }
  // C23: (tensor<E0>, ..., tensor<EN-1>, tensor<E0>, ..., tensor<EN-1>) ->
  // (tensor<E0>, ..., tensor<EN-1>); the Ei are the region's own (promotion
  // from the inputs' element types is not checked).
  const Region& body = op.region(0);
  std::vector<Type> region_args = RegionArgumentTypes(body);
  std::vector<Type> scalars;
  for (size_t i = 0; i < n; ++i) {
    const Type& arg = region_args.size() == 2 * n && region_args[i].is_tensor()
                          ? region_args[i]
                          : OperandType(op, i);
    scalars.push_back(Type::Scalar(arg.element_type()));
  }
  std::vector<Type> arguments = scalars;
  arguments.insert(arguments.end(), scalars.begin(), scalars.end());
  PLUGRT_RETURN_IF_ERROR(CheckRegionSignature(
      op, body, "update_computation", "C23",
      "update_computation has type (tensor<E0>, ..., tensor<EN-1>, tensor<E0>, ..., "
      "tensor<EN-1>) -> (tensor<E0>, ..., tensor<EN-1>)",
      &arguments, &scalars));
  for (size_t i = 0; i < n; ++i) {
    const Type& result = ResultType(op, i);
    if (!ShapesCompatible(result, OperandType(op, i))) {
      return Violation(op, "C24", "shape(inputs...) = shape(results...)", "input #", i, " ",
                       Shape(OperandType(op, i)), ", result ", Shape(result));
    }
    if (result.element_type() != scalars[i].element_type()) {
      return Violation(op, "C25", "element_type(results[i]) = Ei", "result #", i, " is ",
                       ElementName(result), ", E", i, " is ", ElementName(scalars[i]));
    }
  }
  return OkStatus();
}

// --- sort ---------------------------------------------------------------------------

Status CheckSort(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckAllTensors(op));
  if (op.operands.empty()) return Violation(op, "C1", "0 < size(inputs)", "no inputs");
  if (op.results.size() != op.operands.size() || op.regions.size() != 1) {
    return Violation(op, kStructure, "one result per input and one comparator region",
                     op.operands.size(), " inputs, ", op.results.size(), " results, ",
                     op.regions.size(), " regions");
  }
  const Type& first = OperandType(op, 0);
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (!TypesCompatible(OperandType(op, i), ResultType(op, i))) {
      return Violation(op, "C2", "type(inputs...) = type(results...)", "input #", i, " ",
                       OperandType(op, i).ToString(), ", result ", ResultType(op, i).ToString());
    }
    if (!ShapesCompatible(OperandType(op, i), first)) {
      return Violation(op, "C3", "same(shape(inputs...) + shape(results...))", Shape(first),
                       " vs ", Shape(OperandType(op, i)));
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, IntAttr(op, "dimension", -1));
  const int64_t rank = first.rank();
  if (dimension < -rank || dimension >= rank) {
    return Violation(op, "C4", "-rank(inputs[0]) <= dimension < rank(inputs[0])", "dimension ",
                     dimension, " for rank ", rank);
  }
  std::vector<Type> arguments;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    arguments.push_back(Type::Scalar(OperandType(op, i).element_type()));
    arguments.push_back(arguments.back());
  }
  const std::vector<Type> results = {Type::Scalar(ElementType::kI1)};
  return CheckRegionSignature(op, op.region(0), "comparator", "C5",
                              "comparator has type (tensor<E0>, tensor<E0>, ..., "
                              "tensor<EN-1>, tensor<EN-1>) -> tensor<i1>",
                              &arguments, &results);
}

// --- legacy indexing and einsum ------------------------------------------------------

// torch_index_select (no spec section): C1 0 <= batch_dims <= rank(index) and
// batch_dims <= dim < rank(operand); C2 the leading batch_dims dims of
// operand and index agree; C3 element types match; C4 shape(result) =
// operand dims before dim + index dims after the batch dims + operand dims
// after dim.
Status CheckTorchIndexSelect(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, 2, 1));
  const Type& operand = OperandType(op, 0);
  const Type& index = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(int64_t dim, RequiredIntAttr(op, "dim"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t batch_dims, IntAttr(op, "batch_dims", 0));
  if (!IsInteger(index.element_type())) {
    return Violation(op, "I2", "index is a tensor of integer type", "got ", index.ToString());
  }
  if (batch_dims < 0 || batch_dims > index.rank() || dim < batch_dims || dim >= operand.rank()) {
    return Violation(op, "C1",
                     "0 <= batch_dims <= rank(index) and batch_dims <= dim < rank(operand)",
                     "dim ", dim, ", batch_dims ", batch_dims, ", operand rank ", operand.rank(),
                     ", index rank ", index.rank());
  }
  for (int64_t d = 0; d < batch_dims; ++d) {
    if (!DimsCompatible(operand.dims()[d], index.dims()[d])) {
      return Violation(op, "C2", "dim(operand, i) = dim(index, i) for i < batch_dims",
                       "operand ", Shape(operand), ", index ", Shape(index));
    }
  }
  PLUGRT_RETURN_IF_ERROR(SameElementType(
      op, "C3", "element_type(operand) = element_type(result)", operand, result));
  Dims expected(operand.dims().begin(), operand.dims().begin() + dim);
  expected.insert(expected.end(), index.dims().begin() + batch_dims, index.dims().end());
  expected.insert(expected.end(), operand.dims().begin() + dim + 1, operand.dims().end());
  if (!ShapeIs(result, expected)) {
    return Violation(op, "C4",
                     "shape(result) = shape(operand)[:dim] + shape(index)[batch_dims:] + "
                     "shape(operand)[dim+1:]",
                     "expected ", ListToString(expected), ", result is ", Shape(result));
  }
  return OkStatus();
}

// One side of an einsum config: its labels, and where "..." stands (npos
// when absent).
struct EinsumTerm {
  std::string labels;
  size_t ellipsis = std::string::npos;
};

bool ParseEinsumTerm(std::string_view text, EinsumTerm* term) {
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      term->labels += c;
    } else if (text.substr(i, 3) == "..." && term->ellipsis == std::string::npos) {
      term->ellipsis = term->labels.size();
      i += 2;
    } else {
      return false;
    }
  }
  return true;
}

// The dimension of a rank-`rank` tensor that label #k of `term` names.
int64_t EinsumAxis(const EinsumTerm& term, size_t k, int64_t rank) {
  if (term.ellipsis == std::string::npos || k < term.ellipsis) return static_cast<int64_t>(k);
  return rank - static_cast<int64_t>(term.labels.size() - k);
}

// einsum and unary_einsum (no spec section): C1 einsum_config reads
// "lhs,rhs->result" ("operand->result" for unary_einsum) with letters for
// labels and at most one "..." per term; C2 each term has one label per
// dimension of its tensor; C3 result labels are unique and come from the
// inputs; C4 a label names equal sizes wherever it appears; C5 the result's
// dims are its labels' sizes.
Status CheckEinsum(const Operation& op) {
  const size_t inputs = op.code == OpCode::kEinsum ? 2 : 1;
  PLUGRT_RETURN_IF_ERROR(CheckBasics(op, static_cast<int>(inputs), 1));
  const Attribute* attr = op.attribute("einsum_config");
  if (attr == nullptr || attr->kind != Attribute::Kind::kString) {
    return Violation(op, kStructure, "attribute 'einsum_config' is a string",
                     attr == nullptr ? std::string("it is absent") : attr->ToString());
  }
  const std::string& config = attr->str;
  const char* form = inputs == 2 ? "einsum_config reads \"lhs,rhs->result\""
                                 : "einsum_config reads \"operand->result\"";
  std::vector<EinsumTerm> terms(inputs + 1);
  const size_t arrow = config.find("->");
  bool ok = arrow != std::string::npos;
  if (ok) {
    std::string_view left = std::string_view(config).substr(0, arrow);
    const size_t comma = left.find(',');
    if (inputs == 2) {
      ok = comma != std::string_view::npos && ParseEinsumTerm(left.substr(0, comma), &terms[0]) &&
           ParseEinsumTerm(left.substr(comma + 1), &terms[1]);
    } else {
      ok = comma == std::string_view::npos && ParseEinsumTerm(left, &terms[0]);
    }
    ok = ok && ParseEinsumTerm(std::string_view(config).substr(arrow + 2), &terms[inputs]);
  }
  if (!ok) return Violation(op, "C1", form, "got \"", config, "\"");
  std::vector<const Type*> types;
  for (size_t i = 0; i < inputs; ++i) types.push_back(&OperandType(op, i));
  types.push_back(&ResultType(op, 0));
  for (size_t t = 0; t < terms.size(); ++t) {
    const int64_t labels = static_cast<int64_t>(terms[t].labels.size());
    const int64_t rank = types[t]->rank();
    const bool fits = terms[t].ellipsis == std::string::npos ? labels == rank : labels <= rank;
    if (!fits) {
      return Violation(op, "C2", "each einsum_config term has one label per dimension",
                       "term \"", terms[t].labels, "\" for ", types[t]->ToString());
    }
  }
  // Sizes by label from the inputs.
  std::string known;
  Dims sizes;
  for (size_t t = 0; t < inputs; ++t) {
    for (size_t k = 0; k < terms[t].labels.size(); ++k) {
      const char label = terms[t].labels[k];
      const int64_t size = types[t]->dims()[EinsumAxis(terms[t], k, types[t]->rank())];
      const size_t at = known.find(label);
      if (at == std::string::npos) {
        known += label;
        sizes.push_back(size);
      } else if (!DimsCompatible(sizes[at], size)) {
        return Violation(op, "C4", "a label names equal sizes wherever it appears", "label '",
                         std::string(1, label), "' is ", sizes[at], " and ", size);
      } else if (sizes[at] == kDynamicSize) {
        sizes[at] = size;
      }
    }
  }
  const EinsumTerm& out = terms[inputs];
  const Type& result = ResultType(op, 0);
  for (size_t k = 0; k < out.labels.size(); ++k) {
    const char label = out.labels[k];
    const size_t at = known.find(label);
    if (at == std::string::npos || out.labels.find(label) != k) {
      return Violation(op, "C3", "result labels are unique and appear in the inputs",
                       "label '", std::string(1, label), "' in \"", config, "\"");
    }
    const int64_t dim = result.dims()[EinsumAxis(out, k, result.rank())];
    if (!DimsCompatible(dim, sizes[at])) {
      return Violation(op, "C5", "the result's dims are its labels' sizes", "label '",
                       std::string(1, label), "' is ", sizes[at], ", result is ", Shape(result));
    }
  }
  return OkStatus();
}

}  // namespace

void RegisterShapeChecks(CheckTable& table) {
  table.Set(OpCode::kBroadcast, CheckBroadcast);
  table.Set(OpCode::kBroadcastInDim, CheckBroadcastInDim);
  table.Set(OpCode::kDynamicBroadcastInDim, CheckBroadcastInDim);
  table.Set(OpCode::kConcatenate, CheckConcatenate);
  table.Set(OpCode::kDynamicIota, CheckDynamicIota);
  table.Set(OpCode::kPad, CheckPad);
  table.Set(OpCode::kDynamicPad, CheckDynamicPad);
  table.Set(OpCode::kReshape, CheckReshape);
  table.Set(OpCode::kDynamicReshape, CheckReshape);
  table.Set(OpCode::kSlice, CheckSlice);
  table.Set(OpCode::kDynamicSlice, CheckDynamicSlice);
  table.Set(OpCode::kDynamicUpdateSlice, CheckDynamicUpdateSlice);
  table.Set(OpCode::kRealDynamicSlice, CheckRealDynamicSlice);
  table.Set(OpCode::kGather, CheckGather);
  table.Set(OpCode::kDynamicGather, CheckGather);
  table.Set(OpCode::kScatter, CheckScatter);
  table.Set(OpCode::kGetDimensionSize, CheckGetDimensionSize);
  table.Set(OpCode::kSetDimensionSize, CheckSetDimensionSize);
  table.Set(OpCode::kReverse, CheckReverse);
  table.Set(OpCode::kSort, CheckSort);
  table.Set(OpCode::kTranspose, CheckTranspose);
  table.Set(OpCode::kTorchIndexSelect, CheckTorchIndexSelect);
  table.Set(OpCode::kEinsum, CheckEinsum);
  table.Set(OpCode::kUnaryEinsum, CheckEinsum);
}

}  // namespace plugrt::shlo::verify
