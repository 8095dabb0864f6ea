// plugrt StableHLO verifier: rules of the shape ops (broadcasts, concatenate,
// slices, pads, reshapes, gather/scatter, sort, transpose and their dynamic
// and legacy variants).
//
// Size: one file per op group, as every verifier rule file is; each rule is
// a short function with its spec labels, and the group's rules share their
// helpers (dimension lists, index vectors, gather/scatter numbers).
//
// Labels are the (Cn) constraints of each op's section in the StableHLO
// spec; (In) labels name the spec's input rows (the operand's kind, e.g. "a
// 0-dimensional tensor of integer type"). Ops the spec does not describe
// (broadcast, real_dynamic_slice, set_dimension_size, torch_index_select,
// einsum, unary_einsum) number their rules in this file, noted at each check.
// A '?' dimension is compatible with any size: rules that compare sizes only
// reject sizes that are known to differ.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "stablehlo/verifier_util.h"

namespace plugrt::shlo::verify {
namespace {

using Dims = std::vector<int64_t>;

bool UniqueSorted(const Dims& values) {
  return AllUnique(values) && IsSortedAscending(values);
}

int64_t Size(const Dims& values) { return static_cast<int64_t>(values.size()); }

// is_unique(list) and is_sorted(list).
Status ListUniqueSorted(const Operation& op, std::string_view label, const NamedDims& list) {
  if (UniqueSorted(list.values)) return OkStatus();
  return Violation(op, label, StrCat("is_unique(", list.name, ") and is_sorted(", list.name, ")"),
                   ListToString(list.values));
}

Status ListSorted(const Operation& op, std::string_view label, const NamedDims& list) {
  if (IsSortedAscending(list.values)) return OkStatus();
  return Violation(op, label, StrCat("is_sorted(", list.name, ")"), ListToString(list.values));
}

// is_unique(a + b).
Status ListsDisjoint(const Operation& op, std::string_view label, const NamedDims& a,
                     const NamedDims& b) {
  if (AllUnique(Concat(a.values, b.values))) return OkStatus();
  return Violation(op, label, StrCat("is_unique(", a.name, " + ", b.name, ")"),
                   ListToString(a.values), " and ", ListToString(b.values));
}

// 0 <= `name` = `value` < rank(`of`).
Status DimInRank(const Operation& op, std::string_view label, std::string_view name,
                 int64_t value, std::string_view of, int64_t rank) {
  if (value >= 0 && value < rank) return OkStatus();
  return Violation(op, label, StrCat("0 <= ", name, " < rank(", of, ")"), name, " ", value,
                   " for rank ", rank);
}

// shape(result) is `expected` (ShapeIs), else `rule` under `label`.
Status CheckResultShape(const Operation& op, std::string_view label, std::string_view rule,
                        const Dims& expected) {
  const Type& result = ResultType(op, 0);
  if (ShapeIs(result, expected)) return OkStatus();
  return Violation(op, label, rule, "expected ", ListToString(expected), ", result is ",
                   Shape(result));
}

// --- broadcasts ---------------------------------------------------------------

// broadcast_in_dim (C1-C5) and dynamic_broadcast_in_dim (same labels, plus
// C7-C10 on output_dimensions and the known (non)expanding dimensions).
Status CheckBroadcastInDim(const Operation& op) {
  const bool dynamic = op.code == OpCode::kDynamicBroadcastInDim;
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, dynamic ? 2 : 1, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(Dims dims, RequiredIntListAttr(op, "broadcast_dimensions"));
  PLUGRT_RETURN_IF_ERROR(SameElementType(
      op, "C1", "element_type(operand) = element_type(result)", operand, result));
  if (Size(dims) != operand.rank()) {
    return Violation(op, "C2", "size(broadcast_dimensions) = rank(operand)",
                     ListToString(dims), " for rank ", operand.rank());
  }
  PLUGRT_RETURN_IF_ERROR(
      ListInRank(op, "C3", {"broadcast_dimensions", dims}, "result", result.rank()));
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
  const NamedDims expanding_list = {"known_expanding_dimensions", expanding};
  const NamedDims nonexpanding_list = {"known_nonexpanding_dimensions", nonexpanding};
  PLUGRT_RETURN_IF_ERROR(ListsDisjoint(op, "C8", expanding_list, nonexpanding_list));
  PLUGRT_RETURN_IF_ERROR(ListInRank(op, "C9", expanding_list, "operand", operand.rank()));
  return ListInRank(op, "C10", nonexpanding_list, "operand", operand.rank());
}

// broadcast (legacy, no spec section): C1 element types match; C2 the result
// shape is broadcast_sizes followed by the operand's shape.
Status CheckBroadcast(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 1, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(Dims sizes, RequiredIntListAttr(op, "broadcast_sizes"));
  PLUGRT_RETURN_IF_ERROR(SameElementType(
      op, "C1", "element_type(operand) = element_type(result)", operand, result));
  return CheckResultShape(op, "C2", "shape(result) = broadcast_sizes + shape(operand)",
                          shape::Broadcast(sizes, operand.dims()));
}

// --- concatenate ----------------------------------------------------------------

Status CheckConcatenate(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, -1, 1));
  if (op.operands.empty()) return Violation(op, "C3", "0 < size(inputs)", "no inputs");
  const Type& first = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, RequiredIntAttr(op, "dimension"));
  PLUGRT_RETURN_IF_ERROR(DimInRank(op, "C4", "dimension", dimension, "inputs[0]", first.rank()));
  for (size_t i = 1; i < op.operands.size(); ++i) {
    PLUGRT_RETURN_IF_ERROR(SameElementType(op, "C1", "same(element_type(inputs...))", first,
                                           OperandType(op, i)));
  }
  std::vector<Dims> inputs = {first.dims()};
  for (size_t i = 1; i < op.operands.size(); ++i) {
    const Type& input = OperandType(op, i);
    inputs.push_back(input.dims());
    bool same = input.rank() == first.rank();
    for (int64_t d = 0; same && d < first.rank(); ++d) {
      same = d == dimension || DimsCompatible(input.dims()[d], first.dims()[d]);
    }
    if (!same) {
      return Violation(op, "C2", "same(shape(inputs...)) except for dim(inputs..., dimension)",
                       "input #0 is ", Shape(first), ", input #", i, " is ", Shape(input),
                       " (dimension ", dimension, ")");
    }
  }
  PLUGRT_RETURN_IF_ERROR(SameElementType(
      op, "C5", "element_type(result) = element_type(inputs[0])", result, first));
  return CheckResultShape(op, "C6",
                          "shape(result) = shape(inputs[0]) except dim(result, dimension) is the "
                          "sum of the inputs' dims",
                          shape::Concatenate(inputs, dimension));
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
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, -1, 1));
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
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, -1, 1));
  if (op.operands.size() < 2) {
    return Violation(op, kStructure, "number of operands", "expected at least 2, got ",
                     op.operands.size());
  }
  const Type& operand = OperandType(op, 0);
  const Type& update = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  PLUGRT_RETURN_IF_ERROR(SameType(op, "C1", "type(operand) = type(result)", operand, result));
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
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 1, 1));
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
  }
  return CheckResultShape(op, "C5", "shape(result) = ceil((limit_indices - start_indices) / strides)",
                          shape::Slice(start, limit, strides));
}

// The three operands from `first` on that hold what the static op's
// attributes hold (real_dynamic_slice, dynamic_pad): 1-dimensional integer
// tensors (`type_labels`) of rank(operand) elements (C2, `size_rule`); and
// rank(result) = rank(operand) (`rank_label`).
Status CheckDynamicLists(const Operation& op, size_t first, const char* const (&names)[3],
                         const char* const (&type_labels)[3], std::string_view size_rule,
                         std::string_view rank_label) {
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  for (size_t i = 0; i < 3; ++i) {
    PLUGRT_RETURN_IF_ERROR(IntegerVector(op, first + i, type_labels[i], "C2", names[i],
                                         operand.rank(), size_rule));
  }
  if (result.rank() != operand.rank()) {
    return Violation(op, rank_label, "rank(result) = rank(operand)", result.rank(), " vs ",
                     operand.rank());
  }
  return OkStatus();
}

// real_dynamic_slice (no spec section; rules numbered as slice's): C1 element
// types match; C2 start_indices, limit_indices and strides are 1-dimensional
// integer tensors of size rank(operand); C5 rank(result) = rank(operand).
Status CheckRealDynamicSlice(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 4, 1));
  PLUGRT_RETURN_IF_ERROR(SameElementType(op, "C1", "element_type(operand) = element_type(result)",
                                         OperandType(op, 0), ResultType(op, 0)));
  return CheckDynamicLists(
      op, 1, {"start_indices", "limit_indices", "strides"}, {"C2", "C2", "C2"},
      "size(start_indices) = size(limit_indices) = size(strides) = rank(operand)", "C5");
}

// --- pads -----------------------------------------------------------------------

// C1 and I2 of pad and dynamic_pad: operand, padding_value and result share
// an element type; padding_value is 0-dimensional.
Status CheckPaddingValue(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  const Type& value = OperandType(op, 1);
  const char* rule1 = "element_type(operand) = element_type(padding_value) = element_type(result)";
  PLUGRT_RETURN_IF_ERROR(SameElementType(op, "C1", rule1, operand, value));
  PLUGRT_RETURN_IF_ERROR(SameElementType(op, "C1", rule1, operand, ResultType(op, 0)));
  if (value.rank() != 0) {
    return Violation(op, "I2", "padding_value is a 0-dimensional tensor", "got ",
                     value.ToString());
  }
  return OkStatus();
}

Status CheckPad(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 2, 1));
  const Type& operand = OperandType(op, 0);
  const int64_t rank = operand.rank();
  PLUGRT_ASSIGN_OR_RETURN(Dims low, RequiredIntListAttr(op, "edge_padding_low"));
  PLUGRT_ASSIGN_OR_RETURN(Dims high, RequiredIntListAttr(op, "edge_padding_high"));
  PLUGRT_ASSIGN_OR_RETURN(Dims interior, IntListAttr(op, "interior_padding", Dims(rank, 0)));
  PLUGRT_RETURN_IF_ERROR(CheckPaddingValue(op));
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
  return CheckResultShape(op, "C4",
                          "shape(result) = shape(operand) + edge_padding_low + "
                          "max(shape(operand) - 1, 0) * interior_padding + edge_padding_high",
                          shape::Pad(operand.dims(), low, high, interior));
}

// dynamic_pad: the paddings are operands, so only their kinds, sizes and the
// result's rank are static.
Status CheckDynamicPad(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 5, 1));
  PLUGRT_RETURN_IF_ERROR(CheckPaddingValue(op));
  return CheckDynamicLists(op, 2, {"edge_padding_low", "edge_padding_high", "interior_padding"},
                           {"I3", "I4", "I5"},
                           "size(edge_padding_low) = size(edge_padding_high) = "
                           "size(interior_padding) = rank(operand)",
                           "C4");
}

// --- reshapes -----------------------------------------------------------------

Status CheckReshape(const Operation& op) {
  const bool dynamic = op.code == OpCode::kDynamicReshape;
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, dynamic ? 2 : 1, 1));
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
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 1, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(Dims permutation, RequiredIntListAttr(op, "permutation"));
  PLUGRT_RETURN_IF_ERROR(SameElementType(
      op, "C1", "element_type(operand) = element_type(result)", operand, result));
  if (!IsPermutation(permutation, operand.rank())) {
    return Violation(op, "C2", "permutation is a permutation of range(rank(operand))",
                     ListToString(permutation), " for rank ", operand.rank());
  }
  return CheckResultShape(op, "C3", "shape(result) = dim(operand, permutation...)",
                          shape::Transpose(operand.dims(), permutation));
}

Status CheckReverse(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 1, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(Dims dims, RequiredIntListAttr(op, "dimensions"));
  PLUGRT_RETURN_IF_ERROR(SameType(op, "C1", "type(operand) = type(result)", operand, result));
  if (!AllUnique(dims)) return Violation(op, "C2", "is_unique(dimensions)", ListToString(dims));
  return ListInRank(op, "C3", {"dimensions", dims}, "result", result.rank());
}

// --- iota and dimension sizes -----------------------------------------------------

Status CheckDynamicIota(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 1, 1));
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
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 1, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, RequiredIntAttr(op, "dimension"));
  PLUGRT_RETURN_IF_ERROR(DimInRank(op, "C1", "dimension", dimension, "operand", operand.rank()));
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
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 2, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, RequiredIntAttr(op, "dimension"));
  PLUGRT_RETURN_IF_ERROR(DimInRank(op, "C1", "dimension", dimension, "operand", operand.rank()));
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

// How gather and scatter name the dimension numbers they share: the
// attribute, the operand indexed and the indices, and the fields, in
// gather's terms window (offset_dims), collapsed (collapsed_slice_dims),
// operand batching, indices batching and index map (start_index_map).
struct IndexedNames {
  std::string_view attribute;     // its kind is #stablehlo.<kind>
  std::string_view kind;
  std::string_view operand;       // in rules
  std::string_view operand_word;  // in details
  std::string_view indices;
  std::string_view fields[5];
};

constexpr IndexedNames kGatherNames = {
    "dimension_numbers", "gather", "operand", "operand", "start_indices",
    {"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
     "start_indices_batching_dims", "start_index_map"}};
constexpr IndexedNames kScatterNames = {
    "scatter_dimension_numbers", "scatter", "inputs[0]", "input", "scatter_indices",
    {"update_window_dims", "inserted_window_dims", "input_batching_dims",
     "scatter_indices_batching_dims", "scatter_dims_to_operand_dims"}};

struct IndexedDims {
  const IndexedNames* names;
  const Type* operand;
  const Type* indices;
  NamedDims window, collapsed, operand_batching, indices_batching, index_map;
  int64_t index_vector_dim;
};

StatusOr<IndexedDims> ReadIndexedDims(const Operation& op, const IndexedNames& names,
                                      const Type& operand, const Type& indices) {
  const Attribute* numbers = StructAttr(op, names.attribute);
  if (numbers == nullptr) {
    const Attribute* attr = op.attribute(names.attribute);
    return Violation(op, kStructure,
                     StrCat("attribute '", names.attribute, "' is a #stablehlo.", names.kind),
                     attr == nullptr ? std::string("it is absent") : attr->ToString());
  }
  IndexedDims x{};
  x.names = &names;
  x.operand = &operand;
  x.indices = &indices;
  NamedDims* lists[] = {&x.window, &x.collapsed, &x.operand_batching, &x.indices_batching,
                        &x.index_map};
  for (size_t i = 0; i < 5; ++i) {
    lists[i]->name = names.fields[i];
    PLUGRT_ASSIGN_OR_RETURN(lists[i]->values, FieldList(op, *numbers, names.fields[i]));
  }
  PLUGRT_ASSIGN_OR_RETURN(x.index_vector_dim, FieldInt(op, *numbers, "index_vector_dim", 0));
  return x;
}

// rank(operand) = size(window) + size(collapsed) + size(operand batching).
Status CheckIndexedRank(const Operation& op, std::string_view label, const IndexedDims& x) {
  const int64_t rank = x.operand->rank();
  if (Size(x.window.values) + Size(x.collapsed.values) + Size(x.operand_batching.values) ==
      rank) {
    return OkStatus();
  }
  return Violation(op, label,
                   StrCat("rank(", x.names->operand, ") = size(", x.window.name, ") + size(",
                          x.collapsed.name, ") + size(", x.operand_batching.name, ")"),
                   "rank ", rank, ", ", x.window.name, " ", ListToString(x.window.values), ", ",
                   x.collapsed.name, " ", ListToString(x.collapsed.values), ", ",
                   x.operand_batching.name, " ", ListToString(x.operand_batching.values));
}

// 0 <= index_vector_dim <= rank(indices) (`range_label`); the index map has
// one entry per index vector element (`size_label`).
Status CheckIndexVector(const Operation& op, std::string_view range_label,
                        std::string_view size_label, const IndexedDims& x) {
  const Type& indices = *x.indices;
  const int64_t ivd = x.index_vector_dim;
  if (ivd < 0 || ivd > indices.rank()) {
    return Violation(op, range_label,
                     StrCat("0 <= index_vector_dim <= rank(", x.names->indices, ")"),
                     "index_vector_dim ", ivd, " for rank ", indices.rank());
  }
  const int64_t count = ivd < indices.rank() ? indices.dims()[ivd] : 1;
  if (DimsCompatible(Size(x.index_map.values), count)) return OkStatus();
  return Violation(op, size_label,
                   StrCat("size(", x.index_map.name, ") = dim(", x.names->indices,
                          ", index_vector_dim) (1 when index_vector_dim = rank(",
                          x.names->indices, "))"),
                   x.index_map.name, " ", ListToString(x.index_map.values), ", expected ", count,
                   " entries");
}

// The rules on the collapsed and batching dims, under `labels`: is_unique(
// collapsed + operand batching), is_sorted(collapsed), collapsed in range,
// is_sorted(operand batching), operand batching in range, indices batching
// unique and sorted, indices batching in range, index_vector_dim not among
// them, as many operand as indices batching dims, and their sizes agree.
Status CheckBatchingDims(const Operation& op, const std::array<std::string_view, 10>& labels,
                         const IndexedDims& x) {
  const Type& operand = *x.operand;
  const Type& indices = *x.indices;
  const NamedDims& ob = x.operand_batching;
  const NamedDims& ib = x.indices_batching;
  PLUGRT_RETURN_IF_ERROR(ListsDisjoint(op, labels[0], x.collapsed, ob));
  PLUGRT_RETURN_IF_ERROR(ListSorted(op, labels[1], x.collapsed));
  PLUGRT_RETURN_IF_ERROR(ListInRank(op, labels[2], x.collapsed, x.names->operand, operand.rank()));
  PLUGRT_RETURN_IF_ERROR(ListSorted(op, labels[3], ob));
  PLUGRT_RETURN_IF_ERROR(ListInRank(op, labels[4], ob, x.names->operand, operand.rank()));
  PLUGRT_RETURN_IF_ERROR(ListUniqueSorted(op, labels[5], ib));
  PLUGRT_RETURN_IF_ERROR(ListInRank(op, labels[6], ib, x.names->indices, indices.rank()));
  if (Contains(ib.values, x.index_vector_dim)) {
    return Violation(op, labels[7], StrCat("index_vector_dim not in ", ib.name),
                     "index_vector_dim ", x.index_vector_dim, ", ", ib.name, " ",
                     ListToString(ib.values));
  }
  if (ob.values.size() != ib.values.size()) {
    return Violation(op, labels[8], StrCat("size(", ob.name, ") = size(", ib.name, ")"),
                     ListToString(ob.values), " vs ", ListToString(ib.values));
  }
  for (size_t i = 0; i < ob.values.size(); ++i) {
    if (!DimsCompatible(operand.dims()[ob.values[i]], indices.dims()[ib.values[i]])) {
      return Violation(op, labels[9],
                       StrCat("dim(", x.names->operand, ", ", ob.name, "...) = dim(",
                              x.names->indices, ", ", ib.name, "...)"),
                       x.names->operand_word, " ", Shape(operand), " dim ", ob.values[i],
                       " vs indices ", Shape(indices), " dim ", ib.values[i]);
    }
  }
  return OkStatus();
}

// is_unique(index map + operand batching) and the index map in range.
Status CheckIndexMap(const Operation& op, std::string_view unique_label,
                     std::string_view range_label, const IndexedDims& x) {
  PLUGRT_RETURN_IF_ERROR(ListsDisjoint(op, unique_label, x.index_map, x.operand_batching));
  return ListInRank(op, range_label, x.index_map, x.names->operand, x.operand->rank());
}

// The indices' dims but index_vector_dim (gather's batch dims, scatter's
// update scatter dims).
Dims IndexBatchSizes(const IndexedDims& x) {
  Dims sizes;
  for (int64_t d = 0; d < x.indices->rank(); ++d) {
    if (d != x.index_vector_dim) sizes.push_back(x.indices->dims()[d]);
  }
  return sizes;
}

// `sizes` (one per operand dim) but at the collapsed and batching dims: the
// sizes of the window dims.
Dims WindowSizes(const IndexedDims& x, const Dims& sizes) {
  Dims window;
  for (int64_t d = 0; d < Size(sizes); ++d) {
    if (!Contains(x.collapsed.values, d) && !Contains(x.operand_batching.values, d)) {
      window.push_back(sizes[d]);
    }
  }
  return window;
}

// gather and dynamic_gather (whose slice_sizes is an operand: the rules on
// slice_sizes' values do not apply, the result's offset dims are unknown).
Status CheckGather(const Operation& op) {
  const bool dynamic = op.code == OpCode::kDynamicGather;
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, dynamic ? 3 : 2, 1));
  const Type& operand = OperandType(op, 0);
  const Type& indices = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(IndexedDims x, ReadIndexedDims(op, kGatherNames, operand, indices));
  Dims slice_sizes;
  if (!dynamic) {
    PLUGRT_ASSIGN_OR_RETURN(slice_sizes, RequiredIntListAttr(op, "slice_sizes"));
  }
  const int64_t rank = operand.rank();

  if (!IsInteger(indices.element_type())) {
    return Violation(op, "I2", "start_indices is a tensor of integer type", "got ",
                     indices.ToString());
  }
  PLUGRT_RETURN_IF_ERROR(CheckIndexedRank(op, "C1", x));
  PLUGRT_RETURN_IF_ERROR(CheckIndexVector(op, "C2", "C3", x));
  PLUGRT_RETURN_IF_ERROR(ListUniqueSorted(op, "C4", x.window));
  PLUGRT_RETURN_IF_ERROR(ListInRank(op, "C5", x.window, "result", result.rank()));
  PLUGRT_RETURN_IF_ERROR(CheckBatchingDims(
      op, {"C6", "C7", "C8", "C10", "C11", "C13", "C14", "C15", "C16", "C17"}, x));
  PLUGRT_RETURN_IF_ERROR(CheckIndexMap(op, "C18", "C19", x));
  const Dims& collapsed = x.collapsed.values;
  const Dims& operand_batching = x.operand_batching.values;
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
  const char* rule22 =
      "shape(result) = combine(batch_dim_sizes, offset_dim_sizes) (start_indices' dims but "
      "index_vector_dim at the batch dims, slice_sizes but collapsed and batching dims at "
      "offset_dims)";
  const Dims expected = shape::Gather(
      indices.dims(), slice_sizes,
      {x.window.values, collapsed, operand_batching, x.index_vector_dim});
  if (Size(expected) != result.rank()) {
    return Violation(op, "C22", rule22, "result rank ", result.rank(), ", expected ",
                     expected.size());
  }
  PLUGRT_RETURN_IF_ERROR(CheckResultShape(op, "C22", rule22, expected));
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
  PLUGRT_ASSIGN_OR_RETURN(IndexedDims x, ReadIndexedDims(op, kScatterNames, input, indices));

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
  PLUGRT_RETURN_IF_ERROR(CheckIndexedRank(op, "C2", x));
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
  PLUGRT_RETURN_IF_ERROR(ListUniqueSorted(op, "C7", x.window));
  PLUGRT_RETURN_IF_ERROR(ListInRank(op, "C8", x.window, "updates[0]", update.rank()));
  PLUGRT_RETURN_IF_ERROR(CheckBatchingDims(
      op, {"C9", "C10", "C11", "C12", "C13", "C14", "C15", "C16", "C17", "C18"}, x));
  PLUGRT_RETURN_IF_ERROR(CheckIndexVector(op, "C22", "C19", x));
  PLUGRT_RETURN_IF_ERROR(CheckIndexMap(op, "C20", "C21", x));
  // C4: the updates' scatter dims are the indices' dims but index_vector_dim;
  // their window dims are at most the input's dims but the inserted and
  // batching ones.
  const Dims scatter_sizes = IndexBatchSizes(x);
  const Dims window_bounds = WindowSizes(x, input.dims());
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
    if (Contains(x.window.values, d)) {
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
                       ElementTypeName(result.element_type()), ", E", i, " is ",
                       ElementTypeName(scalars[i].element_type()));
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
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 2, 1));
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
  return CheckResultShape(op, "C4",
                          "shape(result) = shape(operand)[:dim] + shape(index)[batch_dims:] + "
                          "shape(operand)[dim+1:]",
                          expected);
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
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, static_cast<int>(inputs), 1));
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
