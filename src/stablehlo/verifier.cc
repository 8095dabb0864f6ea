// plugrt StableHLO verifier: the module walk, the structural rules and the
// helpers every rule file shares (verifier_util.h).
#include "stablehlo/verifier.h"

#include <algorithm>
#include <unordered_set>

#include "stablehlo/type_inference.h"
#include "stablehlo/verifier_util.h"

namespace plugrt::shlo {
namespace verify {

Status MakeViolation(const Operation& op, std::string_view label, std::string_view rule,
                     const std::string& detail) {
  std::string text = StrCat(op.location.ToString(), ": ", op.name, ": violated rule (", label,
                            ") ", rule);
  if (!detail.empty()) text += StrCat(": ", detail);
  return InvalidArgument(text);
}

bool DimsCompatible(int64_t a, int64_t b) {
  return a == b || a == kDynamicSize || b == kDynamicSize;
}

bool ShapesCompatible(const Type& a, const Type& b) {
  if (!a.is_tensor() || !b.is_tensor() || a.rank() != b.rank()) return false;
  for (int64_t i = 0; i < a.rank(); ++i) {
    if (!DimsCompatible(a.dims()[i], b.dims()[i])) return false;
  }
  return true;
}

bool TypesCompatible(const Type& a, const Type& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Type::Kind::kTensor:
      return a.element_type() == b.element_type() && ShapesCompatible(a, b);
    case Type::Kind::kTuple: {
      const auto& x = a.tuple_elements();
      const auto& y = b.tuple_elements();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (!TypesCompatible(x[i], y[i])) return false;
      }
      return true;
    }
    case Type::Kind::kToken:
      return true;
    case Type::Kind::kElement:
      return a.element_type() == b.element_type();
    case Type::Kind::kUnsupported:
      return a.unsupported_text() == b.unsupported_text();
  }
  return false;
}

bool ListsCompatible(const std::vector<Type>& a, const std::vector<Type>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!TypesCompatible(a[i], b[i])) return false;
  }
  return true;
}

bool ShapeIs(const Type& type, const std::vector<int64_t>& dims) {
  if (!type.is_tensor() || type.rank() != static_cast<int64_t>(dims.size())) return false;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!DimsCompatible(type.dims()[i], dims[i])) return false;
  }
  return true;
}

bool ContainsUnsupported(const Type& type) {
  if (type.kind() == Type::Kind::kUnsupported) return true;
  if (type.is_tuple()) {
    for (const Type& element : type.tuple_elements()) {
      if (ContainsUnsupported(element)) return true;
    }
  }
  return false;
}

std::string TypesToString(const std::vector<Type>& types) {
  std::string text;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i > 0) text += ", ";
    text += types[i].ToString();
  }
  return text.empty() ? "()" : text;
}

std::string Shape(const Type& type) { return ListToString(type.dims()); }

std::vector<Type> OperandTypes(const Operation& op) {
  std::vector<Type> types;
  for (const Value* value : op.operands) types.push_back(value->type);
  return types;
}

std::vector<Type> ResultTypes(const Operation& op) {
  std::vector<Type> types;
  for (const auto& value : op.results) types.push_back(value->type);
  return types;
}

Status CheckCounts(const Operation& op, int operands, int results) {
  if (operands >= 0 && op.operands.size() != static_cast<size_t>(operands)) {
    return Violation(op, kStructure, "number of operands", "expected ", operands, ", got ",
                     op.operands.size());
  }
  if (results >= 0 && op.results.size() != static_cast<size_t>(results)) {
    return Violation(op, kStructure, "number of results", "expected ", results, ", got ",
                     op.results.size());
  }
  return OkStatus();
}

Status CheckAllTensors(const Operation& op) {
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (!OperandType(op, i).is_tensor()) {
      return Violation(op, kStructure, "operands are tensors", "operand #", i, " has type ",
                       OperandType(op, i).ToString());
    }
  }
  for (size_t i = 0; i < op.results.size(); ++i) {
    if (!ResultType(op, i).is_tensor()) {
      return Violation(op, kStructure, "results are tensors", "result #", i, " has type ",
                       ResultType(op, i).ToString());
    }
  }
  return OkStatus();
}

Status CheckTensorCounts(const Operation& op, int operands, int results) {
  PLUGRT_RETURN_IF_ERROR(CheckCounts(op, operands, results));
  return CheckAllTensors(op);
}

Status CheckRegionCount(const Operation& op, size_t count) {
  if (op.regions.size() != count) {
    return Violation(op, kStructure, "number of regions", "expected ", count, ", got ",
                     op.regions.size());
  }
  return OkStatus();
}

namespace {

Status AttrKindError(const Operation& op, std::string_view name, std::string_view expected,
                     const Attribute& attr) {
  return Violation(op, kStructure, StrCat("attribute '", name, "' is ", expected), "got ",
                   attr.ToString());
}

}  // namespace

StatusOr<std::vector<int64_t>> IntListAttr(const Operation& op, std::string_view name,
                                           std::vector<int64_t> fallback) {
  const Attribute* attr = op.attribute(name);
  if (attr == nullptr) return fallback;
  StatusOr<std::vector<int64_t>> values = AttrToIntList(*attr);
  if (!values.ok()) return AttrKindError(op, name, "a list of integers", *attr);
  return values;
}

StatusOr<std::vector<int64_t>> RequiredIntListAttr(const Operation& op, std::string_view name) {
  if (op.attribute(name) == nullptr) {
    return Violation(op, kStructure, StrCat("attribute '", name, "' is required"), "it is absent");
  }
  return IntListAttr(op, name, {});
}

StatusOr<int64_t> IntAttr(const Operation& op, std::string_view name, int64_t fallback) {
  const Attribute* attr = op.attribute(name);
  if (attr == nullptr) return fallback;
  StatusOr<int64_t> value = AttrToInt(*attr);
  if (!value.ok()) return AttrKindError(op, name, "an integer", *attr);
  return value;
}

StatusOr<int64_t> RequiredIntAttr(const Operation& op, std::string_view name) {
  if (op.attribute(name) == nullptr) {
    return Violation(op, kStructure, StrCat("attribute '", name, "' is required"), "it is absent");
  }
  return IntAttr(op, name, 0);
}

StatusOr<std::string> EnumAttr(const Operation& op, std::string_view name, std::string fallback) {
  const Attribute* attr = op.attribute(name);
  if (attr == nullptr) return fallback;
  StatusOr<std::string> value = AttrToEnumValue(*attr);
  if (!value.ok()) return AttrKindError(op, name, "an enum", *attr);
  return value;
}

StatusOr<bool> BoolAttr(const Operation& op, std::string_view name, bool fallback) {
  const Attribute* attr = op.attribute(name);
  if (attr == nullptr) return fallback;
  StatusOr<bool> value = AttrToBool(*attr);
  if (!value.ok()) return AttrKindError(op, name, "a boolean", *attr);
  return value;
}

StatusOr<std::string> OneOfEnum(const Operation& op, std::string_view name,
                                const std::vector<std::string_view>& allowed,
                                const std::string& fallback) {
  if (op.attribute(name) == nullptr && fallback.empty()) {
    return Violation(op, kStructure, StrCat("attribute '", name, "' is required"), "it is absent");
  }
  PLUGRT_ASSIGN_OR_RETURN(std::string value, EnumAttr(op, name, fallback));
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    std::string list;
    for (std::string_view a : allowed) list += StrCat(list.empty() ? "" : ", ", a);
    return Violation(op, kStructure, StrCat("'", name, "' is one of ", list), "got '", value,
                     "'");
  }
  return value;
}

StatusOr<ChannelHandle> ChannelHandleAttr(const Operation& op) {
  ChannelHandle channel;
  const Attribute* attr = op.attribute("channel_handle");
  if (attr == nullptr) return channel;
  if (attr->kind != Attribute::Kind::kStruct) {
    return AttrKindError(op, "channel_handle", "a #stablehlo.channel_handle", *attr);
  }
  PLUGRT_ASSIGN_OR_RETURN(channel.handle, FieldInt(op, *attr, "handle", 0));
  PLUGRT_ASSIGN_OR_RETURN(channel.type, FieldInt(op, *attr, "type", 0));
  return channel;
}

const Attribute* StructAttr(const Operation& op, std::string_view name) {
  const Attribute* attr = op.attribute(name);
  return attr != nullptr && attr->kind == Attribute::Kind::kStruct ? attr : nullptr;
}

StatusOr<std::vector<int64_t>> FieldList(const Operation& op, const Attribute& attr,
                                         std::string_view field) {
  const Attribute* value = attr.field(field);
  if (value == nullptr) return std::vector<int64_t>{};
  StatusOr<std::vector<int64_t>> values = AttrToIntList(*value);
  if (!values.ok()) return AttrKindError(op, StrCat(attr.str, ".", field), "a list of integers", *value);
  return values;
}

StatusOr<int64_t> FieldInt(const Operation& op, const Attribute& attr, std::string_view field,
                           int64_t fallback) {
  const Attribute* value = attr.field(field);
  if (value == nullptr) return fallback;
  StatusOr<int64_t> result = AttrToInt(*value);
  if (!result.ok()) return AttrKindError(op, StrCat(attr.str, ".", field), "an integer", *value);
  return result;
}

Status SameElementType(const Operation& op, std::string_view label, std::string_view rule,
                       const Type& a, const Type& b) {
  if (a.element_type() == b.element_type()) return OkStatus();
  return Violation(op, label, rule, ElementTypeName(a.element_type()), " vs ",
                   ElementTypeName(b.element_type()));
}

Status SameType(const Operation& op, std::string_view label, std::string_view rule,
                const Type& a, const Type& b) {
  if (TypesCompatible(a, b)) return OkStatus();
  return Violation(op, label, rule, a.ToString(), " vs ", b.ToString());
}

Status IntegerScalar(const Operation& op, size_t index, std::string_view label,
                     std::string_view what) {
  const Type& type = OperandType(op, index);
  if (type.rank() == 0 && IsInteger(type.element_type())) return OkStatus();
  return Violation(op, label, StrCat(what, " is a 0-dimensional tensor of integer type"),
                   "operand #", index, " is ", type.ToString());
}

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

bool Contains(const std::vector<int64_t>& values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::vector<int64_t> Concat(std::vector<int64_t> a, const std::vector<int64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Status ListInRank(const Operation& op, std::string_view label, const NamedDims& list,
                  std::string_view of, int64_t rank) {
  if (AllInRange(list.values, 0, rank)) return OkStatus();
  return Violation(op, label, StrCat("0 <= ", list.name, " < rank(", of, ")"),
                   ListToString(list.values), " for rank ", rank);
}

bool AllUnique(const std::vector<int64_t>& values) {
  std::vector<int64_t> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  return std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
}

bool AllInRange(const std::vector<int64_t>& values, int64_t low, int64_t high) {
  return std::all_of(values.begin(), values.end(),
                     [&](int64_t v) { return v >= low && v < high; });
}

bool IsPermutation(const std::vector<int64_t>& values, int64_t n) {
  return static_cast<int64_t>(values.size()) == n && AllInRange(values, 0, n) && AllUnique(values);
}

bool IsSortedAscending(const std::vector<int64_t>& values) {
  return std::is_sorted(values.begin(), values.end());
}

std::string ListToString(const std::vector<int64_t>& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ", ";
    text += values[i] == kDynamicSize ? std::string("?") : std::to_string(values[i]);
  }
  return text + "]";
}

std::vector<Type> RegionResultTypes(const Region& region) {
  if (region.blocks.empty() || region.front().operations.empty()) return {};
  return OperandTypes(*region.front().operations.back());
}

std::vector<Type> RegionArgumentTypes(const Region& region) {
  std::vector<Type> types;
  if (region.blocks.empty()) return types;
  for (const auto& argument : region.front().arguments) types.push_back(argument->type);
  return types;
}

Status CheckRegionSignature(const Operation& op, const Region& region, std::string_view what,
                            std::string_view label, std::string_view rule,
                            const std::vector<Type>* arguments, const std::vector<Type>* results) {
  if (arguments != nullptr) {
    std::vector<Type> actual = RegionArgumentTypes(region);
    if (!ListsCompatible(actual, *arguments)) {
      return Violation(op, label, rule, what, " takes (", TypesToString(actual), "), expected (",
                       TypesToString(*arguments), ")");
    }
  }
  if (results != nullptr) {
    std::vector<Type> actual = RegionResultTypes(region);
    if (!ListsCompatible(actual, *results)) {
      return Violation(op, label, rule, what, " returns (", TypesToString(actual),
                       "), expected (", TypesToString(*results), ")");
    }
  }
  return OkStatus();
}

const CheckTable& RegisteredChecks() {
  static const CheckTable table = [] {
    CheckTable t;
    RegisterElementwiseChecks(t);
    RegisterShapeChecks(t);
    RegisterComputeChecks(t);
    RegisterControlChecks(t);
    return t;
  }();
  return table;
}

}  // namespace verify

namespace {

using verify::kStructure;
using verify::Violation;

bool IsTerminator(const Operation& op) { return shlo::IsTerminator(op.code); }

bool HasUnsupportedTypes(const Operation& op) {
  for (const Value* value : op.operands) {
    if (verify::ContainsUnsupported(value->type)) return true;
  }
  for (const auto& value : op.results) {
    if (verify::ContainsUnsupported(value->type)) return true;
  }
  return false;
}

bool HasQuantizedTypes(const Operation& op) {
  for (const Value* value : op.operands) {
    if (verify::ContainsQuantized(value->type)) return true;
  }
  for (const auto& value : op.results) {
    if (verify::ContainsQuantized(value->type)) return true;
  }
  return false;
}

// Why `type` (or a tensor inside a tuple) is too large to exist: its element
// count or its size in bytes does not fit in int64 (every later stage counts
// both in int64); empty when it fits.
std::string OversizedType(const Type& type) {
  if (type.is_tuple()) {
    for (const Type& element : type.tuple_elements()) {
      std::string why = OversizedType(element);
      if (!why.empty()) return why;
    }
    return "";
  }
  if (!type.is_tensor()) return "";
  int64_t elements = 1;
  for (int64_t dim : type.dims()) {
    if (dim == kDynamicSize || dim < 0) continue;  // bounded later, when known
    if (__builtin_mul_overflow(elements, dim, &elements)) {
      return StrCat(type.ToString(), " has more elements than fit in 64 bits");
    }
  }
  int64_t bytes = 0;
  if (__builtin_mul_overflow(elements, int64_t{StorageBytes(type.element_type())}, &bytes)) {
    return StrCat(type.ToString(), " has ", elements,
                  " elements, more bytes than fit in 64 bits");
  }
  return "";
}

constexpr std::string_view kSizeRule = "a tensor's element and byte counts fit in 64 bits";

// What the op table says of every op (stablehlo/op_code.h): its operand and
// result counts (checked before the op's own check, which relies on them)
// and its required attributes (after: the op's own check names them with
// the spec's labels where it has them).
Status CheckTableCounts(const Operation& op) {
  const OpTraits& traits = TraitsOf(op.code);
  return verify::CheckCounts(op, traits.operands, traits.results);
}
Status CheckRequiredAttributes(const Operation& op) {
  std::string_view names = TraitsOf(op.code).attributes;
  while (!names.empty()) {
    const size_t space = names.find(' ');
    const std::string_view name = names.substr(0, space);
    if (op.attribute(name) == nullptr) {
      return Violation(op, kStructure, StrCat("attribute '", name, "' is required"),
                       "it is absent");
    }
    names = space == std::string_view::npos ? std::string_view() : names.substr(space + 1);
  }
  return OkStatus();
}

// Every result shape is the one the op's shape rule gives
// (stablehlo/type_inference.h), where the rule can tell.
Status CheckInferredShapes(const Operation& op) {
  for (size_t r = 0; r < op.results.size(); ++r) {
    const std::optional<std::vector<int64_t>> dims = InferResultDims(op, r);
    if (!dims || verify::ShapeIs(op.results[r]->type, *dims)) continue;
    return Violation(op, kStructure, "the result shapes follow from the operands (type inference)",
                     "result #", r, " is ", op.results[r]->type.ToString(), ", the operands give ",
                     verify::ListToString(*dims));
  }
  return OkStatus();
}

class ModuleVerifier {
 public:
  explicit ModuleVerifier(const Module& module) : module_(module) {}

  Status Run() {
    std::unordered_set<std::string> names;
    for (const auto& function : module_.functions) {
      if (!names.insert(function->name).second) {
        return InvalidArgument(function->location.ToString(), ": func.func @", function->name,
                               ": violated rule (structure) function names are unique: @",
                               function->name, " is defined twice");
      }
    }
    for (const auto& function : module_.functions) {
      PLUGRT_RETURN_IF_ERROR(VerifyFunction(*function));
    }
    return OkStatus();
  }

 private:
  Status FunctionError(const Function& function, std::string_view rule,
                       const std::string& detail) const {
    return InvalidArgument(function.location.ToString(), ": func.func @", function.name,
                           ": violated rule (structure) ", rule, ": ", detail);
  }

  Status VerifyFunction(const Function& function) {
    if (function.body == nullptr || function.body->blocks.empty()) {
      return FunctionError(function, "a function has a body", "it has none");
    }
    const Block& entry = function.body->front();
    for (const auto* types : {&function.input_types, &function.result_types}) {
      for (const Type& type : *types) {
        std::string why = OversizedType(type);
        if (!why.empty()) return FunctionError(function, kSizeRule, why);
      }
    }
    std::vector<Type> arguments = verify::RegionArgumentTypes(*function.body);
    if (arguments.size() != function.input_types.size()) {
      return FunctionError(function, "the body's arguments match the function's inputs",
                           StrCat(arguments.size(), " arguments for ",
                                  function.input_types.size(), " inputs"));
    }
    for (size_t i = 0; i < arguments.size(); ++i) {
      if (!verify::TypesCompatible(arguments[i], function.input_types[i])) {
        return FunctionError(function, "the body's arguments match the function's inputs",
                             StrCat("argument #", i, " is ", arguments[i].ToString(),
                                    ", input is ", function.input_types[i].ToString()));
      }
    }
    PLUGRT_RETURN_IF_ERROR(VerifyRegion(*function.body));
    if (entry.operations.empty() || entry.operations.back()->code != OpCode::kFuncReturn) {
      return FunctionError(function, "a function body ends with func.return",
                           "the last op is not a return");
    }
    const Operation& ret = *entry.operations.back();
    std::vector<Type> returned = verify::OperandTypes(ret);
    if (!verify::ListsCompatible(returned, function.result_types)) {
      return Violation(ret, kStructure, "func.return operands match the function's result types",
                       "returns (", verify::TypesToString(returned), "), @", function.name,
                       " declares (", verify::TypesToString(function.result_types), ")");
    }
    return OkStatus();
  }

  Status VerifyRegion(const Region& region) {
    if (region.blocks.size() != 1) {
      if (region.parent_op != nullptr) {
        return Violation(*region.parent_op, kStructure, "regions have exactly one block", "got ",
                         region.blocks.size());
      }
      return InvalidArgument("violated rule (structure) function bodies have exactly one block");
    }
    const Block& block = region.front();
    for (size_t i = 0; i < block.operations.size(); ++i) {
      const Operation& op = *block.operations[i];
      const bool last = i + 1 == block.operations.size();
      if (IsTerminator(op) && !last) {
        return Violation(op, kStructure, "a return is the last op of its block",
                         "ops follow it");
      }
      PLUGRT_RETURN_IF_ERROR(VerifyOp(op));
    }
    if (region.parent_op != nullptr) {
      if (block.operations.empty() || block.operations.back()->code != OpCode::kReturn) {
        // func.return closes function bodies; nested regions of StableHLO
        // ops close with stablehlo.return.
        const bool func_return =
            !block.operations.empty() && block.operations.back()->code == OpCode::kFuncReturn;
        if (!func_return || region.parent_op->name.rfind("stablehlo.", 0) == 0) {
          return Violation(*region.parent_op, kStructure,
                           "each region ends with stablehlo.return",
                           block.operations.empty() ? "a region is empty"
                                                    : "a region ends with " +
                                                          block.operations.back()->name);
        }
      }
    }
    return OkStatus();
  }

  // The op's operand and result types against `function`'s signature.
  static Status CheckSignature(const Operation& op, const Function& function,
                               std::string_view label, std::string_view rule) {
    std::vector<Type> operands = verify::OperandTypes(op);
    std::vector<Type> results = verify::ResultTypes(op);
    if (verify::ListsCompatible(operands, function.input_types) &&
        verify::ListsCompatible(results, function.result_types)) {
      return OkStatus();
    }
    return Violation(op, label, rule, "(", verify::TypesToString(operands), ") -> (",
                     verify::TypesToString(results), ") calls @", function.name, " : (",
                     verify::TypesToString(function.input_types), ") -> (",
                     verify::TypesToString(function.result_types), ")");
  }

  // The function a symbol attribute of `op` names (func.call's callee, a
  // composite's decomposition).
  StatusOr<const Function*> Callee(const Operation& op, std::string_view attribute,
                                   std::string_view label) const {
    const Attribute* callee = op.attribute(attribute);
    if (callee == nullptr || callee->kind != Attribute::Kind::kSymbolRef) {
      return Violation(op, label, StrCat(attribute, " names a function with a symbol"), "got ",
                       callee == nullptr ? std::string("none") : callee->ToString());
    }
    const Function* function = module_.FindFunction(callee->str);
    if (function == nullptr) {
      return Violation(op, label, StrCat(attribute, " is a function of the module"), "no @",
                       callee->str);
    }
    return function;
  }

  Status VerifyCall(const Operation& op) {
    PLUGRT_ASSIGN_OR_RETURN(const Function* function, Callee(op, "callee", kStructure));
    return CheckSignature(op, *function, kStructure, "call types match the callee's signature");
  }

  // composite's rules that need the module: (C2) the decomposition exists,
  // (C3)/(C4) its signature is the op's.
  Status VerifyCompositeDecomposition(const Operation& op) {
    PLUGRT_ASSIGN_OR_RETURN(const Function* function, Callee(op, "decomposition", "C2"));
    return CheckSignature(op, *function, "C3",
                          "the decomposition takes the operands' types and returns the results'");
  }

  Status VerifyOp(const Operation& op) {
    for (const auto& result : op.results) {
      std::string why = OversizedType(result->type);
      if (!why.empty()) return Violation(op, kStructure, kSizeRule, why);
    }
    for (const auto& region : op.regions) {
      for (const auto& block : region->blocks) {
        for (const auto& argument : block->arguments) {
          std::string why = OversizedType(argument->type);
          if (!why.empty()) return Violation(op, kStructure, kSizeRule, why);
        }
      }
    }
    for (const auto& region : op.regions) PLUGRT_RETURN_IF_ERROR(VerifyRegion(*region));
    if (op.code == OpCode::kFuncCall) return VerifyCall(op);
    if (HasUnsupportedTypes(op)) return OkStatus();
    // Quantized ops: the spec's quantization rules here; their shape rules
    // are checked on the plain ops they are lowered to.
    if (HasQuantizedTypes(op)) return verify::CheckQuantizedOp(op);
    if (op.code == OpCode::kUnknown) return OkStatus();
    PLUGRT_RETURN_IF_ERROR(CheckTableCounts(op));
    verify::CheckFn check = verify::RegisteredChecks().Get(op.code);
    if (check != nullptr) PLUGRT_RETURN_IF_ERROR(check(op));
    PLUGRT_RETURN_IF_ERROR(CheckRequiredAttributes(op));
    PLUGRT_RETURN_IF_ERROR(CheckInferredShapes(op));
    if (op.code == OpCode::kComposite) return VerifyCompositeDecomposition(op);
    return OkStatus();
  }

  const Module& module_;
};

}  // namespace

Status VerifyModule(const Module& module) { return ModuleVerifier(module).Run(); }

}  // namespace plugrt::shlo
