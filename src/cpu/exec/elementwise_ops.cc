// CompileElementwiseOp: decodes elementwise ops once, checks their types and
// shapes, and binds the typed kernel each will run.
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "common/small_array.h"
#include "cpu/exec/op_registry.h"
#include "cpu/kernels/elementwise.h"
#include "cpu/kernels/parallel.h"

namespace plugrt::cpu {
namespace {

using shlo::ElementType;
using shlo::OpCode;
using shlo::Operation;
using shlo::Type;

std::string DimsToString(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ",";
    s += dims[i] == shlo::kDynamicSize ? "?" : std::to_string(dims[i]);
  }
  return s + "]";
}

// Static dims that differ (dynamic ones match anything).
bool DimsConflict(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  if (a.size() != b.size()) return true;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != shlo::kDynamicSize && b[i] != shlo::kDynamicSize && a[i] != b[i]) return true;
  }
  return false;
}

Status CheckTensorType(const Operation& op, const Type& type, const std::string& what) {
  if (type.kind() == Type::Kind::kUnsupported) {
    return OpError(op, StatusCode::kUnimplemented,
                   StrCat("unsupported element type (", what, " has type ",
                          type.unsupported_text(), ")"));
  }
  if (!type.is_tensor()) {
    return OpError(op, StatusCode::kInvalidArgument, StrCat(what, " must be a tensor"));
  }
  return OkStatus();
}

// How the runtime shape of the result follows from the operands.
enum class Shape : uint8_t { kLikeMain, kBitcast, kStatic };

enum class Kind : uint8_t {
  kUnary, kBinary, kSelect, kClamp, kConvert, kBitcast, kReducePrecision, kIota
};

struct Plan {
  Kind kind = Kind::kUnary;
  std::vector<ElementType> operand_types;
  // Operands that may be rank 0 while the main operand is not.
  std::vector<bool> may_be_scalar;
  int main = 0;  // the operand whose dims the result takes
  ElementType result_type = ElementType::kF32;
  std::vector<int64_t> static_dims;  // kIota
  UnaryKernel unary = nullptr;
  BinaryKernel binary = nullptr;
  ClampKernel clamp = nullptr;
  ReducePrecisionKernel reduce_precision = nullptr;
  IotaKernel iota = nullptr;
  int exponent_bits = 0;
  int mantissa_bits = 0;
  int64_t iota_dimension = 0;
};

class ElementwiseOp final : public CompiledOp {
 public:
  ElementwiseOp(std::string where, Plan plan) : where_(std::move(where)), plan_(std::move(plan)) {}

  StatusOr<std::vector<RtValue>> Execute(const std::vector<RtValue>& operands,
                                         ExecContext& context) const override {
    const size_t arity = plan_.operand_types.size();
    if (operands.size() != arity) {
      return Error(StrCat("expected ", arity, " operands, got ", operands.size()));
    }
    SmallArray<const Tensor*, 4> in(arity);
    for (size_t i = 0; i < arity; ++i) {
      if (operands[i].kind != RtValue::Kind::kTensor) {
        return Error(StrCat("operand ", i, " is not a tensor"));
      }
      in[i] = &operands[i].tensor;
    }
    PLUGRT_RETURN_IF_ERROR(CheckOperands(in.data()));
    std::vector<int64_t> dims;
    if (plan_.kind == Kind::kIota) {
      dims = plan_.static_dims;
    } else {
      dims = in[static_cast<size_t>(plan_.main)]->dims();
      if (plan_.kind == Kind::kBitcast) {
        PLUGRT_ASSIGN_OR_RETURN(dims, BitcastDims(*in[static_cast<size_t>(plan_.main)]));
      }
    }
    // The result goes into an operand of its type and shape whose value dies
    // here (the step holds the only reference): these kernels write element
    // i from elements i only, so reading and writing the same memory is safe.
    const Tensor* reuse = nullptr;
    if (WritesElementwise()) {
      for (size_t i = 0; i < arity; ++i) {
        const Tensor& t = *in[i];
        if (t.HasUniqueStorage() && t.type() == plan_.result_type && t.dims() == dims) {
          reuse = &t;
          if (context.counters != nullptr) ++context.counters->in_place_outputs;
          break;
        }
      }
    }
    // Kernels that write every element get memory without zeroing it first.
    Tensor out = reuse != nullptr             ? *reuse
                 : WritesEveryElement()       ? Tensor::Uninitialized(plan_.result_type, std::move(dims))
                                              : Tensor(plan_.result_type, std::move(dims));
    PLUGRT_RETURN_IF_ERROR(ComputeSplit(in.data(), out, context.kernel_threads));
    std::vector<RtValue> results(1);
    results[0] = RtValue::Of(std::move(out));
    return results;
  }

  bool writes_into() const override { return WritesElementwise() || plan_.kind == Kind::kConvert; }

  Status ExecuteInto(std::span<const Tensor* const> operands, Tensor& out,
                     ExecContext& context) const override {
    if (!writes_into()) return Internal(where_, ": cannot write into a given tensor");
    if (operands.size() != plan_.operand_types.size()) {
      return Error(StrCat("expected ", plan_.operand_types.size(), " operands, got ",
                          operands.size()));
    }
    PLUGRT_RETURN_IF_ERROR(CheckOperands(operands.data()));
    const Tensor& main = *operands[static_cast<size_t>(plan_.main)];
    if (out.type() != plan_.result_type || out.dims() != main.dims()) {
      return Error(StrCat("result tensor is ", shlo::ElementTypeName(out.type()),
                          DimsToString(out.dims()), ", expected ",
                          shlo::ElementTypeName(plan_.result_type), DimsToString(main.dims())));
    }
    return ComputeSplit(operands.data(), out, context.kernel_threads);
  }

 private:
  // Kinds whose kernels write element i from elements i of same-shaped
  // operands (so the result may share an operand's memory).
  bool WritesElementwise() const {
    return plan_.kind == Kind::kUnary || plan_.kind == Kind::kBinary ||
           plan_.kind == Kind::kSelect || plan_.kind == Kind::kClamp;
  }

  // Element types, and shapes against the main operand's.
  Status CheckOperands(const Tensor* const* in) const {
    const size_t arity = plan_.operand_types.size();
    for (size_t i = 0; i < arity; ++i) {
      if (in[i]->type() != plan_.operand_types[i]) {
        return Error(StrCat("operand ", i, " has element type ",
                            shlo::ElementTypeName(in[i]->type()), ", expected ",
                            shlo::ElementTypeName(plan_.operand_types[i])));
      }
    }
    if (plan_.kind == Kind::kIota) return OkStatus();
    const Tensor& main = *in[static_cast<size_t>(plan_.main)];
    for (size_t i = 0; i < arity; ++i) {
      const Tensor& t = *in[i];
      if (t.dims() == main.dims()) continue;
      if (plan_.may_be_scalar[i] && t.rank() == 0) continue;
      return Error(StrCat("operand ", i, " has shape ", DimsToString(t.dims()), ", expected ",
                          DimsToString(main.dims())));
    }
    return OkStatus();
  }

  // Kinds whose kernels write every element of the result.
  bool WritesEveryElement() const { return WritesElementwise() || plan_.kind == Kind::kConvert; }

  // Compute, over contiguous ranges of elements on up to `kernel_threads`
  // threads when the result is large: each range is a rank-1 view of the
  // result and of every operand of its shape (rank-0 operands stay whole),
  // which these kernels treat like any other tensor.
  Status ComputeSplit(const Tensor* const* in, Tensor& out, int kernel_threads) const {
    const int64_t count = out.num_elements();
    if (count < 2 * kMinElementsPerThread || !WritesEveryElement()) return Compute(in, out);
    const int threads = ThreadsFor(count, kMinElementsPerThread, ThreadBudget(kernel_threads));
    if (threads <= 1) return Compute(in, out);
    const size_t arity = plan_.operand_types.size();
    auto range = [](const Tensor& t, int64_t begin, int64_t end) {
      const size_t bytes = static_cast<size_t>(shlo::StorageBytes(t.type()));
      return Tensor(t.type(), {end - begin}, t.storage(),
                    const_cast<std::byte*>(t.data()) + static_cast<size_t>(begin) * bytes);
    };
    std::mutex mu;
    Status first_failure;
    ParallelFor(count, threads, [&](int64_t begin, int64_t end) {
      SmallArray<Tensor, 4> parts(arity);
      SmallArray<const Tensor*, 4> views(arity);
      for (size_t i = 0; i < arity; ++i) {
        parts[i] = in[i]->rank() == 0 ? *in[i] : range(*in[i], begin, end);
        views[i] = &parts[i];
      }
      Tensor part = range(out, begin, end);
      Status status = Compute(views.data(), part);
      if (!status.ok()) {
        std::lock_guard<std::mutex> lock(mu);
        if (first_failure.ok()) first_failure = std::move(status);
      }
    });
    return first_failure;
  }

  // Below this many result elements per thread, one thread does it all (a
  // parallel region costs a few microseconds).
  static constexpr int64_t kMinElementsPerThread = int64_t{1} << 16;

  // Runs the kernel: `out` has the result's type and shape.
  Status Compute(const Tensor* const* in, Tensor& out) const {
    switch (plan_.kind) {
      case Kind::kUnary: plan_.unary(*in[0], out); break;
      case Kind::kBinary: plan_.binary(*in[0], *in[1], out); break;
      case Kind::kSelect: SelectElements(*in[0], *in[1], *in[2], out); break;
      case Kind::kClamp: plan_.clamp(*in[0], *in[1], *in[2], out); break;
      case Kind::kConvert: ConvertElements(*in[0], out); break;
      case Kind::kBitcast: {
        Status s = BitcastConvertElements(*in[0], out);
        if (!s.ok()) return Error(s.message());
        break;
      }
      case Kind::kReducePrecision:
        plan_.reduce_precision(*in[0], plan_.exponent_bits, plan_.mantissa_bits, out);
        break;
      case Kind::kIota: plan_.iota(plan_.iota_dimension, out); break;
    }
    return OkStatus();
  }


  Status Error(const std::string& message) const {
    return InvalidArgument(where_, ": ", message);
  }

  StatusOr<std::vector<int64_t>> BitcastDims(const Tensor& in) const {
    const int in_bits = shlo::BitWidth(in.type());
    const int out_bits = shlo::BitWidth(plan_.result_type);
    std::vector<int64_t> dims = in.dims();
    if (in_bits > out_bits) {
      dims.push_back(in_bits / out_bits);
    } else if (in_bits < out_bits) {
      if (dims.empty() || dims.back() * in_bits != out_bits) {
        return Error(StrCat("operand shape ", DimsToString(dims), " does not end in ",
                            out_bits / in_bits, " for a ", out_bits, "-bit result"));
      }
      dims.pop_back();
    }
    return dims;
  }

  std::string where_;
  Plan plan_;
};

std::optional<UnaryOpKind> UnaryKindOf(OpCode code) {
  switch (code) {
    case OpCode::kAbs: return UnaryOpKind::kAbs;
    case OpCode::kCbrt: return UnaryOpKind::kCbrt;
    case OpCode::kCeil: return UnaryOpKind::kCeil;
    case OpCode::kCosine: return UnaryOpKind::kCosine;
    case OpCode::kCountLeadingZeros: return UnaryOpKind::kCountLeadingZeros;
    case OpCode::kExponential: return UnaryOpKind::kExponential;
    case OpCode::kExponentialMinusOne: return UnaryOpKind::kExponentialMinusOne;
    case OpCode::kFloor: return UnaryOpKind::kFloor;
    case OpCode::kImag: return UnaryOpKind::kImag;
    case OpCode::kIsFinite: return UnaryOpKind::kIsFinite;
    case OpCode::kLog: return UnaryOpKind::kLog;
    case OpCode::kLogPlusOne: return UnaryOpKind::kLogPlusOne;
    case OpCode::kLogistic: return UnaryOpKind::kLogistic;
    case OpCode::kNegate: return UnaryOpKind::kNegate;
    case OpCode::kNot: return UnaryOpKind::kNot;
    case OpCode::kPopcnt: return UnaryOpKind::kPopcnt;
    case OpCode::kReal: return UnaryOpKind::kReal;
    case OpCode::kRoundNearestAfz: return UnaryOpKind::kRoundNearestAfz;
    case OpCode::kRoundNearestEven: return UnaryOpKind::kRoundNearestEven;
    case OpCode::kRsqrt: return UnaryOpKind::kRsqrt;
    case OpCode::kSign: return UnaryOpKind::kSign;
    case OpCode::kSine: return UnaryOpKind::kSine;
    case OpCode::kSqrt: return UnaryOpKind::kSqrt;
    case OpCode::kTan: return UnaryOpKind::kTan;
    case OpCode::kTanh: return UnaryOpKind::kTanh;
    default: return std::nullopt;
  }
}

std::optional<BinaryOpKind> BinaryKindOf(OpCode code) {
  switch (code) {
    case OpCode::kAdd: return BinaryOpKind::kAdd;
    case OpCode::kAnd: return BinaryOpKind::kAnd;
    case OpCode::kAtan2: return BinaryOpKind::kAtan2;
    case OpCode::kComplex: return BinaryOpKind::kComplex;
    case OpCode::kDivide: return BinaryOpKind::kDivide;
    case OpCode::kMaximum: return BinaryOpKind::kMaximum;
    case OpCode::kMinimum: return BinaryOpKind::kMinimum;
    case OpCode::kMultiply: return BinaryOpKind::kMultiply;
    case OpCode::kOr: return BinaryOpKind::kOr;
    case OpCode::kPower: return BinaryOpKind::kPower;
    case OpCode::kRemainder: return BinaryOpKind::kRemainder;
    case OpCode::kShiftLeft: return BinaryOpKind::kShiftLeft;
    case OpCode::kShiftRightArithmetic: return BinaryOpKind::kShiftRightArithmetic;
    case OpCode::kShiftRightLogical: return BinaryOpKind::kShiftRightLogical;
    case OpCode::kSubtract: return BinaryOpKind::kSubtract;
    case OpCode::kXor: return BinaryOpKind::kXor;
    default: return std::nullopt;
  }
}

Status TypeError(const Operation& op, ElementType type) {
  return OpError(op, StatusCode::kInvalidArgument,
                 StrCat("element type ", shlo::ElementTypeName(type), " is not allowed"));
}

StatusOr<CompareDirection> ParseDirection(const Operation& op) {
  const shlo::Attribute* attr = op.attribute("comparison_direction");
  if (attr == nullptr) {
    return OpError(op, StatusCode::kInvalidArgument, "missing comparison_direction");
  }
  StatusOr<std::string> value = shlo::AttrToEnumValue(*attr);
  if (!value.ok()) return OpError(op, StatusCode::kInvalidArgument, value.status().message());
  const std::string& v = *value;
  if (v == "EQ") return CompareDirection::kEq;
  if (v == "NE") return CompareDirection::kNe;
  if (v == "GE") return CompareDirection::kGe;
  if (v == "GT") return CompareDirection::kGt;
  if (v == "LE") return CompareDirection::kLe;
  if (v == "LT") return CompareDirection::kLt;
  return OpError(op, StatusCode::kInvalidArgument, StrCat("unknown comparison_direction ", v));
}

StatusOr<CompareType> ParseCompareType(const Operation& op) {
  const shlo::Attribute* attr = op.attribute("compare_type");
  if (attr == nullptr) return CompareType::kDefault;
  StatusOr<std::string> value = shlo::AttrToEnumValue(*attr);
  if (!value.ok()) return OpError(op, StatusCode::kInvalidArgument, value.status().message());
  const std::string& v = *value;
  if (v == "FLOAT") return CompareType::kFloat;
  if (v == "TOTALORDER") return CompareType::kTotalOrder;
  if (v == "SIGNED") return CompareType::kSigned;
  if (v == "UNSIGNED") return CompareType::kUnsigned;
  return OpError(op, StatusCode::kInvalidArgument, StrCat("unknown compare_type ", v));
}

StatusOr<int64_t> IntAttr(const Operation& op, const char* name) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return OpError(op, StatusCode::kInvalidArgument, StrCat("missing ", name));
  StatusOr<int64_t> v = shlo::AttrToInt(*attr);
  if (!v.ok()) {
    return OpError(op, StatusCode::kInvalidArgument, StrCat(name, ": ", v.status().message()));
  }
  return *v;
}

StatusOr<Plan> BuildPlan(const Operation& op) {
  const OpCode code = op.code;
  if (code == OpCode::kUniformQuantize || code == OpCode::kUniformDequantize) {
    return OpError(op, StatusCode::kUnimplemented,
                   "reaches the CPU backend only through the quantized lowering "
                   "(compiler/passes/lower_quantized.h), which replaces it");
  }
  if (op.results.size() != 1) {
    return OpError(op, StatusCode::kInvalidArgument,
                   StrCat("expected 1 result, got ", op.results.size()));
  }
  const Type& result = op.results[0]->type;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    PLUGRT_RETURN_IF_ERROR(CheckTensorType(op, op.operands[i]->type, StrCat("operand ", i)));
  }
  PLUGRT_RETURN_IF_ERROR(CheckTensorType(op, result, "the result"));

  auto expect_arity = [&](size_t n) -> Status {
    if (op.operands.size() != n) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat("expected ", n, " operands, got ", op.operands.size()));
    }
    return OkStatus();
  };
  auto operand_type = [&](size_t i) { return op.operands[i]->type.element_type(); };
  auto same_dims = [&](size_t i, const std::vector<int64_t>& dims) -> Status {
    if (DimsConflict(op.operands[i]->type.dims(), dims)) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat("operand ", i, " has shape ",
                            DimsToString(op.operands[i]->type.dims()), ", expected ",
                            DimsToString(dims)));
    }
    return OkStatus();
  };
  auto expect_result_type = [&](ElementType t) -> Status {
    if (result.element_type() != t) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat("result element type ", shlo::ElementTypeName(result.element_type()),
                            " should be ", shlo::ElementTypeName(t)));
    }
    return OkStatus();
  };

  Plan plan;
  plan.result_type = result.element_type();

  if (auto unary = UnaryKindOf(code)) {
    PLUGRT_RETURN_IF_ERROR(expect_arity(1));
    const ElementType t = operand_type(0);
    plan.kind = Kind::kUnary;
    plan.unary = GetUnaryKernel(*unary, t);
    if (plan.unary == nullptr) return TypeError(op, t);
    PLUGRT_RETURN_IF_ERROR(expect_result_type(UnaryResultType(*unary, t)));
    PLUGRT_RETURN_IF_ERROR(same_dims(0, result.dims()));
    plan.operand_types = {t};
    plan.may_be_scalar = {false};
    return plan;
  }
  if (auto binary = BinaryKindOf(code)) {
    PLUGRT_RETURN_IF_ERROR(expect_arity(2));
    const ElementType t = operand_type(0);
    if (operand_type(1) != t) {
      return OpError(op, StatusCode::kInvalidArgument, "operands have different element types");
    }
    plan.kind = Kind::kBinary;
    plan.binary = GetBinaryKernel(*binary, t);
    if (plan.binary == nullptr) return TypeError(op, t);
    PLUGRT_RETURN_IF_ERROR(expect_result_type(
        *binary == BinaryOpKind::kComplex
            ? (t == ElementType::kF32 ? ElementType::kC64 : ElementType::kC128)
            : t));
    PLUGRT_RETURN_IF_ERROR(same_dims(0, result.dims()));
    PLUGRT_RETURN_IF_ERROR(same_dims(1, result.dims()));
    plan.operand_types = {t, t};
    plan.may_be_scalar = {false, false};
    return plan;
  }
  switch (code) {
    case OpCode::kCompare: {
      PLUGRT_RETURN_IF_ERROR(expect_arity(2));
      const ElementType t = operand_type(0);
      if (operand_type(1) != t) {
        return OpError(op, StatusCode::kInvalidArgument, "operands have different element types");
      }
      PLUGRT_ASSIGN_OR_RETURN(CompareDirection direction, ParseDirection(op));
      PLUGRT_ASSIGN_OR_RETURN(CompareType compare_type, ParseCompareType(op));
      plan.kind = Kind::kBinary;
      plan.binary = GetCompareKernel(direction, compare_type, t);
      if (plan.binary == nullptr) {
        return OpError(op, StatusCode::kInvalidArgument,
                       StrCat("compare_type does not fit element type ",
                              shlo::ElementTypeName(t)));
      }
      PLUGRT_RETURN_IF_ERROR(expect_result_type(ElementType::kI1));
      PLUGRT_RETURN_IF_ERROR(same_dims(0, result.dims()));
      PLUGRT_RETURN_IF_ERROR(same_dims(1, result.dims()));
      plan.operand_types = {t, t};
      plan.may_be_scalar = {false, false};
      return plan;
    }
    case OpCode::kSelect: {
      PLUGRT_RETURN_IF_ERROR(expect_arity(3));
      if (operand_type(0) != ElementType::kI1) {
        return OpError(op, StatusCode::kInvalidArgument, "pred must have element type i1");
      }
      const ElementType t = operand_type(1);
      if (operand_type(2) != t) {
        return OpError(op, StatusCode::kInvalidArgument,
                       "on_true and on_false have different element types");
      }
      PLUGRT_RETURN_IF_ERROR(expect_result_type(t));
      if (op.operands[0]->type.rank() != 0) PLUGRT_RETURN_IF_ERROR(same_dims(0, result.dims()));
      PLUGRT_RETURN_IF_ERROR(same_dims(1, result.dims()));
      PLUGRT_RETURN_IF_ERROR(same_dims(2, result.dims()));
      plan.kind = Kind::kSelect;
      plan.operand_types = {ElementType::kI1, t, t};
      plan.may_be_scalar = {true, false, false};
      plan.main = 1;
      return plan;
    }
    case OpCode::kClamp: {
      PLUGRT_RETURN_IF_ERROR(expect_arity(3));
      const ElementType t = operand_type(1);
      if (operand_type(0) != t || operand_type(2) != t) {
        return OpError(op, StatusCode::kInvalidArgument, "operands have different element types");
      }
      plan.clamp = GetClampKernel(t);
      if (plan.clamp == nullptr) return TypeError(op, t);
      PLUGRT_RETURN_IF_ERROR(expect_result_type(t));
      if (op.operands[0]->type.rank() != 0) PLUGRT_RETURN_IF_ERROR(same_dims(0, result.dims()));
      PLUGRT_RETURN_IF_ERROR(same_dims(1, result.dims()));
      if (op.operands[2]->type.rank() != 0) PLUGRT_RETURN_IF_ERROR(same_dims(2, result.dims()));
      plan.kind = Kind::kClamp;
      plan.operand_types = {t, t, t};
      plan.may_be_scalar = {true, false, true};
      plan.main = 1;
      return plan;
    }
    case OpCode::kConvert: {
      PLUGRT_RETURN_IF_ERROR(expect_arity(1));
      PLUGRT_RETURN_IF_ERROR(same_dims(0, result.dims()));
      plan.kind = Kind::kConvert;
      plan.operand_types = {operand_type(0)};
      plan.may_be_scalar = {false};
      return plan;
    }
    case OpCode::kBitcastConvert: {
      PLUGRT_RETURN_IF_ERROR(expect_arity(1));
      const ElementType t = operand_type(0);
      const int in_bits = shlo::BitWidth(t);
      const int out_bits = shlo::BitWidth(plan.result_type);
      if (in_bits % out_bits != 0 && out_bits % in_bits != 0) {
        return OpError(op, StatusCode::kInvalidArgument,
                       StrCat("cannot bitcast ", shlo::ElementTypeName(t), " to ",
                              shlo::ElementTypeName(plan.result_type)));
      }
      std::vector<int64_t> expected = op.operands[0]->type.dims();
      if (in_bits > out_bits) {
        expected.push_back(in_bits / out_bits);
      } else if (in_bits < out_bits) {
        if (expected.empty() ||
            (expected.back() != shlo::kDynamicSize && expected.back() * in_bits != out_bits)) {
          return OpError(op, StatusCode::kInvalidArgument,
                         StrCat("operand shape must end in ", out_bits / in_bits));
        }
        expected.pop_back();
      }
      if (DimsConflict(expected, result.dims())) {
        return OpError(op, StatusCode::kInvalidArgument,
                       StrCat("result shape ", DimsToString(result.dims()), " should be ",
                              DimsToString(expected)));
      }
      plan.kind = Kind::kBitcast;
      plan.operand_types = {t};
      plan.may_be_scalar = {false};
      return plan;
    }
    case OpCode::kReducePrecision: {
      PLUGRT_RETURN_IF_ERROR(expect_arity(1));
      const ElementType t = operand_type(0);
      plan.reduce_precision = GetReducePrecisionKernel(t);
      if (plan.reduce_precision == nullptr) return TypeError(op, t);
      PLUGRT_RETURN_IF_ERROR(expect_result_type(t));
      PLUGRT_RETURN_IF_ERROR(same_dims(0, result.dims()));
      PLUGRT_ASSIGN_OR_RETURN(int64_t exponent_bits, IntAttr(op, "exponent_bits"));
      PLUGRT_ASSIGN_OR_RETURN(int64_t mantissa_bits, IntAttr(op, "mantissa_bits"));
      if (exponent_bits < 1 || mantissa_bits < 0) {
        return OpError(op, StatusCode::kInvalidArgument,
                       "exponent_bits must be >= 1 and mantissa_bits >= 0");
      }
      // Beyond f64's fields the op changes nothing.
      plan.exponent_bits = static_cast<int>(exponent_bits > 64 ? 64 : exponent_bits);
      plan.mantissa_bits = static_cast<int>(mantissa_bits > 64 ? 64 : mantissa_bits);
      plan.kind = Kind::kReducePrecision;
      plan.operand_types = {t};
      plan.may_be_scalar = {false};
      return plan;
    }
    case OpCode::kIota: {
      PLUGRT_RETURN_IF_ERROR(expect_arity(0));
      if (!result.has_static_shape()) {
        return OpError(op, StatusCode::kUnimplemented, "iota with a dynamic result shape");
      }
      PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, IntAttr(op, "iota_dimension"));
      if (dimension < 0 || dimension >= result.rank()) {
        return OpError(op, StatusCode::kInvalidArgument,
                       StrCat("iota_dimension ", dimension, " is out of range for rank ",
                              result.rank()));
      }
      plan.iota = GetIotaKernel(plan.result_type);
      if (plan.iota == nullptr) return TypeError(op, plan.result_type);
      plan.kind = Kind::kIota;
      plan.static_dims = result.dims();
      plan.iota_dimension = dimension;
      return plan;
    }
    default:
      break;
  }
  return OpError(op, StatusCode::kInternal,
                 "registered with the elementwise group, which has no kernel for it");
}

}  // namespace

namespace {

StatusOr<std::unique_ptr<CompiledOp>> CompileElementwiseOp(const shlo::Operation& op,
                                                           CompileContext& /*context*/) {
  PLUGRT_ASSIGN_OR_RETURN(Plan plan, BuildPlan(op));
  std::string where = StrCat(op.location.ToString(), ": ", op.name);
  return std::unique_ptr<CompiledOp>(std::make_unique<ElementwiseOp>(std::move(where), std::move(plan)));
}

}  // namespace

// BuildPlan has a kernel for every op of the group (or a clear UNIMPLEMENTED,
// for uniform_quantize/dequantize, which the quantized lowering replaces).
void RegisterElementwiseOps(OpRegistry& registry) {
  registry.SetGroup(shlo::OpGroup::kElementwise, &CompileElementwiseOp);
}

}  // namespace plugrt::cpu
