// plugrt StableHLO verifier: the rules ops on quantized tensors obey (the
// spec's "Quantized element types" constraints and each op's constraints on
// quantized operands). Shape rules of these ops are checked after the
// quantized lowering (compiler/passes/lower_quantized.h) on the plain ops they become.
#include <algorithm>

#include "stablehlo/verifier_util.h"

namespace plugrt::shlo::verify {
namespace {

enum class QuantRule : uint8_t {
  kNone,           // takes no quantized tensors
  kQuantize,       // uniform_quantize
  kDequantize,     // uniform_dequantize
  kAdd,            // add: per-axis allowed
  kElementwise,    // per-tensor only, same baseline type
  kDotLike,        // dot_general, dot, convolution
  kSameElement,    // data movement: same storage / range / expressed type
  kAny,            // passes values along (return, tuple, while, calls, ...)
};

QuantRule RuleOf(OpCode code) {
  switch (code) {
    case OpCode::kUniformQuantize: return QuantRule::kQuantize;
    case OpCode::kUniformDequantize: return QuantRule::kDequantize;
    case OpCode::kAdd: return QuantRule::kAdd;
    case OpCode::kAbs: case OpCode::kAtan2: case OpCode::kCbrt: case OpCode::kCeil:
    case OpCode::kCholesky: case OpCode::kClamp: case OpCode::kCompare: case OpCode::kCosine:
    case OpCode::kDivide: case OpCode::kExponential: case OpCode::kExponentialMinusOne:
    case OpCode::kFloor: case OpCode::kLog: case OpCode::kLogPlusOne: case OpCode::kLogistic:
    case OpCode::kMaximum: case OpCode::kMinimum: case OpCode::kMultiply: case OpCode::kNegate:
    case OpCode::kPower: case OpCode::kReducePrecision: case OpCode::kRemainder:
    case OpCode::kRoundNearestAfz: case OpCode::kRoundNearestEven: case OpCode::kRsqrt:
    case OpCode::kSelect: case OpCode::kSign: case OpCode::kSine: case OpCode::kSqrt:
    case OpCode::kSubtract: case OpCode::kTan: case OpCode::kTanh: case OpCode::kTriangularSolve:
    case OpCode::kBatchNormGrad: case OpCode::kBatchNormInference:
    case OpCode::kBatchNormTraining:
      return QuantRule::kElementwise;
    case OpCode::kDot: case OpCode::kDotGeneral: case OpCode::kConvolution:
      return QuantRule::kDotLike;
    case OpCode::kBroadcastInDim: case OpCode::kConcatenate: case OpCode::kDynamicReshape:
    case OpCode::kDynamicSlice: case OpCode::kDynamicUpdateSlice: case OpCode::kGather:
    case OpCode::kPad: case OpCode::kReshape: case OpCode::kReverse: case OpCode::kSlice:
    case OpCode::kTranspose: case OpCode::kDynamicBroadcastInDim: case OpCode::kScatter:
    case OpCode::kSort: case OpCode::kReduce: case OpCode::kReduceWindow:
    case OpCode::kSelectAndScatter: case OpCode::kAllGather: case OpCode::kAllReduce:
    case OpCode::kAllToAll: case OpCode::kCollectivePermute: case OpCode::kCollectiveBroadcast:
    case OpCode::kReduceScatter: case OpCode::kMap:
      return QuantRule::kSameElement;
    case OpCode::kReturn: case OpCode::kFuncReturn: case OpCode::kFuncCall: case OpCode::kTuple:
    case OpCode::kGetTupleElement: case OpCode::kOptimizationBarrier: case OpCode::kWhile:
    case OpCode::kIf: case OpCode::kCase: case OpCode::kCustomCall: case OpCode::kComposite:
    case OpCode::kConstant: case OpCode::kBitcastConvert: case OpCode::kGetDimensionSize:
    case OpCode::kUnknown:
      return QuantRule::kAny;
    default:
      return QuantRule::kNone;
  }
}

std::string ElementText(const Type& type) {
  if (type.is_quantized()) return QuantParamsToString(*type.quant());
  return std::string(ElementTypeName(type.element_type()));
}

// A quantized type on its own: valid parameters (C1-C11) that fit the
// tensor (C12, C13).
Status CheckType(const Operation& op, const Type& type) {
  if (type.is_tuple()) {
    for (const Type& element : type.tuple_elements()) PLUGRT_RETURN_IF_ERROR(CheckType(op, element));
    return OkStatus();
  }
  if (!type.is_quantized()) return OkStatus();
  const UniformQuantParams& q = *type.quant();
  std::string why = CheckQuantParams(q);
  if (!why.empty()) return Violation(op, "C1-C11", "quantized element type", why);
  if (q.per_axis() && type.is_tensor()) {
    if (q.quantized_dimension >= type.rank()) {
      return Violation(op, "C12", "quantization_dimension < rank(self)", type.ToString(),
                       " has rank ", type.rank());
    }
    const int64_t dim = type.dims()[q.quantized_dimension];
    if (dim != kDynamicSize && dim != static_cast<int64_t>(q.scales.size())) {
      return Violation(op, "C13", "dim(self, quantization_dimension) = size(scales)",
                       type.ToString(), " has ", q.scales.size(), " scales for dimension size ",
                       dim);
    }
  }
  return OkStatus();
}

bool SameBaseline(const UniformQuantParams& a, const UniformQuantParams& b) {
  return a.storage == b.storage && a.storage_min == b.storage_min &&
         a.storage_max == b.storage_max && a.expressed == b.expressed;
}

// Every float or quantized operand and result of an elementwise op is
// per-tensor quantized with one baseline (storage, range, expressed type).
Status CheckElementwise(const Operation& op, bool allow_per_axis) {
  const UniformQuantParams* first = nullptr;
  std::vector<const Type*> types;
  for (const Value* v : op.operands) types.push_back(&v->type);
  for (const auto& r : op.results) types.push_back(&r->type);
  for (const Type* t : types) {
    if (!t->is_quantized()) continue;
    if (!allow_per_axis && t->quant()->per_axis()) {
      return Violation(op, "C1", "operands and results are tensors or per-tensor quantized tensors",
                       t->ToString(), " is per-axis quantized");
    }
    if (first == nullptr) first = t->quant();
    if (!SameBaseline(*first, *t->quant())) {
      return Violation(op, "C1", "baseline_type(operands...) = baseline_type(results...)",
                       QuantParamsToString(*first), " vs ", QuantParamsToString(*t->quant()));
    }
  }
  for (const Type* t : types) {
    // Booleans (compare's result, select's predicate) and integer operands
    // (power's exponent is not one) stay plain; a float next to quantized
    // values is a mix the spec does not allow.
    if (!t->is_quantized() && t->is_tensor() && IsFloat(t->element_type())) {
      return Violation(op, "C1", "quantized operands and results are all quantized",
                       t->ToString(), " is a float tensor next to quantized ones");
    }
  }
  return OkStatus();
}

Status CheckAdd(const Operation& op) {
  if (op.operands.size() != 2 || op.results.size() != 1) return OkStatus();
  const Type& lhs = OperandType(op, 0);
  const Type& rhs = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  if (!lhs.is_quantized() || !rhs.is_quantized() || !result.is_quantized()) {
    return Violation(op, "C2", "is_quantized(lhs) and is_quantized(rhs) and is_quantized(result)",
                     TypesToString({lhs, rhs, result}));
  }
  const UniformQuantParams& l = *lhs.quant();
  const UniformQuantParams& r = *rhs.quant();
  const UniformQuantParams& o = *result.quant();
  if (l.storage != r.storage || l.storage != o.storage) {
    return Violation(op, "C3", "storage_type(lhs) = storage_type(rhs) = storage_type(result)",
                     TypesToString({lhs, rhs, result}));
  }
  if (l.expressed != r.expressed || l.expressed != o.expressed) {
    return Violation(op, "C4", "expressed_type(lhs) = expressed_type(rhs) = expressed_type(result)",
                     TypesToString({lhs, rhs, result}));
  }
  if ((l.per_axis() || r.per_axis()) != o.per_axis()) {
    return Violation(op, "C5",
                     "(is_per_axis_quantized(lhs) or is_per_axis_quantized(rhs)) = "
                     "is_per_axis_quantized(result)",
                     TypesToString({lhs, rhs, result}));
  }
  if (l.per_axis() && l.quantized_dimension != o.quantized_dimension) {
    return Violation(op, "C6", "quantization_dimension(lhs) = quantization_dimension(result)",
                     l.quantized_dimension, " vs ", o.quantized_dimension);
  }
  if (r.per_axis() && r.quantized_dimension != o.quantized_dimension) {
    return Violation(op, "C7", "quantization_dimension(rhs) = quantization_dimension(result)",
                     r.quantized_dimension, " vs ", o.quantized_dimension);
  }
  return OkStatus();
}

Status CheckQuantize(const Operation& op) {
  if (op.operands.size() != 1 || op.results.size() != 1) {
    return Violation(op, kStructure, "one operand and one result", op.operands.size(),
                     " operands, ", op.results.size(), " results");
  }
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  if (!result.is_quantized() || !result.is_tensor()) {
    return Violation(op, "I1", "result is a quantized tensor", result.ToString());
  }
  if (!operand.is_tensor() || (!operand.is_quantized() && !IsFloat(operand.element_type()))) {
    return Violation(op, "I1", "operand is a tensor of floating-point or quantized type",
                     operand.ToString());
  }
  if (!ShapesCompatible(operand, result)) {
    return Violation(op, "C1", "shape(operand) = shape(result)", Shape(operand), " vs ",
                     Shape(result));
  }
  const ElementType expressed =
      operand.is_quantized() ? operand.quant()->expressed : operand.element_type();
  if (expressed != result.quant()->expressed) {
    return Violation(op, "C2",
                     "expressed_type(result) = is_float(operand) ? element_type(operand) : "
                     "expressed_type(operand)",
                     ElementTypeName(result.quant()->expressed), " vs ",
                     ElementTypeName(expressed));
  }
  return OkStatus();
}

Status CheckDequantize(const Operation& op) {
  if (op.operands.size() != 1 || op.results.size() != 1) {
    return Violation(op, kStructure, "one operand and one result", op.operands.size(),
                     " operands, ", op.results.size(), " results");
  }
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  if (!operand.is_quantized() || !operand.is_tensor()) {
    return Violation(op, "I1", "operand is a quantized tensor", operand.ToString());
  }
  if (result.is_quantized() || !result.is_tensor() || !IsFloat(result.element_type())) {
    return Violation(op, "O1", "result is a tensor of floating-point type", result.ToString());
  }
  if (!ShapesCompatible(operand, result)) {
    return Violation(op, "C1", "shape(operand) = shape(result)", Shape(operand), " vs ",
                     Shape(result));
  }
  if (result.element_type() != operand.quant()->expressed) {
    return Violation(op, "C2", "element_type(result) = expressed_type(operand)",
                     ElementTypeName(result.element_type()), " vs ",
                     ElementTypeName(operand.quant()->expressed));
  }
  return OkStatus();
}

// dot_general / dot / convolution: quantized (lhs, rhs and result
// quantized) or hybrid (float lhs and result, quantized rhs).
Status CheckDotLike(const Operation& op) {
  if (op.operands.size() != 2 || op.results.size() != 1) return OkStatus();
  const Type& lhs = OperandType(op, 0);
  const Type& rhs = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  if (lhs.is_quantized() != (result.is_quantized() && rhs.is_quantized())) {
    return Violation(op, "C28",
                     "is_quantized(lhs) = is_quantized(result) and is_quantized(rhs)",
                     TypesToString({lhs, rhs, result}));
  }
  if (!rhs.is_quantized()) {
    return Violation(op, "C28", "a quantized op has a quantized rhs",
                     TypesToString({lhs, rhs, result}));
  }
  const UniformQuantParams& r = *rhs.quant();
  if (lhs.is_quantized()) {
    const UniformQuantParams& l = *lhs.quant();
    const UniformQuantParams& o = *result.quant();
    if (l.per_axis()) {
      return Violation(op, "I1", "lhs is a tensor or per-tensor quantized tensor", lhs.ToString());
    }
    if (l.storage != r.storage) {
      return Violation(op, "C31", "storage_type(lhs) = storage_type(rhs)", ElementText(lhs),
                       " vs ", ElementText(rhs));
    }
    if (l.expressed != r.expressed || l.expressed != o.expressed) {
      return Violation(op, "C32", "expressed_type(lhs) = expressed_type(rhs) = expressed_type(result)",
                       TypesToString({lhs, rhs, result}));
    }
    if (!r.per_axis() && o.per_axis()) {
      return Violation(op, "C33",
                       "is_per_tensor_quantized(rhs) implies is_per_tensor_quantized(result)",
                       TypesToString({lhs, rhs, result}));
    }
  } else if (lhs.element_type() != r.expressed || result.element_type() != r.expressed) {
    return Violation(op, "C34", "element_type(lhs) = expressed_type(rhs) = element_type(result)",
                     TypesToString({lhs, rhs, result}));
  }
  return OkStatus();
}

// Data movement: quantized in, quantized out, one storage, range and
// expressed type (per-tensor parameters equal; per-axis ones may move with
// the dimension they belong to).
Status CheckSameElement(const Operation& op) {
  const UniformQuantParams* first = nullptr;
  const Type* first_type = nullptr;
  auto visit = [&](const Type& t) -> Status {
    if (!t.is_quantized()) return OkStatus();
    if (first == nullptr) {
      first = t.quant();
      first_type = &t;
      return OkStatus();
    }
    const UniformQuantParams& q = *t.quant();
    bool same = SameBaseline(*first, q);
    if (same && !first->per_axis() && !q.per_axis()) {
      same = first->scales == q.scales && first->zero_points == q.zero_points;
    }
    if (!same) {
      return Violation(op, "C1", "element_type(operand) = element_type(result)",
                       ElementText(*first_type), " vs ", ElementText(t));
    }
    return OkStatus();
  };
  bool float_seen = false;
  for (const Value* v : op.operands) {
    PLUGRT_RETURN_IF_ERROR(visit(v->type));
    float_seen = float_seen || (v->type.is_tensor() && !v->type.is_quantized() &&
                                IsFloat(v->type.element_type()));
  }
  for (const auto& r : op.results) {
    PLUGRT_RETURN_IF_ERROR(visit(r->type));
    float_seen = float_seen || (r->type.is_tensor() && !r->type.is_quantized() &&
                                IsFloat(r->type.element_type()));
  }
  if (float_seen) {
    return Violation(op, "C1", "element_type(operand) = element_type(result)",
                     "a float tensor next to quantized ones: ",
                     TypesToString(OperandTypes(op)), " -> ", TypesToString(ResultTypes(op)));
  }
  return OkStatus();
}

}  // namespace

bool ContainsQuantized(const Type& type) {
  if (type.is_tuple()) {
    return std::any_of(type.tuple_elements().begin(), type.tuple_elements().end(),
                       ContainsQuantized);
  }
  return type.is_quantized();
}

Status CheckQuantizedOp(const Operation& op) {
  for (const Value* v : op.operands) PLUGRT_RETURN_IF_ERROR(CheckType(op, v->type));
  for (const auto& r : op.results) PLUGRT_RETURN_IF_ERROR(CheckType(op, r->type));
  switch (RuleOf(op.code)) {
    case QuantRule::kNone:
      return Violation(op, "I1", "operands are tensors of the op's element types",
                       op.name, " does not take quantized tensors: ",
                       TypesToString(OperandTypes(op)), " -> ", TypesToString(ResultTypes(op)));
    case QuantRule::kQuantize:
      return CheckQuantize(op);
    case QuantRule::kDequantize:
      return CheckDequantize(op);
    case QuantRule::kAdd:
      return CheckAdd(op);
    case QuantRule::kElementwise:
      return CheckElementwise(op, /*allow_per_axis=*/false);
    case QuantRule::kDotLike:
      return CheckDotLike(op);
    case QuantRule::kSameElement:
      return CheckSameElement(op);
    case QuantRule::kAny:
      return OkStatus();
  }
  return OkStatus();
}

}  // namespace plugrt::shlo::verify
