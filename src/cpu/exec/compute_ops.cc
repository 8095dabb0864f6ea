// plugrt CPU executor: the compute-op group (reductions, windows, sort, map,
// dot, convolution, fft, linear algebra, batch norm, rng): its registration
// and the helpers its compile functions share.
#include "cpu/exec/compute_ops_util.h"
#include "cpu/exec/op_registry.h"
#include "kernels_abi/custom_call_targets.h"

namespace plugrt::cpu {
namespace compute {

Status CheckTensors(const shlo::Operation& op, int operands, int results) {
  if (operands >= 0 && op.operands.size() != static_cast<size_t>(operands)) {
    return Invalid(op, StrCat("expects ", operands, " operands, has ", op.operands.size()));
  }
  if (results >= 0 && op.results.size() != static_cast<size_t>(results)) {
    return Invalid(op, StrCat("expects ", results, " results, has ", op.results.size()));
  }
  auto check = [&](const shlo::Type& type, const char* what) -> Status {
    if (type.kind() == shlo::Type::Kind::kUnsupported) {
      return OpError(op, StatusCode::kUnimplemented,
                     StrCat(what, " type ", type.unsupported_text(),
                            " is not supported"));
    }
    if (!type.is_tensor()) {
      return Invalid(op, StrCat(what, "s must be tensors, not ", type.ToString()));
    }
    return OkStatus();
  };
  for (const shlo::Value* v : op.operands) PLUGRT_RETURN_IF_ERROR(check(v->type, "operand"));
  for (const auto& v : op.results) PLUGRT_RETURN_IF_ERROR(check(v->type, "result"));
  return OkStatus();
}

OpTag TagOf(const shlo::Operation& op) {
  return OpTag{StrCat(op.location.ToString(), ": ", op.name), op.operands.size()};
}

StatusOr<std::vector<Tensor>> OperandTensors(const OpTag& op, const Operands& in) {
  std::vector<Tensor> tensors;
  tensors.reserve(in.size());
  for (const RtValue& v : in) {
    if (v.kind != RtValue::Kind::kTensor) return Invalid(op, "operands must be tensors");
    tensors.push_back(v.tensor);
  }
  if (tensors.size() != op.num_operands) {
    return Invalid(op, StrCat("got ", tensors.size(), " operands, expected ", op.num_operands));
  }
  return tensors;
}

std::vector<RtValue> Wrap(std::vector<Tensor> tensors) {
  std::vector<RtValue> values;
  values.reserve(tensors.size());
  for (Tensor& t : tensors) values.push_back(RtValue::Of(std::move(t)));
  return values;
}

namespace {
template <typename T>
StatusOr<T> Annotate(const shlo::Operation& op, std::string_view name, StatusOr<T> value) {
  if (value.ok()) return value;
  return Invalid(op, StrCat("attribute ", name, ": ", value.status().message()));
}
}  // namespace

StatusOr<std::vector<int64_t>> IntListAttr(const shlo::Operation& op, std::string_view name,
                                           std::vector<int64_t> fallback) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return fallback;
  return Annotate(op, name, shlo::AttrToIntList(*attr));
}

StatusOr<int64_t> IntAttr(const shlo::Operation& op, std::string_view name, int64_t fallback) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return fallback;
  return Annotate(op, name, shlo::AttrToInt(*attr));
}

StatusOr<bool> BoolAttr(const shlo::Operation& op, std::string_view name, bool fallback) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return fallback;
  return Annotate(op, name, shlo::AttrToBool(*attr));
}

StatusOr<double> FloatAttr(const shlo::Operation& op, std::string_view name, double fallback) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return fallback;
  return Annotate(op, name, shlo::AttrToFloat(*attr));
}

StatusOr<std::string> EnumAttr(const shlo::Operation& op, std::string_view name,
                               std::string fallback) {
  const shlo::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return fallback;
  return Annotate(op, name, shlo::AttrToEnumValue(*attr));
}

StatusOr<std::vector<int64_t>> FieldList(const shlo::Operation& op, const shlo::Attribute& attr,
                                         std::string_view field) {
  const shlo::Attribute* f = attr.field(field);
  if (f == nullptr) return std::vector<int64_t>{};
  return Annotate(op, field, shlo::AttrToIntList(*f));
}

StatusOr<int64_t> FieldInt(const shlo::Operation& op, const shlo::Attribute& attr,
                           std::string_view field) {
  const shlo::Attribute* f = attr.field(field);
  if (f == nullptr) return int64_t{0};
  return Annotate(op, field, shlo::AttrToInt(*f));
}

ScalarBody BodyOf(std::shared_ptr<const CompiledRegion> region, ExecContext& context) {
  return [region = std::move(region), &context](const std::vector<Tensor>& args) {
    return region->RunTensors(args, context);
  };
}

}  // namespace compute

namespace {

// The compile functions that need no CompileContext, in the table's shape.
template <compute::CompileResult (*Compile)(const shlo::Operation&)>
compute::CompileResult WithoutContext(const shlo::Operation& op, CompileContext&) {
  return Compile(op);
}

compute::CompileResult CompileEinsum(const shlo::Operation& op, CompileContext&) {
  return OpError(op, StatusCode::kUnimplemented,
                 "einsum is deprecated and not implemented; express it with dot_general");
}

}  // namespace

void RegisterComputeOps(OpRegistry& registry) {
  using shlo::OpCode;
  using namespace compute;  // NOLINT: the per-op compile functions
  registry.Set(OpCode::kReduce, &CompileReduce);
  registry.Set(OpCode::kReduceWindow, &CompileReduceWindow);
  registry.Set(OpCode::kSelectAndScatter, &CompileSelectAndScatter);
  registry.Set(OpCode::kSort, &CompileSort);
  registry.Set(OpCode::kMap, &CompileMap);
  registry.Set(OpCode::kDot, &CompileDot);
  registry.Set(OpCode::kDotGeneral, &CompileDotGeneral);
  registry.SetCustomCall(kernels_abi::kQuantizedDotTarget, &CompileQuantizedDot);
  registry.Set(OpCode::kConvolution, &CompileConvolution);
  registry.Set(OpCode::kDynamicConv, &CompileConvolution);
  registry.Set(OpCode::kFft, &WithoutContext<&CompileFft>);
  registry.Set(OpCode::kTriangularSolve, &WithoutContext<&CompileTriangularSolve>);
  registry.Set(OpCode::kCholesky, &WithoutContext<&CompileCholesky>);
  registry.Set(OpCode::kBatchNormInference, &WithoutContext<&CompileBatchNorm>);
  registry.Set(OpCode::kBatchNormTraining, &WithoutContext<&CompileBatchNorm>);
  registry.Set(OpCode::kBatchNormGrad, &WithoutContext<&CompileBatchNorm>);
  registry.Set(OpCode::kRng, &WithoutContext<&CompileRng>);
  registry.Set(OpCode::kRngBitGenerator, &WithoutContext<&CompileRngBitGenerator>);
  registry.Set(OpCode::kEinsum, &CompileEinsum);
  registry.Set(OpCode::kUnaryEinsum, &CompileEinsum);
}

}  // namespace plugrt::cpu
