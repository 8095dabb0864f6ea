// plugrt StableHLO verifier: rules of the compute ops (dot, dot_general,
// convolution, dynamic_conv, reduce, reduce_window, select_and_scatter, fft,
// triangular_solve, cholesky, rng, rng_bit_generator, batch_norm_*).
//
// Size: one file per op group, as every verifier rule file is; the group's
// rules share the dimension-number and window helpers.
//
// Labels are the constraint labels of each op's section in the StableHLO
// spec. Shapes may hold '?': a rule about a dimension holds whenever the
// dimension could satisfy it. Ops on quantized tensors reach these checks
// only after the quantized lowering.
#include <algorithm>
#include <string>
#include <vector>

#include "stablehlo/verifier_util.h"

namespace plugrt::shlo::verify {
namespace {

bool IsDynamic(int64_t d) { return d == kDynamicSize; }

// `dim(type, axis)` with a negative axis counting from the back.
int64_t DimAt(const Type& type, int64_t axis) {
  return type.dims()[static_cast<size_t>(axis < 0 ? type.rank() + axis : axis)];
}

// `size % by = 0`, true when the size is unknown.
bool Divides(int64_t size, int64_t by) { return IsDynamic(size) || by <= 0 || size % by == 0; }

// is_promotable(from, to): same kind (boolean, integer, float, complex) and
// no narrower.
bool IsPromotable(ElementType from, ElementType to) {
  if (from == to) return true;
  const bool same_kind = (IsBoolean(from) && IsBoolean(to)) || (IsInteger(from) && IsInteger(to)) ||
                         (IsFloat(from) && IsFloat(to)) || (IsComplex(from) && IsComplex(to));
  return same_kind && BitWidth(from) <= BitWidth(to);
}

Status CheckOp(const Operation& op, int operands, int results, size_t regions = 0) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, operands, results));
  return CheckRegionCount(op, regions);
}

// An element type from the op's Inputs table (`label` In) or Outputs table
// (kStructure): "tensor of floating-point type".
Status CheckElementKind(const Operation& op, std::string_view label, const Type& type,
                        std::string_view what,
                        bool allow_float, bool allow_complex, bool allow_integer = false,
                        bool allow_boolean = false) {
  const ElementType e = type.element_type();
  if ((allow_float && IsFloat(e)) || (allow_complex && IsComplex(e)) ||
      (allow_integer && IsInteger(e)) || (allow_boolean && IsBoolean(e))) {
    return OkStatus();
  }
  std::string kinds;
  auto add = [&](bool on, std::string_view name) {
    if (!on) return;
    if (!kinds.empty()) kinds += " or ";
    kinds += name;
  };
  add(allow_integer, "integer");
  add(allow_boolean, "boolean");
  add(allow_float, "floating-point");
  add(allow_complex, "complex");
  return Violation(op, label, StrCat(what, " is a tensor of ", kinds, " type"), what, " is ",
                   type.ToString());
}

// A rank from the op's Inputs table (`label` In) or Outputs table (kStructure).
Status CheckRank(const Operation& op, std::string_view label, const Type& type,
                 std::string_view what, int64_t rank) {
  if (type.rank() == rank) return OkStatus();
  return Violation(op, label, StrCat(what, " is a ", rank, "-dimensional tensor"), what,
                   " is ", type.ToString());
}

// precision_config: absent, or `count` enums of DEFAULT, HIGH, HIGHEST.
StatusOr<std::vector<std::string>> PrecisionConfig(const Operation& op, std::string_view label) {
  std::vector<std::string> values;
  const Attribute* attr = op.attribute("precision_config");
  if (attr == nullptr) return values;
  if (attr->kind != Attribute::Kind::kArray) {
    return Violation(op, kStructure, "attribute 'precision_config' is an array of precisions",
                     "got ", attr->ToString());
  }
  for (const Attribute& element : attr->elements) {
    StatusOr<std::string> value = AttrToEnumValue(element);
    if (!value.ok() || (*value != "DEFAULT" && *value != "HIGH" && *value != "HIGHEST")) {
      return Violation(op, kStructure, "precision_config holds DEFAULT, HIGH or HIGHEST", "got ",
                       element.ToString());
    }
    values.push_back(*value);
  }
  if (!values.empty() && values.size() != 2) {
    return Violation(op, label, "size(precision_config) = 2", "it has ", values.size(),
                     " entries");
  }
  return values;
}

// A window attribute list: `size(name) = expected` (`what` names the
// expected size in the rule) and, with a `positive_label`, `0 < name`.
Status CheckWindowList(const Operation& op, std::string_view name,
                       const std::vector<int64_t>& values, int64_t expected, std::string_view what,
                       std::string_view size_label, std::string_view positive_label) {
  if (static_cast<int64_t>(values.size()) != expected) {
    return Violation(op, size_label, StrCat("size(", name, ") = ", what), name, " has ",
                     values.size(), " entries, ", what, " = ", expected);
  }
  if (positive_label.empty()) return OkStatus();
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] <= 0) {
      return Violation(op, positive_label, StrCat("0 < ", name), name, "[", i, "] = ", values[i]);
    }
  }
  return OkStatus();
}

// The `padding` attribute as row-major (low, high) pairs, zeros when absent;
// `shape(padding) = [rows, 2]` under `label`.
StatusOr<std::vector<int64_t>> Padding(const Operation& op, int64_t rows,
                                       std::string_view rows_text, std::string_view label) {
  const size_t n = static_cast<size_t>(2 * rows);
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> values,
                          IntListAttr(op, "padding", std::vector<int64_t>(n, 0)));
  const Attribute* attr = op.attribute("padding");
  bool ok = values.size() == n;
  std::string found = StrCat(values.size(), " values");
  if (attr != nullptr && attr->kind == Attribute::Kind::kDenseElements) {
    const Type& type = attr->type;
    ok = ok && type.rank() == 2 && type.dims()[1] == 2;
    found = StrCat("shape ", Shape(type));
  }
  if (!ok) {
    return Violation(op, label, StrCat("shape(padding) = [", rows_text, ", 2]"), "padding has ",
                     found, ", ", rows_text, " = ", rows);
  }
  return values;
}

// A reduction body over `inputs`: (tensor<E0>, ..., tensor<EN-1>,
// tensor<E0>, ..., tensor<EN-1>) -> (tensor<E0>, ..., tensor<EN-1>) with
// is_promotable(inputs[i], Ei). The Ei go to `body_types`.
Status CheckReductionBody(const Operation& op, const Region& region, std::string_view what,
                          const std::vector<ElementType>& inputs, std::string_view label,
                          std::vector<ElementType>* body_types) {
  const size_t n = inputs.size();
  std::vector<Type> args = RegionArgumentTypes(region);
  std::vector<Type> rets = RegionResultTypes(region);
  const std::string rule =
      n == 1 ? StrCat(what, " has type (tensor<E>, tensor<E>) -> tensor<E> with is_promotable(",
                      ElementTypeName(inputs[0]), ", E)")
             : StrCat(what,
                      " has type (tensor<E0>, ..., tensor<EN-1>, tensor<E0>, ..., tensor<EN-1>) "
                      "-> (tensor<E0>, ..., tensor<EN-1>) with is_promotable(element_type("
                      "inputs[i]), Ei)");
  const std::string found =
      StrCat(what, " is (", TypesToString(args), ") -> (", TypesToString(rets), ")");
  if (args.size() != 2 * n) {
    return Violation(op, label, rule, found, ": ", args.size(), " arguments for N = ", n);
  }
  body_types->clear();
  for (size_t i = 0; i < n; ++i) {
    const Type& a = args[i];
    if (!a.is_tensor() || a.rank() != 0 || !TypesCompatible(a, args[n + i])) {
      return Violation(op, label, rule, found, ": arguments #", i, " and #", n + i,
                       " are not the same rank-0 tensor type");
    }
    if (!IsPromotable(inputs[i], a.element_type())) {
      return Violation(op, label, rule, found, ": ", ElementTypeName(inputs[i]),
                       " is not promotable to ", ElementTypeName(a.element_type()));
    }
    body_types->push_back(a.element_type());
  }
  bool returns_ok = rets.size() == n;
  for (size_t i = 0; returns_ok && i < n; ++i) {
    returns_ok = TypesCompatible(rets[i], args[i]);
  }
  if (!returns_ok) return Violation(op, label, rule, found, ": the results differ");
  return OkStatus();
}

// --- dot_general / dot ---------------------------------------------------------

Status CheckDotShapes(const Operation& op, const std::vector<int64_t>& lb,
                      const std::vector<int64_t>& rb, const std::vector<int64_t>& lc,
                      const std::vector<int64_t>& rc) {
  const Type& lhs = OperandType(op, 0);
  const Type& rhs = OperandType(op, 1);
  // C9 the batching and C10 the contracting dimensions pair up equal sizes.
  struct Pairs {
    std::string_view label, kind;
    const std::vector<int64_t>& l;
    const std::vector<int64_t>& r;
  };
  for (const Pairs& p : {Pairs{"C9", "batching", lb, rb}, Pairs{"C10", "contracting", lc, rc}}) {
    for (size_t i = 0; i < p.l.size(); ++i) {
      const int64_t l = DimAt(lhs, p.l[i]);
      const int64_t r = DimAt(rhs, p.r[i]);
      if (!DimsCompatible(l, r)) {
        return Violation(op, p.label,
                         StrCat("dim(lhs, lhs_", p.kind, "_dimensions...) = dim(rhs, rhs_", p.kind,
                                "_dimensions...)"),
                         p.kind, " pair #", i, ": dim(lhs, ", p.l[i], ") = ", ListToString({l}),
                         ", dim(rhs, ", p.r[i], ") = ", ListToString({r}));
      }
    }
  }
  const std::vector<int64_t> expected = shape::DotGeneral(lhs.dims(), rhs.dims(), {lb, rb, lc, rc});
  if (!ShapeIs(ResultType(op, 0), expected)) {
    return Violation(op, "C12",
                     "shape(result) = dim(lhs, lhs_batching_dimensions) + dim(lhs, "
                     "lhs_result_dimensions) + dim(rhs, rhs_result_dimensions)",
                     "result has shape ", Shape(ResultType(op, 0)), ", expected ",
                     ListToString(expected));
  }
  return SameElementType(op, "C13", "element_type(lhs) = element_type(rhs)", lhs, rhs);
}

Status CheckDotGeneral(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckOp(op, 2, 1));
  const Attribute* dn = StructAttr(op, "dot_dimension_numbers");
  if (dn == nullptr) {
    return Violation(op, kStructure, "attribute 'dot_dimension_numbers' is required",
                     op.attribute("dot_dimension_numbers") == nullptr ? "it is absent"
                                                                      : "it is not #stablehlo.dot");
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> lb, FieldList(op, *dn, "lhs_batching_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> rb, FieldList(op, *dn, "rhs_batching_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> lc,
                          FieldList(op, *dn, "lhs_contracting_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> rc,
                          FieldList(op, *dn, "rhs_contracting_dimensions"));
  const int64_t lr = OperandType(op, 0).rank();
  const int64_t rr = OperandType(op, 1).rank();
  if (lb.size() != rb.size()) {
    return Violation(op, "C1", "size(lhs_batching_dimensions) = size(rhs_batching_dimensions)",
                     ListToString(lb), " vs ", ListToString(rb));
  }
  if (lc.size() != rc.size()) {
    return Violation(op, "C2",
                     "size(lhs_contracting_dimensions) = size(rhs_contracting_dimensions)",
                     ListToString(lc), " vs ", ListToString(rc));
  }
  if (!AllUnique(Concat(lb, lc))) {
    return Violation(op, "C3", "is_unique(lhs_batching_dimensions + lhs_contracting_dimensions)",
                     ListToString(lb), " + ", ListToString(lc));
  }
  if (!AllUnique(Concat(rb, rc))) {
    return Violation(op, "C4", "is_unique(rhs_batching_dimensions + rhs_contracting_dimensions)",
                     ListToString(rb), " + ", ListToString(rc));
  }
  PLUGRT_RETURN_IF_ERROR(ListInRank(op, "C5", {"lhs_batching_dimensions", lb}, "lhs", lr));
  PLUGRT_RETURN_IF_ERROR(ListInRank(op, "C6", {"lhs_contracting_dimensions", lc}, "lhs", lr));
  PLUGRT_RETURN_IF_ERROR(ListInRank(op, "C7", {"rhs_batching_dimensions", rb}, "rhs", rr));
  PLUGRT_RETURN_IF_ERROR(ListInRank(op, "C8", {"rhs_contracting_dimensions", rc}, "rhs", rr));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<std::string> precision, PrecisionConfig(op, "C11"));
  PLUGRT_RETURN_IF_ERROR(CheckDotShapes(op, lb, rb, lc, rc));
  // The dot algorithm, when given, leaves precision at DEFAULT and counts
  // at least one component and one primitive operation.
  const Attribute* algorithm = StructAttr(op, "algorithm");
  if (algorithm != nullptr && !algorithm->fields.empty()) {
    for (const std::string& p : precision) {
      if (p != "DEFAULT") {
        return Violation(op, "C21", "precision_config... = DEFAULT when an algorithm is set",
                         "got ", p);
      }
    }
    const char* counts[] = {"lhs_component_count", "rhs_component_count",
                            "num_primitive_operations"};
    const char* labels[] = {"C22", "C23", "C24"};
    for (int i = 0; i < 3; ++i) {
      PLUGRT_ASSIGN_OR_RETURN(int64_t count, FieldInt(op, *algorithm, counts[i], 1));
      if (count <= 0) {
        return Violation(op, labels[i], StrCat("0 < ", counts[i]), counts[i], " = ", count);
      }
    }
  }
  return OkStatus();
}

// dot is dot_general contracting the last dimension of lhs with the first of
// rhs; its rules carry dot_general's labels.
Status CheckDot(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckOp(op, 2, 1));
  const int64_t lr = OperandType(op, 0).rank();
  const int64_t rr = OperandType(op, 1).rank();
  if (lr < 1 || lr > 2 || rr < 1 || rr > 2) {
    return Violation(op, kStructure, "dot operands have rank 1 or 2", "ranks ", lr, " and ", rr);
  }
  PLUGRT_RETURN_IF_ERROR(PrecisionConfig(op, "C11").status());
  return CheckDotShapes(op, {}, {}, {lr - 1}, {0});
}

// --- convolution / dynamic_conv -------------------------------------------------

// Checks `dims` (one of the dimension-number groups) are unique and in [0, N).
Status CheckDimGroup(const Operation& op, std::string_view label, std::string_view name,
                     std::string_view formula, const std::vector<int64_t>& dims, int64_t n) {
  if (!AllUnique(dims) || !AllInRange(dims, 0, n)) {
    return Violation(op, label,
                     StrCat("given ", name, " = ", formula, ": is_unique(", name, ") and 0 <= ",
                            name, " < N"),
                     name, " = ", ListToString(dims), ", N = ", n);
  }
  return OkStatus();
}

Status CheckConvolution(const Operation& op) {
  const bool dynamic = op.code == OpCode::kDynamicConv;
  PLUGRT_RETURN_IF_ERROR(CheckOp(op, dynamic ? 3 : 2, 1));
  const Type& lhs = OperandType(op, 0);
  const Type& rhs = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  const int64_t n = lhs.rank();
  if (rhs.rank() != n) {
    return Violation(op, "C1", "N = rank(lhs) = rank(rhs)", "rank(lhs) = ", n, ", rank(rhs) = ",
                     rhs.rank());
  }
  if (n < 2) {
    return Violation(op, "C13",
                     "input dimensions [input_batch_dimension] + input_spatial_dimensions + "
                     "[input_feature_dimension] are unique and in [0, N)",
                     "N = ", n, " leaves no room for batch and feature");
  }
  const int64_t ns = n - 2;
  const std::vector<int64_t> ones(static_cast<size_t>(ns), 1);
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides, IntListAttr(op, "window_strides", ones));
  PLUGRT_RETURN_IF_ERROR(CheckWindowList(op, "window_strides", strides, ns, "N - 2", "C2", "C3"));
  std::vector<int64_t> padding(static_cast<size_t>(2 * ns), 0);
  if (dynamic) {
    const Type& pad = OperandType(op, 2);
    if (pad.rank() != 2 || !DimsCompatible(pad.dims()[0], ns) ||
        !DimsCompatible(pad.dims()[1], 2)) {
      return Violation(op, "C4", "shape(padding) = [N - 2, 2]", "padding has shape ", Shape(pad),
                       ", N - 2 = ", ns);
    }
    PLUGRT_RETURN_IF_ERROR(CheckElementKind(op, "I4", pad, "padding", false, false, true));
  } else {
    PLUGRT_ASSIGN_OR_RETURN(padding, Padding(op, ns, "N - 2", "C4"));
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> lhs_dilation, IntListAttr(op, "lhs_dilation", ones));
  PLUGRT_RETURN_IF_ERROR(
      CheckWindowList(op, "lhs_dilation", lhs_dilation, ns, "N - 2", "C5", "C6"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> rhs_dilation, IntListAttr(op, "rhs_dilation", ones));
  PLUGRT_RETURN_IF_ERROR(
      CheckWindowList(op, "rhs_dilation", rhs_dilation, ns, "N - 2", "C7", "C8"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> reversal,
                          IntListAttr(op, "window_reversal", std::vector<int64_t>(ones.size(), 0)));
  PLUGRT_RETURN_IF_ERROR(CheckWindowList(op, "window_reversal", reversal, ns, "N - 2", "C9", ""));

  const Attribute* dn = StructAttr(op, "dimension_numbers");
  if (dn == nullptr) {
    return Violation(op, kStructure, "attribute 'dimension_numbers' is required",
                     op.attribute("dimension_numbers") == nullptr ? "it is absent"
                                                                  : "it is not #stablehlo.conv");
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t ib, FieldInt(op, *dn, "input_batch_dimension", 0));
  PLUGRT_ASSIGN_OR_RETURN(int64_t inf, FieldInt(op, *dn, "input_feature_dimension", 0));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> is, FieldList(op, *dn, "input_spatial_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t kif, FieldInt(op, *dn, "kernel_input_feature_dimension", 0));
  PLUGRT_ASSIGN_OR_RETURN(int64_t kof, FieldInt(op, *dn, "kernel_output_feature_dimension", 0));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> ks, FieldList(op, *dn, "kernel_spatial_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t ob, FieldInt(op, *dn, "output_batch_dimension", 0));
  PLUGRT_ASSIGN_OR_RETURN(int64_t of, FieldInt(op, *dn, "output_feature_dimension", 0));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> os, FieldList(op, *dn, "output_spatial_dimensions"));
  PLUGRT_RETURN_IF_ERROR(
      CheckWindowList(op, "input_spatial_dimensions", is, ns, "N - 2", "C12", ""));
  PLUGRT_RETURN_IF_ERROR(CheckDimGroup(
      op, "C13", "input_dimensions",
      "[input_batch_dimension] + input_spatial_dimensions + [input_feature_dimension]",
      Concat(Concat({ib}, is), {inf}), n));
  PLUGRT_RETURN_IF_ERROR(
      CheckWindowList(op, "kernel_spatial_dimensions", ks, ns, "N - 2", "C17", ""));
  PLUGRT_RETURN_IF_ERROR(CheckDimGroup(
      op, "C18", "kernel_dimensions",
      "kernel_spatial_dimensions + [kernel_input_feature_dimension] + "
      "[kernel_output_feature_dimension]",
      Concat(ks, {kif, kof}), n));
  PLUGRT_RETURN_IF_ERROR(
      CheckWindowList(op, "output_spatial_dimensions", os, ns, "N - 2", "C19", ""));
  PLUGRT_RETURN_IF_ERROR(CheckDimGroup(
      op, "C20", "output_dimensions",
      "[output_batch_dimension] + output_spatial_dimensions + [output_feature_dimension]",
      Concat(Concat({ob}, os), {of}), n));

  PLUGRT_ASSIGN_OR_RETURN(int64_t fgc, IntAttr(op, "feature_group_count", 1));
  PLUGRT_ASSIGN_OR_RETURN(int64_t bgc, IntAttr(op, "batch_group_count", 1));
  if (fgc <= 0) return Violation(op, "C21", "0 < feature_group_count", "it is ", fgc);
  if (bgc <= 0) return Violation(op, "C22", "0 < batch_group_count", "it is ", bgc);
  if (fgc != 1 && bgc != 1) {
    return Violation(op, "C23", "feature_group_count = 1 or batch_group_count = 1",
                     "feature_group_count = ", fgc, ", batch_group_count = ", bgc);
  }
  const int64_t lhs_batch = lhs.dims()[ib];
  const int64_t lhs_feature = lhs.dims()[inf];
  const int64_t rhs_in = rhs.dims()[kif];
  const int64_t rhs_out = rhs.dims()[kof];
  if (!Divides(lhs_batch, bgc)) {
    return Violation(op, "C10", "dim(lhs, input_batch_dimension) % batch_group_count = 0",
                     lhs_batch, " % ", bgc, " != 0");
  }
  if (!Divides(lhs_feature, fgc)) {
    return Violation(op, "C11", "dim(lhs, input_feature_dimension) % feature_group_count = 0",
                     lhs_feature, " % ", fgc, " != 0");
  }
  if (!IsDynamic(lhs_feature) && !DimsCompatible(rhs_in, lhs_feature / fgc)) {
    return Violation(op, "C14",
                     "dim(rhs, kernel_input_feature_dimension) = dim(lhs, "
                     "input_feature_dimension) / feature_group_count",
                     "dim(rhs, ", kif, ") = ", rhs_in, ", dim(lhs, ", inf, ") = ", lhs_feature,
                     ", feature_group_count = ", fgc);
  }
  if (!Divides(rhs_out, bgc)) {
    return Violation(op, "C15", "dim(rhs, kernel_output_feature_dimension) % batch_group_count = 0",
                     rhs_out, " % ", bgc, " != 0");
  }
  if (!Divides(rhs_out, fgc)) {
    return Violation(op, "C16",
                     "dim(rhs, kernel_output_feature_dimension) % feature_group_count = 0",
                     rhs_out, " % ", fgc, " != 0");
  }
  PLUGRT_RETURN_IF_ERROR(PrecisionConfig(op, "C24").status());

  if (result.rank() != n) {
    return Violation(op, "C26", "rank(result) = N", "rank(result) = ", result.rank(), ", N = ", n);
  }

  std::vector<int64_t> expected =
      shape::Convolution(lhs.dims(), rhs.dims(), {ib, inf, is, kif, kof, ks, ob, of, os}, strides,
                         padding, lhs_dilation, rhs_dilation, bgc);
  // dynamic_conv's padding is an operand: its spatial sizes are not known here.
  for (int64_t s = 0; s < ns && dynamic; ++s) expected[os[s]] = kDynamicSize;
  if (!ShapeIs(result, expected)) {
    return Violation(op, "C25",
                     "dim(result) is batch / batch_group_count, the kernel's output features "
                     "and num_windows per spatial dimension",
                     "result has shape ", Shape(result), ", expected ", ListToString(expected));
  }
  // The result's element type may differ (preferred_element_type, e.g. i8
  // inputs accumulating into i32), which the backend supports; lhs and rhs
  // must agree.
  PLUGRT_RETURN_IF_ERROR(
      SameElementType(op, "C27", "element_type(lhs) = element_type(rhs)", lhs, rhs));
  return OkStatus();
}

// --- reduce / reduce_window / select_and_scatter ---------------------------------

// Common to reduce and reduce_window: 2N operands (inputs, init values), N
// results, one body; same input shapes; rank-0 init values of the inputs'
// element types. Returns N.
StatusOr<size_t> CheckReduceOperands(const Operation& op, std::string_view count_label,
                                     std::string_view shape_label, std::string_view type_label) {
  const size_t n = op.operands.size() / 2;
  if (op.operands.size() % 2 != 0 || n == 0 || op.results.size() != n) {
    return Violation(op, count_label, "0 < size(inputs) = size(init_values) = size(results) = N",
                     op.operands.size(), " operands, ", op.results.size(), " results");
  }
  PLUGRT_RETURN_IF_ERROR(CheckOp(op, -1, -1, 1));
  for (size_t i = 1; i < n; ++i) {
    if (!ShapesCompatible(OperandType(op, 0), OperandType(op, i))) {
      return Violation(op, shape_label, "same(shape(inputs...))", "inputs[0] is ",
                       OperandType(op, 0).ToString(), ", inputs[", i, "] is ",
                       OperandType(op, i).ToString());
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const Type& init = OperandType(op, n + i);
    PLUGRT_RETURN_IF_ERROR(CheckRank(op, "I2", init, StrCat("init_values[", i, "]"), 0));
    if (init.element_type() != OperandType(op, i).element_type()) {
      return Violation(op, type_label, "element_type(inputs...) = element_type(init_values...)",
                       "inputs[", i, "] is ", OperandType(op, i).ToString(), ", init_values[", i,
                       "] is ", init.ToString());
    }
  }
  return n;
}

std::vector<ElementType> InputElementTypes(const Operation& op, size_t n) {
  std::vector<ElementType> types;
  for (size_t i = 0; i < n; ++i) types.push_back(OperandType(op, i).element_type());
  return types;
}

Status CheckResultElementTypes(const Operation& op, const std::vector<ElementType>& body,
                               std::string_view label) {
  for (size_t i = 0; i < body.size(); ++i) {
    if (ResultType(op, i).element_type() != body[i]) {
      return Violation(op, label, "element_type(results[i]) = Ei", "results[", i, "] is ",
                       ResultType(op, i).ToString(), ", E", i, " = ", ElementTypeName(body[i]));
    }
  }
  return OkStatus();
}

Status CheckReduce(const Operation& op) {
  PLUGRT_ASSIGN_OR_RETURN(size_t n, CheckReduceOperands(op, "C3", "C1", "C2"));
  const Type& input = OperandType(op, 0);
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, RequiredIntListAttr(op, "dimensions"));
  PLUGRT_RETURN_IF_ERROR(ListInRank(op, "C4", {"dimensions", dims}, "inputs[0]", input.rank()));
  if (!AllUnique(dims)) return Violation(op, "C5", "is_unique(dimensions)", ListToString(dims));
  std::vector<ElementType> body;
  PLUGRT_RETURN_IF_ERROR(
      CheckReductionBody(op, op.region(0), "body", InputElementTypes(op, n), "C6", &body));
  const std::vector<int64_t> expected = shape::Reduce(input.dims(), dims);
  for (size_t i = 0; i < n; ++i) {
    if (!ShapeIs(ResultType(op, i), expected)) {
      return Violation(op, "C7",
                       "shape(results...) = shape(inputs...) without the dimensions in "
                       "dimensions",
                       "results[", i, "] has shape ", Shape(ResultType(op, i)), ", expected ",
                       ListToString(expected));
    }
  }
  return CheckResultElementTypes(op, body, "C8");
}

Status CheckReduceWindow(const Operation& op) {
  PLUGRT_ASSIGN_OR_RETURN(size_t n, CheckReduceOperands(op, "C1", "C2", "C3"));
  const Type& input = OperandType(op, 0);
  const int64_t rank = input.rank();
  const std::vector<int64_t> ones(static_cast<size_t>(rank), 1);
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> window,
                          RequiredIntListAttr(op, "window_dimensions"));
  PLUGRT_RETURN_IF_ERROR(
      CheckWindowList(op, "window_dimensions", window, rank, "rank(inputs[0])", "C4", "C5"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides, IntListAttr(op, "window_strides", ones));
  PLUGRT_RETURN_IF_ERROR(
      CheckWindowList(op, "window_strides", strides, rank, "rank(inputs[0])", "C6", "C7"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> base, IntListAttr(op, "base_dilations", ones));
  PLUGRT_RETURN_IF_ERROR(
      CheckWindowList(op, "base_dilations", base, rank, "rank(inputs[0])", "C8", "C9"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> wdil, IntListAttr(op, "window_dilations", ones));
  PLUGRT_RETURN_IF_ERROR(
      CheckWindowList(op, "window_dilations", wdil, rank, "rank(inputs[0])", "C10", "C11"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> padding,
                          Padding(op, rank, "rank(inputs[0])", "C12"));
  std::vector<ElementType> body;
  PLUGRT_RETURN_IF_ERROR(
      CheckReductionBody(op, op.region(0), "body", InputElementTypes(op, n), "C13", &body));
  for (size_t i = 1; i < n; ++i) {
    if (!ShapesCompatible(ResultType(op, 0), ResultType(op, i))) {
      return Violation(op, "C14", "same(shape(results...))", "results[0] is ",
                       ResultType(op, 0).ToString(), ", results[", i, "] is ",
                       ResultType(op, i).ToString());
    }
  }
  const std::vector<int64_t> expected =
      shape::ReduceWindow(input.dims(), {window, strides, base, wdil, padding});
  if (!ShapeIs(ResultType(op, 0), expected)) {
    return Violation(op, "C15", "shape(results[0]) = num_windows", "results[0] has shape ",
                     Shape(ResultType(op, 0)), ", expected ", ListToString(expected));
  }
  return CheckResultElementTypes(op, body, "C16");
}

Status CheckSelectAndScatter(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckOp(op, 3, 1, 2));
  const Type& operand = OperandType(op, 0);
  const Type& source = OperandType(op, 1);
  const Type& init = OperandType(op, 2);
  const int64_t rank = operand.rank();
  PLUGRT_RETURN_IF_ERROR(
      SameElementType(op, "C1", "element_type(operand) = element_type(source)", operand, source));
  PLUGRT_RETURN_IF_ERROR(CheckRank(op, "I3", init, "init_value", 0));
  PLUGRT_RETURN_IF_ERROR(
      SameElementType(op, "C3", "element_type(init_value) = element_type(operand)", init, operand));
  const std::vector<int64_t> ones(static_cast<size_t>(rank), 1);
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> window, IntListAttr(op, "window_dimensions", ones));
  PLUGRT_RETURN_IF_ERROR(
      CheckWindowList(op, "window_dimensions", window, rank, "rank(operand)", "C4", "C5"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides, IntListAttr(op, "window_strides", ones));
  PLUGRT_RETURN_IF_ERROR(
      CheckWindowList(op, "window_strides", strides, rank, "rank(operand)", "C6", "C7"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> padding, Padding(op, rank, "rank(operand)", "C8"));
  const std::vector<int64_t> expected =
      shape::ReduceWindow(operand.dims(), {window, strides, ones, ones, padding});
  if (!ShapeIs(source, expected)) {
    return Violation(op, "C2", "shape(source) = num_windows", "source has shape ", Shape(source),
                     ", expected ", ListToString(expected));
  }
  const Type scalar = Type::Scalar(operand.element_type());
  const std::vector<Type> select_args = {scalar, scalar};
  const std::vector<Type> select_results = {Type::Scalar(ElementType::kI1)};
  PLUGRT_RETURN_IF_ERROR(CheckRegionSignature(
      op, op.region(0), "select", "C9",
      "select has type (tensor<E>, tensor<E>) -> tensor<i1> where E = element_type(operand)",
      &select_args, &select_results));
  std::vector<ElementType> body;
  PLUGRT_RETURN_IF_ERROR(
      CheckReductionBody(op, op.region(1), "scatter", {operand.element_type()}, "C10", &body));
  if (!ShapesCompatible(operand, ResultType(op, 0))) {
    return Violation(op, "C11", "shape(operand) = shape(result)", Shape(operand), " vs ",
                     Shape(ResultType(op, 0)));
  }
  if (ResultType(op, 0).element_type() != body[0]) {
    return Violation(op, "C12", "element_type(result) = E", "result is ",
                     ResultType(op, 0).ToString(), ", E = ", ElementTypeName(body[0]));
  }
  return OkStatus();
}

// --- fft ---------------------------------------------------------------------------

Status CheckFft(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckOp(op, 1, 1));
  PLUGRT_ASSIGN_OR_RETURN(std::string type,
                          OneOfEnum(op, "fft_type", {"FFT", "IFFT", "RFFT", "IRFFT"}, ""));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> length, RequiredIntListAttr(op, "fft_length"));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  const int64_t l = static_cast<int64_t>(length.size());
  if (l > operand.rank()) {
    return Violation(op, "C1", "size(fft_length) <= rank(operand)", "size(fft_length) = ", l,
                     ", rank(operand) = ", operand.rank());
  }
  const ElementType in = operand.element_type();
  const ElementType out = result.element_type();
  bool types_ok;
  if (type == "FFT" || type == "IFFT") {
    types_ok = IsComplex(in) && in == out;
  } else if (type == "RFFT") {
    types_ok = IsFloat(in) && IsComplex(out) && ComplexComponent(out) == in;
  } else {
    types_ok = IsComplex(in) && IsFloat(out) && ComplexComponent(in) == out;
  }
  if (!types_ok) {
    return Violation(op, "C2",
                     type == "RFFT"    ? "RFFT takes a floating-point type to its complex type"
                     : type == "IRFFT" ? "IRFFT takes a complex type to its floating-point type"
                                       : "FFT and IFFT keep one complex element type",
                     type, " from ", ElementTypeName(in), " to ", ElementTypeName(out));
  }
  if (l < 1 || l > 3) {
    return Violation(op, "C3", "1 <= size(fft_length) <= 3", "fft_length = ", ListToString(length));
  }
  const Type* real = type == "RFFT" ? &operand : type == "IRFFT" ? &result : nullptr;
  if (real != nullptr) {
    if (real->rank() < l) {
      return Violation(op, "C4", "shape(real)[-size(fft_length):] = fft_length",
                       "the real tensor ", real->ToString(), " has rank < ", l);
    }
    for (int64_t i = 0; i < l; ++i) {
      if (!DimsCompatible(DimAt(*real, i - l), length[i])) {
        return Violation(op, "C4", "shape(real)[-size(fft_length):] = fft_length",
                         "the real tensor is ", real->ToString(), ", fft_length = ",
                         ListToString(length));
      }
    }
  }
  std::vector<int64_t> expected = operand.dims();
  if (!expected.empty() && (type == "RFFT" || type == "IRFFT")) {
    // RFFT keeps n / 2 + 1 of the last dimension; IRFFT restores fft_length's.
    int64_t& last = expected.back();
    if (type == "RFFT") {
      last = IsDynamic(last) || last == 0 ? last : last / 2 + 1;
    } else {
      last = length.back();
    }
  }
  bool shape_ok = ShapeIs(result, expected);
  if (shape_ok && type == "IRFFT" && result.rank() > 0) {
    const int64_t r = result.dims().back();
    const int64_t o = operand.dims().back();
    shape_ok = IsDynamic(r) || DimsCompatible(o, r == 0 ? 0 : r / 2 + 1);
  }
  if (!shape_ok) {
    return Violation(op, "C5",
                     "shape(result) = shape(operand) except the last dimension of RFFT (n / 2 "
                     "+ 1) and IRFFT",
                     "operand ", operand.ToString(), ", result ", result.ToString());
  }
  return OkStatus();
}

// --- triangular_solve / cholesky ---------------------------------------------------

Status CheckTriangularSolve(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckOp(op, 2, 1));
  PLUGRT_ASSIGN_OR_RETURN(bool left_side, BoolAttr(op, "left_side", false));
  PLUGRT_RETURN_IF_ERROR(BoolAttr(op, "lower", false).status());
  PLUGRT_RETURN_IF_ERROR(BoolAttr(op, "unit_diagonal", false).status());
  PLUGRT_RETURN_IF_ERROR(
      OneOfEnum(op, "transpose_a", {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}, "NO_TRANSPOSE")
          .status());
  const Type& a = OperandType(op, 0);
  const Type& b = OperandType(op, 1);
  PLUGRT_RETURN_IF_ERROR(CheckElementKind(op, "I1", a, "a", true, true));
  PLUGRT_RETURN_IF_ERROR(SameElementType(op, "C1", "element_type(a) = element_type(b)", a, b));
  if (a.rank() < 2 || a.rank() != b.rank()) {
    return Violation(op, "C2", "2 <= rank(a) = rank(b)", "rank(a) = ", a.rank(),
                     ", rank(b) = ", b.rank());
  }
  for (int64_t d = 0; d + 2 < a.rank(); ++d) {
    if (!DimsCompatible(a.dims()[d], b.dims()[d])) {
      return Violation(op, "C3", "shape(a)[:-2] = shape(b)[:-2]", "a is ", a.ToString(),
                       ", b is ", b.ToString());
    }
  }
  const int64_t side = DimAt(b, left_side ? -2 : -1);
  if (!DimsCompatible(DimAt(a, -2), DimAt(a, -1)) || !DimsCompatible(DimAt(a, -1), side) ||
      !DimsCompatible(DimAt(a, -2), side)) {
    return Violation(op, "C3",
                     left_side ? "dim(a, -2) = dim(a, -1) = dim(b, -2) (left_side)"
                               : "dim(a, -2) = dim(a, -1) = dim(b, -1) (not left_side)",
                     "a is ", a.ToString(), ", b is ", b.ToString());
  }
  return SameType(op, "C4", "type(b) = type(result)", b, ResultType(op, 0));
}

Status CheckCholesky(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckOp(op, 1, 1));
  PLUGRT_RETURN_IF_ERROR(BoolAttr(op, "lower", false).status());
  const Type& a = OperandType(op, 0);
  PLUGRT_RETURN_IF_ERROR(CheckElementKind(op, "I1", a, "a", true, true));
  PLUGRT_RETURN_IF_ERROR(SameType(op, "C1", "type(a) = type(result)", a, ResultType(op, 0)));
  if (a.rank() < 2) return Violation(op, "C2", "2 <= rank(a)", "a is ", a.ToString());
  if (!DimsCompatible(DimAt(a, -2), DimAt(a, -1))) {
    return Violation(op, "C3", "dim(a, -2) = dim(a, -1)", "a is ", a.ToString());
  }
  return OkStatus();
}

// --- rng / rng_bit_generator -----------------------------------------------------------

// The values of a 1-D integer operand defined by stablehlo.constant, if so.
bool ConstantValues(const Value& value, std::vector<int64_t>* out) {
  const Operation* def = value.defining_op;
  if (def == nullptr || def->code != OpCode::kConstant) return false;
  const Attribute* attr = def->attribute("value");
  if (attr == nullptr || attr->kind != Attribute::Kind::kDenseElements) return false;
  if (!attr->type.is_tensor() || !attr->type.has_static_shape()) return false;
  StatusOr<std::vector<int64_t>> values = AttrToIntList(*attr);
  if (!values.ok()) return false;
  *out = *std::move(values);
  return true;
}

Status CheckRng(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckOp(op, 3, 1));
  PLUGRT_ASSIGN_OR_RETURN(std::string distribution,
                          OneOfEnum(op, "rng_distribution", {"UNIFORM", "NORMAL"}, ""));
  const Type& a = OperandType(op, 0);
  const Type& b = OperandType(op, 1);
  const Type& shape = OperandType(op, 2);
  const Type& result = ResultType(op, 0);
  PLUGRT_RETURN_IF_ERROR(CheckRank(op, "I1", a, "a", 0));
  PLUGRT_RETURN_IF_ERROR(CheckRank(op, "I2", b, "b", 0));
  PLUGRT_RETURN_IF_ERROR(CheckElementKind(op, "I1", a, "a", true, false, true, true));
  PLUGRT_RETURN_IF_ERROR(CheckRank(op, "I3", shape, "shape", 1));
  PLUGRT_RETURN_IF_ERROR(CheckElementKind(op, "I3", shape, "shape", false, false, true));
  if (a.element_type() != b.element_type() || a.element_type() != result.element_type()) {
    return Violation(op, "C1", "element_type(a) = element_type(b) = element_type(result)",
                     ElementTypeName(a.element_type()), ", ",
                     ElementTypeName(b.element_type()), ", ",
                     ElementTypeName(result.element_type()));
  }
  if (distribution == "NORMAL" && !IsFloat(a.element_type())) {
    return Violation(op, "C2", "is_float(a) when rng_distribution = NORMAL", "a is ",
                     a.ToString());
  }
  std::vector<int64_t> values;
  if (ConstantValues(*op.operands[2], &values)) {
    if (!ShapeIs(result, values)) {
      return Violation(op, "C3", "shape(result) = shape", "result is ", result.ToString(),
                       ", shape = ", ListToString(values));
    }
  } else if (!DimsCompatible(shape.dims()[0], result.rank())) {
    return Violation(op, "C3", "shape(result) = shape", "result is ", result.ToString(),
                     ", shape has ", shape.dims()[0], " entries");
  }
  return OkStatus();
}

Status CheckRngBitGenerator(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckOp(op, 1, 2));
  const bool short_name =
      op.attribute("rng_algorithm") == nullptr && op.attribute("algorithm") != nullptr;
  const char* name = short_name ? "algorithm" : "rng_algorithm";
  PLUGRT_ASSIGN_OR_RETURN(std::string algorithm,
                          OneOfEnum(op, name, {"DEFAULT", "THREE_FRY", "PHILOX"}, "DEFAULT"));
  const Type& state = OperandType(op, 0);
  PLUGRT_RETURN_IF_ERROR(CheckRank(op, "I2", state, "initial_state", 1));
  if (state.element_type() != ElementType::kUI64) {
    return Violation(op, "I2", "initial_state is a tensor of type ui64", "initial_state is ",
                     state.ToString());
  }
  PLUGRT_RETURN_IF_ERROR(
      CheckElementKind(op, kStructure, ResultType(op, 1), "output", true, false, true));
  if (!TypesCompatible(state, ResultType(op, 0))) {
    return Violation(op, "C1", "type(initial_state) = type(output_state)", state.ToString(),
                     " vs ", ResultType(op, 0).ToString());
  }
  const int64_t size = state.dims()[0];
  const bool size_ok = IsDynamic(size) || (algorithm == "THREE_FRY" && size == 2) ||
                       (algorithm == "PHILOX" && (size == 2 || size == 3)) ||
                       algorithm == "DEFAULT";
  if (!size_ok) {
    return Violation(op, "C2",
                     algorithm == "THREE_FRY" ? "size(initial_state) = 2 for THREE_FRY"
                                              : "size(initial_state) is 2 or 3 for PHILOX",
                     "initial_state is ", state.ToString());
  }
  return OkStatus();
}

// --- batch_norm_* ------------------------------------------------------------------------

// A 1-D operand or result whose size is the feature count: the label of
// its size rule and of its rank (its Inputs row, kStructure for results).
struct SizedValue {
  const Type* type;
  std::string_view name;
  std::string_view label;
  std::string_view rank_label;
};

// size(v) = dim(operand, feature_index), under v's label.
Status CheckFeatureSize(const Operation& op, const SizedValue& v, int64_t feature_index) {
  const int64_t features = OperandType(op, 0).dims()[feature_index];
  if (DimsCompatible(v.type->dims()[0], features)) return OkStatus();
  return Violation(op, v.label, StrCat("size(", v.name, ") = dim(operand, feature_index)"), v.name,
                   " is ", v.type->ToString(), ", dim(operand, ", feature_index, ") = ",
                   ListToString({features}));
}

// Shared by the three ops: the attributes, C1 (feature_index in range), C2
// (one floating-point element type for the values `names` lists, operands
// then results) and the sizes of `sized`.
Status CheckBatchNorm(const Operation& op, const std::vector<const char*>& names,
                      const std::vector<SizedValue>& sized) {
  PLUGRT_ASSIGN_OR_RETURN(int64_t feature_index, RequiredIntAttr(op, "feature_index"));
  if (const Attribute* epsilon = op.attribute("epsilon"); epsilon != nullptr) {
    if (!AttrToFloat(*epsilon).ok()) {
      return Violation(op, kStructure, "attribute 'epsilon' is a float", "got ",
                       epsilon->ToString());
    }
  }
  const Type& operand = OperandType(op, 0);
  if (feature_index < 0 || feature_index >= operand.rank()) {
    return Violation(op, "C1", "0 <= feature_index < rank(operand)", "feature_index = ",
                     feature_index, ", rank(operand) = ", operand.rank());
  }
  PLUGRT_RETURN_IF_ERROR(CheckElementKind(op, "I1", operand, "operand", true, false));
  std::vector<Type> all = OperandTypes(op);
  for (const Type& t : ResultTypes(op)) all.push_back(t);
  for (size_t i = 0; i < all.size() && i < names.size(); ++i) {
    if (all[i].element_type() != operand.element_type()) {
      return Violation(op, "C2", "operands and results have the same element type", names[i],
                       " is ", all[i].ToString(), ", operand is ", operand.ToString());
    }
  }
  for (const SizedValue& v : sized) {
    PLUGRT_RETURN_IF_ERROR(CheckRank(op, v.rank_label, *v.type, v.name, 1));
    PLUGRT_RETURN_IF_ERROR(CheckFeatureSize(op, v, feature_index));
  }
  return OkStatus();
}

Status CheckBatchNormInference(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckOp(op, 5, 1));
  PLUGRT_RETURN_IF_ERROR(CheckBatchNorm(
      op, {"operand", "scale", "offset", "mean", "variance", "result"},
      {{&OperandType(op, 1), "scale", "C3", "I2"},
       {&OperandType(op, 2), "offset", "C4", "I3"},
       {&OperandType(op, 3), "mean", "C5", "I4"},
       {&OperandType(op, 4), "variance", "C6", "I5"}}));
  return SameType(op, "C7", "type(operand) = type(result)", OperandType(op, 0),
                  ResultType(op, 0));
}

Status CheckBatchNormTraining(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckOp(op, 3, 3));
  PLUGRT_RETURN_IF_ERROR(CheckBatchNorm(
      op, {"operand", "scale", "offset", "output", "batch_mean", "batch_var"},
      {{&OperandType(op, 1), "scale", "C3", "I2"},
       {&OperandType(op, 2), "offset", "C4", "I3"},
       {&ResultType(op, 1), "batch_mean", "C5", kStructure},
       {&ResultType(op, 2), "batch_var", "C6", kStructure}}));
  return SameType(op, "C7", "type(output) = type(operand)", ResultType(op, 0),
                  OperandType(op, 0));
}

Status CheckBatchNormGrad(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckOp(op, 5, 3));
  const Type& operand = OperandType(op, 0);
  const Type& scale = OperandType(op, 1);
  PLUGRT_RETURN_IF_ERROR(CheckBatchNorm(
      op,
      {"operand", "scale", "mean", "variance", "grad_output", "grad_operand", "grad_scale",
       "grad_offset"},
      {}));
  const Type* full[] = {&OperandType(op, 4), &ResultType(op, 0)};
  const char* full_names[] = {"grad_output", "grad_operand"};
  for (int i = 0; i < 2; ++i) {
    if (!ShapesCompatible(operand, *full[i])) {
      return Violation(op, "C3", "shape(operand) = shape(grad_output) = shape(grad_operand)",
                       full_names[i], " is ", full[i]->ToString(), ", operand is ",
                       operand.ToString());
    }
  }
  PLUGRT_RETURN_IF_ERROR(CheckRank(op, "I2", scale, "scale", 1));
  const Type* vec[] = {&OperandType(op, 2), &OperandType(op, 3), &ResultType(op, 1),
                       &ResultType(op, 2)};
  const char* vec_names[] = {"mean", "variance", "grad_scale", "grad_offset"};
  for (int i = 0; i < 4; ++i) {
    if (!ShapesCompatible(scale, *vec[i])) {
      return Violation(op, "C4",
                       "scale, mean, variance, grad_scale and grad_offset have the same shape",
                       vec_names[i], " is ", vec[i]->ToString(), ", scale is ", scale.ToString());
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t feature_index, RequiredIntAttr(op, "feature_index"));
  return CheckFeatureSize(op, {&scale, "scale", "C5", "I2"}, feature_index);
}

}  // namespace

void RegisterComputeChecks(CheckTable& table) {
  table.Set(OpCode::kDot, CheckDot);
  table.Set(OpCode::kDotGeneral, CheckDotGeneral);
  table.Set(OpCode::kConvolution, CheckConvolution);
  table.Set(OpCode::kDynamicConv, CheckConvolution);
  table.Set(OpCode::kReduce, CheckReduce);
  table.Set(OpCode::kReduceWindow, CheckReduceWindow);
  table.Set(OpCode::kSelectAndScatter, CheckSelectAndScatter);
  table.Set(OpCode::kFft, CheckFft);
  table.Set(OpCode::kTriangularSolve, CheckTriangularSolve);
  table.Set(OpCode::kCholesky, CheckCholesky);
  table.Set(OpCode::kRng, CheckRng);
  table.Set(OpCode::kRngBitGenerator, CheckRngBitGenerator);
  table.Set(OpCode::kBatchNormInference, CheckBatchNormInference);
  table.Set(OpCode::kBatchNormTraining, CheckBatchNormTraining);
  table.Set(OpCode::kBatchNormGrad, CheckBatchNormGrad);
}

}  // namespace plugrt::shlo::verify
