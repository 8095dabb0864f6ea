// plugrt CPU executor: the conformance checks. Programs of the StableHLO
// corpus check their own results, either through custom calls
// (`stablehlo.custom_call @check.expect_eq(%actual, %expected)`) or through
// ops of the check dialect (`check.expect_eq_const %x, dense<...>`). A failed
// check fails the execution with an ABORTED error naming the first mismatch.
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <sstream>

#include "cpu/exec/program_compiler.h"
#include "cpu/exec/literal.h"
#include "kernels_abi/custom_call_targets.h"
#include "stablehlo/check_targets.h"
#include "stablehlo/float_format.h"

namespace plugrt::cpu {
namespace {

using shlo::ElementType;
using shlo::OpCode;
using Results = StatusOr<std::vector<RtValue>>;

enum class Comparison { kExact, kUlp, kAbsolute };

struct CheckSpec {
  std::string name;  // for messages
  Comparison comparison = Comparison::kExact;
  int64_t max_ulp = 3;
  double tolerance = 1e-3;
  // Set for the *_const forms: the expected value.
  std::optional<Tensor> constant;
  // check.eq: floats within `tolerance`, other types exactly.
  bool exact_unless_float = false;
  // The op has a tensor<i1> result (true: the check held).
  bool returns_flag = false;
};

uint64_t ElementBits(const Tensor& t, int64_t i) {
  uint64_t bits = 0;
  const int bytes = shlo::StorageBytes(t.type());
  std::memcpy(&bits, t.data() + i * bytes, std::min(bytes, 8));
  return bits;
}

// The real components of element `i`: one for real types, two for complex.
void Components(const Tensor& t, int64_t i, double out[2], int* count) {
  switch (t.type()) {
    case ElementType::kC64: {
      auto v = t.as<std::complex<float>>()[i];
      out[0] = v.real(), out[1] = v.imag(), *count = 2;
      return;
    }
    case ElementType::kC128: {
      auto v = t.as<std::complex<double>>()[i];
      out[0] = v.real(), out[1] = v.imag(), *count = 2;
      return;
    }
    default:
      out[0] = shlo::DecodeFloat(t.type(), ElementBits(t, i));
      *count = 1;
  }
}

// Bit patterns of one float format, mapped to integers ordered like values.
int64_t OrderedBits(ElementType type, double value) {
  uint64_t bits = shlo::EncodeFloat(type, value);
  const int width = shlo::BitWidth(type);
  if (type == ElementType::kF8E8M0FNU) return static_cast<int64_t>(bits);
  const uint64_t sign = (bits >> (width - 1)) & 1;
  const int64_t magnitude = static_cast<int64_t>(bits & ((uint64_t{1} << (width - 1)) - 1));
  return sign ? -magnitude : magnitude;
}

bool ComponentMatches(const CheckSpec& spec, ElementType component_type, double actual,
                      double expected) {
  if (std::isnan(actual) || std::isnan(expected)) return std::isnan(actual) && std::isnan(expected);
  if (actual == expected) return true;
  switch (spec.comparison) {
    case Comparison::kExact:
      return false;
    case Comparison::kUlp:
      if (!std::isfinite(actual) || !std::isfinite(expected)) return false;
      return std::llabs(OrderedBits(component_type, actual) -
                        OrderedBits(component_type, expected)) <= spec.max_ulp;
    case Comparison::kAbsolute:
      return std::fabs(actual - expected) <= spec.tolerance;
  }
  return false;
}

std::string IndexString(const std::vector<int64_t>& dims, int64_t linear) {
  std::vector<int64_t> index(dims.size());
  for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
    if (dims[d] > 0) {
      index[d] = linear % dims[d];
      linear /= dims[d];
    }
  }
  std::ostringstream out;
  out << '[';
  for (size_t d = 0; d < index.size(); ++d) out << (d ? ", " : "") << index[d];
  out << ']';
  return out.str();
}

std::string ElementString(const Tensor& t, int64_t i) {
  std::ostringstream out;
  out.precision(17);
  if (shlo::IsFloat(t.type()) || shlo::IsComplex(t.type())) {
    double c[2];
    int count;
    Components(t, i, c, &count);
    if (count == 2) {
      out << '(' << c[0] << ", " << c[1] << ')';
    } else {
      out << c[0];
    }
  } else {
    uint64_t bits = ElementBits(t, i);
    const int bytes = shlo::StorageBytes(t.type());
    if (shlo::IsSignedInteger(t.type()) && bytes < 8 && (bits >> (bytes * 8 - 1)) & 1) {
      bits |= ~uint64_t{0} << (bytes * 8);  // sign-extend
      out << static_cast<int64_t>(bits);
    } else {
      out << bits;
    }
  }
  return out.str();
}

Status Compare(const CheckSpec& spec, const Tensor& actual, const Tensor& expected) {
  if (actual.type() != expected.type() || actual.dims() != expected.dims()) {
    return MakeError(StatusCode::kAborted, spec.name, " failed: result is ",
                     TensorTypeString(actual), ", expected ", TensorTypeString(expected));
  }
  const ElementType type = actual.type();
  const bool is_float = shlo::IsFloat(type) || shlo::IsComplex(type);
  if (spec.exact_unless_float && !is_float) {
    CheckSpec exact = spec;
    exact.exact_unless_float = false;
    exact.comparison = Comparison::kExact;
    return Compare(exact, actual, expected);
  }
  const ElementType component = shlo::IsComplex(type) ? shlo::ComplexComponent(type) : type;
  for (int64_t i = 0; i < actual.num_elements(); ++i) {
    bool match;
    if (!is_float) {
      match = ElementBits(actual, i) == ElementBits(expected, i);
    } else {
      double a[2], e[2];
      int count, unused;
      Components(actual, i, a, &count);
      Components(expected, i, e, &unused);
      match = true;
      for (int c = 0; c < count; ++c) {
        if (spec.comparison == Comparison::kExact && !std::isnan(a[c])) {
          // Bit-for-bit, except that any NaN equals any NaN.
          match = match && (shlo::IsComplex(type) ? std::memcmp(&a[c], &e[c], sizeof(double)) == 0
                                                  : ElementBits(actual, i) == ElementBits(expected, i));
        } else {
          match = match && ComponentMatches(spec, component, a[c], e[c]);
        }
      }
    }
    if (!match) {
      return MakeError(StatusCode::kAborted, spec.name, " failed at index ",
                       IndexString(actual.dims(), i), ": got ", ElementString(actual, i),
                       ", expected ", ElementString(expected, i));
    }
  }
  return OkStatus();
}

class CheckOp final : public CompiledOp {
 public:
  explicit CheckOp(CheckSpec spec) : spec_(std::move(spec)) {}
  Results Execute(const std::vector<RtValue>& operands, ExecContext&) const override {
    const size_t wanted = spec_.constant ? 1 : 2;
    if (operands.size() != wanted) {
      return InvalidArgument(spec_.name, " takes ", wanted, " operands, got ", operands.size());
    }
    for (const RtValue& operand : operands) {
      if (operand.kind != RtValue::Kind::kTensor) {
        return InvalidArgument(spec_.name, " compares tensors only");
      }
    }
    const Tensor& expected = spec_.constant ? *spec_.constant : operands[1].tensor;
    PLUGRT_RETURN_IF_ERROR(Compare(spec_, operands[0].tensor, expected));
    if (!spec_.returns_flag) return std::vector<RtValue>{};
    Tensor flag(ElementType::kI1, {});
    flag.MutableData()[0] = std::byte{1};
    return std::vector<RtValue>{RtValue::Of(std::move(flag))};
  }

 private:
  CheckSpec spec_;
};

// interpreter.probe records its operand (a deep copy, as a serialized file
// would hold it) and passes it through; check.expect_serialized_eq compares
// a value with the recording of the same probe id, bit for bit.
class ProbeOp final : public CompiledOp {
 public:
  explicit ProbeOp(std::string id) : id_(std::move(id)) {}
  Results Execute(const std::vector<RtValue>& operands, ExecContext& context) const override {
    if (operands.size() != 1 || operands[0].kind != RtValue::Kind::kTensor) {
      return InvalidArgument("interpreter.probe takes one tensor");
    }
    if (context.probes == nullptr) return FailedPrecondition("no probe store in this run");
    (*context.probes)[id_].push_back(operands[0].tensor.Clone());
    return operands;
  }

 private:
  std::string id_;
};

class SerializedEqOp final : public CompiledOp {
 public:
  SerializedEqOp(std::string id, int64_t iteration) : id_(std::move(id)), iteration_(iteration) {}
  Results Execute(const std::vector<RtValue>& operands, ExecContext& context) const override {
    if (operands.size() != 1 || operands[0].kind != RtValue::Kind::kTensor) {
      return InvalidArgument("check.expect_serialized_eq takes one tensor");
    }
    if (context.probes == nullptr) return FailedPrecondition("no probe store in this run");
    auto it = context.probes->find(id_);
    if (it == context.probes->end() || iteration_ >= static_cast<int64_t>(it->second.size())) {
      return MakeError(StatusCode::kAborted, "check.expect_serialized_eq failed: probe '", id_,
                       "' recorded no value for iteration ", iteration_);
    }
    CheckSpec spec;
    spec.name = "check.expect_serialized_eq";
    PLUGRT_RETURN_IF_ERROR(Compare(spec, operands[0].tensor, it->second[iteration_]));
    return std::vector<RtValue>{};
  }

 private:
  std::string id_;
  int64_t iteration_;
};

StatusOr<std::string> ProbeId(const shlo::Operation& op) {
  const shlo::Attribute* id = op.attribute("probe_id");
  if (id == nullptr || id->kind != shlo::Attribute::Kind::kString) {
    return OpError(op, StatusCode::kInvalidArgument, "needs a string attribute 'probe_id'");
  }
  return id->str;
}

StatusOr<double> OptionalFloat(const shlo::Operation& op, std::string_view name, double fallback) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return fallback;
  return shlo::AttrToFloat(*attr);
}

// check.expect_eq / expect_close / expect_almost_eq written as custom calls
// (the targets of kernels_abi/custom_call_targets.h).
StatusOr<std::unique_ptr<CompiledOp>> CompileCheckCustomCall(const shlo::Operation& op,
                                                             std::string_view target,
                                                             const ProgramOptions& /*options*/) {
  CheckSpec spec;
  spec.name = std::string(target);
  if (target == shlo::kCheckExpectEqTarget) {
    spec.comparison = Comparison::kExact;
  } else if (target == shlo::kCheckExpectCloseTarget) {
    spec.comparison = Comparison::kUlp;
    spec.max_ulp = 3;
  } else if (target == shlo::kCheckExpectAlmostEqTarget) {
    spec.comparison = Comparison::kAbsolute;
    spec.tolerance = 1e-3;
  } else if (target == shlo::kCheckEqTarget) {
    spec.comparison = Comparison::kAbsolute;
    spec.tolerance = 1e-4;
    spec.exact_unless_float = true;
  } else {
    return OpError(op, StatusCode::kInternal,
                   StrCat("custom call target '", target, "' is registered as a check but is "
                                                          "none"));
  }
  if (op.operands.size() != 2) {
    return OpError(op, StatusCode::kInvalidArgument, "a check takes (actual, expected)");
  }
  if (op.results.size() > 1 ||
      (op.results.size() == 1 && op.results[0]->type != shlo::Type::Scalar(ElementType::kI1))) {
    return OpError(op, StatusCode::kInvalidArgument,
                   "a check returns nothing or a tensor<i1>");
  }
  spec.returns_flag = op.results.size() == 1;
  return std::unique_ptr<CompiledOp>(new CheckOp(std::move(spec)));
}

StatusOr<std::unique_ptr<CompiledOp>> CompileProbe(const shlo::Operation& op, CompileContext&) {
  PLUGRT_ASSIGN_OR_RETURN(std::string id, ProbeId(op));
  return std::unique_ptr<CompiledOp>(new ProbeOp(std::move(id)));
}

// The check dialect's ops.
StatusOr<std::unique_ptr<CompiledOp>> CompileCheckOp(const shlo::Operation& op,
                                                     CompileContext&) {
  CheckSpec spec;
  spec.name = op.name;
  switch (op.code) {
    case OpCode::kCheckExpectEq:
    case OpCode::kCheckExpectEqConst:
      spec.comparison = Comparison::kExact;
      break;
    case OpCode::kCheckExpectAlmostEq:
    case OpCode::kCheckExpectAlmostEqConst: {
      spec.comparison = Comparison::kAbsolute;
      PLUGRT_ASSIGN_OR_RETURN(spec.tolerance, OptionalFloat(op, "tolerance", 1e-4));
      break;
    }
    case OpCode::kCheckExpectClose: {
      spec.comparison = Comparison::kUlp;
      PLUGRT_ASSIGN_OR_RETURN(double max_ulp, OptionalFloat(op, "max_ulp_difference", 3));
      spec.max_ulp = static_cast<int64_t>(max_ulp);
      break;
    }
    case OpCode::kCheckExpectSerializedEq: {
      PLUGRT_ASSIGN_OR_RETURN(std::string id, ProbeId(op));
      int64_t iteration = 0;
      if (const shlo::Attribute* iter = op.attribute("iter")) {
        PLUGRT_ASSIGN_OR_RETURN(iteration, shlo::AttrToInt(*iter));
      }
      if (iteration < 0) return OpError(op, StatusCode::kInvalidArgument, "iter must be >= 0");
      return std::unique_ptr<CompiledOp>(new SerializedEqOp(std::move(id), iteration));
    }
    default:
      return OpError(op, StatusCode::kInternal,
                     "registered with the check group, which has no case for it");
  }
  if (op.code == OpCode::kCheckExpectEqConst || op.code == OpCode::kCheckExpectAlmostEqConst) {
    const shlo::Attribute* value = op.attribute("value");
    if (value == nullptr) return OpError(op, StatusCode::kInvalidArgument, "needs 'value'");
    StatusOr<Tensor> constant = TensorFromAttribute(*value);
    if (!constant.ok()) return OpError(op, constant.status().code(), constant.status().message());
    spec.constant = std::move(*constant);
  }
  return std::unique_ptr<CompiledOp>(new CheckOp(std::move(spec)));
}

}  // namespace

void RegisterCheckOps(OpRegistry& registry) {
  for (OpCode code : {OpCode::kCheckExpectEq, OpCode::kCheckExpectEqConst,
                      OpCode::kCheckExpectAlmostEq, OpCode::kCheckExpectAlmostEqConst,
                      OpCode::kCheckExpectClose, OpCode::kCheckExpectSerializedEq}) {
    registry.Set(code, &CompileCheckOp);
  }
  registry.Set(OpCode::kInterpreterProbe, &CompileProbe);
  for (std::string_view target : shlo::kCheckTargets) {
    registry.SetCustomCall(target, &CompileCheckCustomCall);
  }
}

}  // namespace plugrt::cpu
