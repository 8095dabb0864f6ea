// plugrt StableHLO verifier: rules of the elementwise ops (the spec's
// sections abs ... xor), plus constant, iota and map.
//
// Most elementwise ops share one rule: their operands are tensors of some
// element-type classes (the spec's Inputs table, labelled I1, I2) and the
// operands and the result have the same type (C1). Those ops are one table,
// kSameTypeOps, checked by CheckSameTypeOp; the others have their own checks.
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stablehlo/verifier_util.h"

namespace plugrt::shlo::verify {
namespace {

// ----------------------------------------------------------- element classes

enum ElementClass : unsigned {
  kBoolean = 1,
  kSigned = 2,
  kUnsigned = 4,
  kFloating = 8,
  kComplexClass = 16,
  kInteger = kSigned | kUnsigned,
  kAnyElement = kBoolean | kInteger | kFloating | kComplexClass,
};

unsigned ClassOf(ElementType type) {
  if (IsBoolean(type)) return kBoolean;
  if (IsSignedInteger(type)) return kSigned;
  if (IsUnsignedInteger(type)) return kUnsigned;
  if (IsFloat(type)) return kFloating;
  return IsComplex(type) ? static_cast<unsigned>(kComplexClass) : 0u;
}

// "boolean or integer", "signed integer, floating-point or complex".
std::string ClassText(unsigned classes) {
  std::vector<std::string_view> names;
  if (classes & kBoolean) names.push_back("boolean");
  if ((classes & kInteger) == kInteger) {
    names.push_back("integer");
  } else if (classes & kSigned) {
    names.push_back("signed integer");
  } else if (classes & kUnsigned) {
    names.push_back("unsigned integer");
  }
  if (classes & kFloating) names.push_back("floating-point");
  if (classes & kComplexClass) names.push_back("complex");
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += names[i];
  }
  return text;
}

// Operand `index` (spec input label I<index+1>, called `name`) has an element
// type of `classes`.
Status CheckOperandClass(const Operation& op, size_t index, std::string_view name,
                         unsigned classes) {
  const Type& type = OperandType(op, index);
  if (ClassOf(type.element_type()) & classes) return OkStatus();
  return Violation(op, StrCat("I", index + 1),
                   StrCat("`", name, "` is a tensor of ", ClassText(classes), " type"), "got ",
                   type.ToString());
}

// The result's element type is of `classes` (the spec's Outputs table, whose
// rows have no labels: kStructure).
Status CheckResultClass(const Operation& op, std::string_view name, unsigned classes) {
  const Type& type = ResultType(op, 0);
  if (ClassOf(type.element_type()) & classes) return OkStatus();
  return Violation(op, kStructure,
                   StrCat("`", name, "` is a tensor of ", ClassText(classes), " type"), "got ",
                   type.ToString());
}

// "lhs tensor<2xf32>, rhs tensor<2xf32>, result tensor<2xf64>"
std::string Named(std::initializer_list<std::pair<std::string_view, const Type*>> values) {
  std::string text;
  for (const auto& [name, type] : values) {
    if (!text.empty()) text += ", ";
    text += StrCat(name, " ", type->ToString());
  }
  return text;
}

// C1 of one-operand ops: the operand (called `x`) and the result (`y`) have
// the same shape.
Status CheckSameShape(const Operation& op, std::string_view x, std::string_view y) {
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  if (ShapesCompatible(operand, result)) return OkStatus();
  return Violation(op, "C1", StrCat("`", x, "` and `", y, "` have the same shape"),
                   Named({{x, &operand}, {y, &result}}));
}

// ----------------------------------------------------- same-type elementwise

struct SameTypeOp {
  OpCode code;
  int arity;  // 1: operand; 2: lhs, rhs
  unsigned classes;
};

constexpr unsigned kFloatOrComplex = kFloating | kComplexClass;
constexpr unsigned kNumeric = kInteger | kFloating | kComplexClass;

constexpr SameTypeOp kSameTypeOps[] = {
    {OpCode::kAdd, 2, kAnyElement},
    {OpCode::kAnd, 2, kBoolean | kInteger},
    {OpCode::kAtan2, 2, kFloatOrComplex},
    {OpCode::kCbrt, 1, kFloatOrComplex},
    {OpCode::kCeil, 1, kFloating},
    {OpCode::kCosine, 1, kFloatOrComplex},
    {OpCode::kCountLeadingZeros, 1, kInteger},
    {OpCode::kDivide, 2, kNumeric},
    {OpCode::kExponential, 1, kFloatOrComplex},
    {OpCode::kExponentialMinusOne, 1, kFloatOrComplex},
    {OpCode::kFloor, 1, kFloating},
    {OpCode::kLog, 1, kFloatOrComplex},
    {OpCode::kLogPlusOne, 1, kFloatOrComplex},
    {OpCode::kLogistic, 1, kFloatOrComplex},
    {OpCode::kMaximum, 2, kAnyElement},
    {OpCode::kMinimum, 2, kAnyElement},
    {OpCode::kMultiply, 2, kAnyElement},
    {OpCode::kNegate, 1, kNumeric},
    {OpCode::kNot, 1, kBoolean | kInteger},
    {OpCode::kOr, 2, kBoolean | kInteger},
    {OpCode::kPopcnt, 1, kInteger},
    {OpCode::kPower, 2, kNumeric},
    {OpCode::kRemainder, 2, kNumeric},
    {OpCode::kRoundNearestAfz, 1, kFloating},
    {OpCode::kRoundNearestEven, 1, kFloating},
    {OpCode::kRsqrt, 1, kFloatOrComplex},
    {OpCode::kShiftLeft, 2, kInteger},
    {OpCode::kShiftRightArithmetic, 2, kInteger},
    {OpCode::kShiftRightLogical, 2, kInteger},
    {OpCode::kSign, 1, kSigned | kFloating | kComplexClass},
    {OpCode::kSine, 1, kFloatOrComplex},
    {OpCode::kSqrt, 1, kFloatOrComplex},
    {OpCode::kSubtract, 2, kNumeric},
    {OpCode::kTan, 1, kFloatOrComplex},
    {OpCode::kTanh, 1, kFloatOrComplex},
    {OpCode::kXor, 2, kBoolean | kInteger},
};

// I1/I2: element classes; C1: operands and result have the same type.
Status CheckSameTypeRule(const Operation& op, int arity, unsigned classes) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, arity, 1));
  const bool unary = arity == 1;
  const std::string_view names[] = {unary ? "operand" : "lhs", "rhs"};
  for (int i = 0; i < arity; ++i) {
    PLUGRT_RETURN_IF_ERROR(CheckOperandClass(op, i, names[i], classes));
  }
  const Type& first = OperandType(op, 0);
  bool same = TypesCompatible(first, ResultType(op, 0));
  if (!unary) same = same && TypesCompatible(first, OperandType(op, 1));
  if (same) return OkStatus();
  if (unary) {
    return Violation(op, "C1", "`operand` and `result` have the same type",
                     Named({{"operand", &first}, {"result", &ResultType(op, 0)}}));
  }
  return Violation(
      op, "C1", "`lhs`, `rhs` and `result` have the same type",
      Named({{"lhs", &first}, {"rhs", &OperandType(op, 1)}, {"result", &ResultType(op, 0)}}));
}

Status CheckSameTypeOp(const Operation& op) {
  for (const SameTypeOp& rule : kSameTypeOps) {
    if (rule.code == op.code) return CheckSameTypeRule(op, rule.arity, rule.classes);
  }
  return OkStatus();
}

// ------------------------------------------------------------ other unary ops

// abs, real, imag: C1 same shape; C2 the result's element type is the
// operand's, or its real component type when the operand is complex.
Status CheckPartOp(const Operation& op, unsigned classes) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 1, 1));
  PLUGRT_RETURN_IF_ERROR(CheckOperandClass(op, 0, "operand", classes));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  if (!ShapesCompatible(operand, result)) {
    return Violation(op, "C1", "shape(`result`) = shape(`operand`)",
                     Named({{"operand", &operand}, {"result", &result}}));
  }
  const ElementType e = operand.element_type();
  const ElementType expected = IsComplex(e) ? ComplexComponent(e) : e;
  if (result.element_type() != expected) {
    return Violation(op, "C2",
                     "element_type(`result`) is element_type(`operand`), or its real type "
                     "when complex",
                     "expected ", ElementTypeName(expected), ", got ",
                     ElementTypeName(result.element_type()));
  }
  return OkStatus();
}

Status CheckAbs(const Operation& op) {
  return CheckPartOp(op, kSigned | kFloating | kComplexClass);
}
Status CheckRealImag(const Operation& op) { return CheckPartOp(op, kFloatOrComplex); }

Status CheckIsFinite(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 1, 1));
  PLUGRT_RETURN_IF_ERROR(CheckOperandClass(op, 0, "x", kFloating));
  PLUGRT_RETURN_IF_ERROR(CheckResultClass(op, "y", kBoolean));
  return CheckSameShape(op, "x", "y");
}

Status CheckConvert(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 1, 1));
  return CheckSameShape(op, "operand", "result");
}

Status CheckBitcastConvert(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 1, 1));
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  const int bits = BitWidth(operand.element_type());
  const int result_bits = BitWidth(result.element_type());
  const int64_t rank = operand.rank();
  const std::string found = Named({{"operand", &operand}, {"result", &result}});
  auto prefix_compatible = [](const Type& a, const Type& b, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      if (!DimsCompatible(a.dims()[i], b.dims()[i])) return false;
    }
    return true;
  };
  if (result_bits == bits) {
    if (!ShapesCompatible(operand, result)) {
      return Violation(op, "C1", "equal bit widths: shape(`result`) = shape(`operand`)", found);
    }
  } else if (result_bits < bits) {
    if (bits % result_bits != 0 || result.rank() != rank + 1 ||
        !prefix_compatible(operand, result, rank) ||
        !DimsCompatible(result.dims()[rank], bits / result_bits)) {
      return Violation(op, "C1",
                       "narrower result: rank(result) = R+1, the leading dims match and "
                       "dim(result, R) = num_bits(E)/num_bits(E')",
                       found);
    }
  } else {
    if (result_bits % bits != 0 || rank < 1 || result.rank() != rank - 1 ||
        !prefix_compatible(operand, result, rank - 1) ||
        !DimsCompatible(operand.dims()[rank - 1], result_bits / bits)) {
      return Violation(op, "C1",
                       "wider result: rank(result) = R-1, the leading dims match and "
                       "dim(operand, R-1) = num_bits(E')/num_bits(E)",
                       found);
    }
  }
  if (IsComplex(operand.element_type()) != IsComplex(result.element_type())) {
    return Violation(op, "C2", "no conversion between complex and non-complex types", found);
  }
  return OkStatus();
}

Status CheckReducePrecision(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckSameTypeRule(op, 1, kFloating));
  PLUGRT_ASSIGN_OR_RETURN(int64_t exponent_bits, RequiredIntAttr(op, "exponent_bits"));
  if (exponent_bits < 1) {
    return Violation(op, "C2", "`exponent_bits` >= 1", "got ", exponent_bits);
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t mantissa_bits, RequiredIntAttr(op, "mantissa_bits"));
  if (mantissa_bits < 0) {
    return Violation(op, "C3", "`mantissa_bits` >= 0", "got ", mantissa_bits);
  }
  return OkStatus();
}

// ------------------------------------------------------- ops with more inputs

bool IsOneOf(std::string_view value, std::initializer_list<std::string_view> allowed) {
  for (std::string_view a : allowed) {
    if (value == a) return true;
  }
  return false;
}

Status CheckCompare(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 2, 1));
  const Type& lhs = OperandType(op, 0);
  const Type& rhs = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  if (op.attribute("comparison_direction") == nullptr) {
    return Violation(op, kStructure, "attribute 'comparison_direction' is required",
                     "it is absent");
  }
  PLUGRT_ASSIGN_OR_RETURN(std::string direction, EnumAttr(op, "comparison_direction", ""));
  if (!IsOneOf(direction, {"EQ", "NE", "GE", "GT", "LE", "LT"})) {
    return Violation(op, "I3", "`comparison_direction` is one of EQ, NE, GE, GT, LE, LT", "got ",
                     direction);
  }
  // NOTYPE is the dialect's spelling of an absent compare_type.
  PLUGRT_ASSIGN_OR_RETURN(std::string compare_type, EnumAttr(op, "compare_type", "NOTYPE"));
  if (!IsOneOf(compare_type, {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"})) {
    return Violation(op, "I4", "`compare_type` is one of FLOAT, TOTALORDER, SIGNED, UNSIGNED",
                     "got ", compare_type);
  }
  if (lhs.element_type() != rhs.element_type()) {
    return Violation(op, "C1", "`lhs` and `rhs` have the same element type",
                     Named({{"lhs", &lhs}, {"rhs", &rhs}}));
  }
  if (!ShapesCompatible(lhs, rhs) || !ShapesCompatible(lhs, result)) {
    return Violation(op, "C2", "`lhs`, `rhs` and `result` have the same shape",
                     Named({{"lhs", &lhs}, {"rhs", &rhs}, {"result", &result}}));
  }
  PLUGRT_RETURN_IF_ERROR(CheckResultClass(op, "result", kBoolean));
  if (compare_type != "NOTYPE") {
    const ElementType e = lhs.element_type();
    bool fits = false;
    std::string_view expected;
    if (IsSignedInteger(e)) {
      fits = compare_type == "SIGNED";
      expected = "SIGNED";
    } else if (IsUnsignedInteger(e) || IsBoolean(e)) {
      fits = compare_type == "UNSIGNED";
      expected = "UNSIGNED";
    } else if (IsFloat(e)) {
      fits = compare_type == "FLOAT" || compare_type == "TOTALORDER";
      expected = "FLOAT or TOTALORDER";
    } else {
      fits = compare_type == "FLOAT";
      expected = "FLOAT";
    }
    if (!fits) {
      return Violation(op, "C3", "`compare_type` fits the element type of `lhs`", "element type ",
                       ElementTypeName(e), " takes ", expected, ", got ", compare_type);
    }
  }
  return OkStatus();
}

Status CheckComplex(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 2, 1));
  const Type& lhs = OperandType(op, 0);
  const Type& rhs = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  for (size_t i = 0; i < 2; ++i) {
    const ElementType e = OperandType(op, i).element_type();
    if (e != ElementType::kF32 && e != ElementType::kF64) {
      return Violation(op, StrCat("I", i + 1),
                       StrCat("`", i == 0 ? "lhs" : "rhs", "` is a tensor of type f32 or f64"),
                       "got ", OperandType(op, i).ToString());
    }
  }
  if (!TypesCompatible(lhs, rhs)) {
    return Violation(op, "C1", "`lhs` and `rhs` have the same type",
                     Named({{"lhs", &lhs}, {"rhs", &rhs}}));
  }
  if (!ShapesCompatible(result, lhs)) {
    return Violation(op, "C2", "shape(`result`) = shape(`lhs`)",
                     Named({{"lhs", &lhs}, {"result", &result}}));
  }
  const ElementType expected =
      lhs.element_type() == ElementType::kF32 ? ElementType::kC64 : ElementType::kC128;
  if (result.element_type() != expected) {
    return Violation(op, "C3", "element_type(`result`) = complex_type(element_type(`lhs`))",
                     "expected ", ElementTypeName(expected), ", got ",
                     ElementTypeName(result.element_type()));
  }
  return OkStatus();
}

Status CheckSelect(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 3, 1));
  const Type& pred = OperandType(op, 0);
  const Type& on_true = OperandType(op, 1);
  const Type& on_false = OperandType(op, 2);
  const Type& result = ResultType(op, 0);
  if (pred.element_type() != ElementType::kI1) {
    return Violation(op, "I1", "`pred` is a tensor of type i1", "got ", pred.ToString());
  }
  if (pred.rank() != 0 && !ShapesCompatible(pred, on_true)) {
    return Violation(op, "C1", "rank(`pred`) = 0 or shape(`pred`) = shape(`on_true`)",
                     Named({{"pred", &pred}, {"on_true", &on_true}}));
  }
  if (!TypesCompatible(on_true, on_false) || !TypesCompatible(on_true, result)) {
    return Violation(op, "C2", "`on_true`, `on_false` and `result` have the same type",
                     Named({{"on_true", &on_true}, {"on_false", &on_false}, {"result", &result}}));
  }
  return OkStatus();
}

Status CheckClamp(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 3, 1));
  const Type& min = OperandType(op, 0);
  const Type& operand = OperandType(op, 1);
  const Type& max = OperandType(op, 2);
  const Type& result = ResultType(op, 0);
  if (min.rank() != 0 && !ShapesCompatible(min, operand)) {
    return Violation(op, "C1", "rank(`min`) = 0 or shape(`min`) = shape(`operand`)",
                     Named({{"min", &min}, {"operand", &operand}}));
  }
  if (max.rank() != 0 && !ShapesCompatible(max, operand)) {
    return Violation(op, "C2", "rank(`max`) = 0 or shape(`max`) = shape(`operand`)",
                     Named({{"max", &max}, {"operand", &operand}}));
  }
  if (min.element_type() != operand.element_type() ||
      max.element_type() != operand.element_type()) {
    return Violation(op, "C3", "`min`, `operand` and `max` have the same element type",
                     Named({{"min", &min}, {"operand", &operand}, {"max", &max}}));
  }
  if (!TypesCompatible(operand, result)) {
    return Violation(op, "C4", "`operand` and `result` have the same type",
                     Named({{"operand", &operand}, {"result", &result}}));
  }
  return OkStatus();
}

// ------------------------------------------------------ constant, iota, map

Status CheckConstant(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 0, 1));
  const Attribute* value = op.attribute("value");
  if (value == nullptr) {
    return Violation(op, kStructure, "attribute 'value' is required", "it is absent");
  }
  if (value->kind != Attribute::Kind::kDenseElements) {
    return Violation(op, kStructure, "attribute 'value' is a dense literal", "got ",
                     value->ToString());
  }
  if (!TypesCompatible(value->type, ResultType(op, 0))) {
    return Violation(op, "C1", "`value` and `output` have the same type", "value ",
                     value->type.ToString(), ", output ", ResultType(op, 0).ToString());
  }
  return OkStatus();
}

Status CheckIota(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, 0, 1));
  PLUGRT_RETURN_IF_ERROR(CheckResultClass(op, "output", kNumeric));
  PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, RequiredIntAttr(op, "iota_dimension"));
  const int64_t rank = ResultType(op, 0).rank();
  if (dimension < 0 || dimension >= rank) {
    return Violation(op, "C1", "0 <= `iota_dimension` < rank(`output`)", "iota_dimension ",
                     dimension, ", rank ", rank);
  }
  return OkStatus();
}

Status CheckMap(const Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensorCounts(op, -1, 1));
  if (op.regions.size() != 1) {
    return Violation(op, kStructure, "stablehlo.map has one region (computation)", "got ",
                     op.regions.size());
  }
  if (op.operands.empty()) {
    return Violation(op, "C2", "size(`inputs`) >= 1", "got none");
  }
  const Type& result = ResultType(op, 0);
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (!ShapesCompatible(OperandType(op, i), result)) {
      return Violation(op, "C1", "all `inputs` and `result` have the same shape", "input #", i,
                       " ", OperandType(op, i).ToString(), ", result ", result.ToString());
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dimensions,
                          RequiredIntListAttr(op, "dimensions"));
  const int64_t rank = OperandType(op, 0).rank();
  bool identity = static_cast<int64_t>(dimensions.size()) == rank;
  for (size_t i = 0; identity && i < dimensions.size(); ++i) {
    identity = dimensions[i] == static_cast<int64_t>(i);
  }
  if (!identity) {
    return Violation(op, "C3", "`dimensions` = [0, ..., R-1] where R = rank(`inputs[0]`)",
                     "dimensions ", ListToString(dimensions), ", rank ", rank);
  }
  std::vector<Type> arguments;
  for (const Value* input : op.operands) arguments.push_back(Type::Scalar(input->type.element_type()));
  const std::vector<Type> results = {Type::Scalar(result.element_type())};
  return CheckRegionSignature(
      op, op.region(0), "the computation", "C4",
      "`computation` has type (tensor<E0>, ..., tensor<EN-1>) -> tensor<E'>", &arguments,
      &results);
}

}  // namespace

void RegisterElementwiseChecks(CheckTable& table) {
  for (const SameTypeOp& rule : kSameTypeOps) table.Set(rule.code, &CheckSameTypeOp);
  table.Set(OpCode::kAbs, &CheckAbs);
  table.Set(OpCode::kReal, &CheckRealImag);
  table.Set(OpCode::kImag, &CheckRealImag);
  table.Set(OpCode::kIsFinite, &CheckIsFinite);
  table.Set(OpCode::kConvert, &CheckConvert);
  table.Set(OpCode::kBitcastConvert, &CheckBitcastConvert);
  table.Set(OpCode::kReducePrecision, &CheckReducePrecision);
  table.Set(OpCode::kCompare, &CheckCompare);
  table.Set(OpCode::kComplex, &CheckComplex);
  table.Set(OpCode::kSelect, &CheckSelect);
  table.Set(OpCode::kClamp, &CheckClamp);
  table.Set(OpCode::kConstant, &CheckConstant);
  table.Set(OpCode::kIota, &CheckIota);
  table.Set(OpCode::kMap, &CheckMap);
}

}  // namespace plugrt::shlo::verify
