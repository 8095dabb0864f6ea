// plugrt CPU executor: helpers shared by the compute-op compile functions
// (compute_ops*.cc): operand and attribute
// checks, and the per-op compile functions RegisterComputeOps registers.
#ifndef PLUGRT_CPU_EXEC_COMPUTE_OPS_UTIL_H_
#define PLUGRT_CPU_EXEC_COMPUTE_OPS_UTIL_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cpu/exec/compiled_op.h"
#include "cpu/kernels/compute_common.h"
#include "cpu/kernels/convolution.h"

namespace plugrt::cpu::compute {

using Results = StatusOr<std::vector<RtValue>>;
using Operands = std::vector<RtValue>;
using CompileResult = StatusOr<std::unique_ptr<CompiledOp>>;

using cpu::LambdaOp;
using cpu::MakeOp;

inline Status Invalid(const shlo::Operation& op, const std::string& message) {
  return OpError(op, StatusCode::kInvalidArgument, message);
}

// What an Execute needs of its op for errors, so compiled ops do not keep
// pointers into the IR: "file:line:col: name" and the operand count.
struct OpTag {
  std::string where;
  size_t num_operands = 0;
};
OpTag TagOf(const shlo::Operation& op);
inline Status Invalid(const OpTag& tag, const std::string& message) {
  return InvalidArgument(tag.where, ": ", message);
}

// `status` (keeping its code) prefixed with the op's location and name.
inline Status Annotated(const OpTag& tag, const Status& status) {
  return Status(status.code(), StrCat(tag.where, ": ", status.message()));
}

inline Status Annotated(const shlo::Operation& op, const Status& status) {
  return OpError(op, status.code(), status.message());
}

// Operand/result counts, every operand and result a tensor; unsupported
// types are UNIMPLEMENTED naming the op. `count` -1: any number.
Status CheckTensors(const shlo::Operation& op, int operands, int results);

// Runtime operands as tensors (CheckTensors ran at compile time, but
// Execute still refuses non-tensors rather than misreading them).
StatusOr<std::vector<Tensor>> OperandTensors(const OpTag& op, const Operands& in);

// Wraps result tensors.
std::vector<RtValue> Wrap(std::vector<Tensor> tensors);

// Attributes with defaults for absent ones; wrong kinds are errors naming
// the attribute.
StatusOr<std::vector<int64_t>> IntListAttr(const shlo::Operation& op, std::string_view name,
                                           std::vector<int64_t> fallback);
StatusOr<int64_t> IntAttr(const shlo::Operation& op, std::string_view name, int64_t fallback);
StatusOr<bool> BoolAttr(const shlo::Operation& op, std::string_view name, bool fallback);
StatusOr<double> FloatAttr(const shlo::Operation& op, std::string_view name, double fallback);
StatusOr<std::string> EnumAttr(const shlo::Operation& op, std::string_view name,
                               std::string fallback);
// A field of a struct attribute (dimension numbers); absent: empty / 0.
StatusOr<std::vector<int64_t>> FieldList(const shlo::Operation& op, const shlo::Attribute& attr,
                                         std::string_view field);
StatusOr<int64_t> FieldInt(const shlo::Operation& op, const shlo::Attribute& attr,
                           std::string_view field);

// A region body as a ScalarBody bound to one execution's context.
ScalarBody BodyOf(std::shared_ptr<const CompiledRegion> region, ExecContext& context);

// Per-op compile functions.
CompileResult CompileReduce(const shlo::Operation& op, CompileContext& context);
CompileResult CompileReduceWindow(const shlo::Operation& op, CompileContext& context);
CompileResult CompileSelectAndScatter(const shlo::Operation& op, CompileContext& context);
CompileResult CompileSort(const shlo::Operation& op, CompileContext& context);
CompileResult CompileMap(const shlo::Operation& op, CompileContext& context);
CompileResult CompileDot(const shlo::Operation& op, CompileContext& context);
CompileResult CompileDotGeneral(const shlo::Operation& op, CompileContext& context);
// The "plugrt.quantized_dot" custom call (kernels_abi/custom_call_targets.h).
CompileResult CompileQuantizedDot(const shlo::Operation& op, std::string_view target,
                                  const ProgramOptions& options);
CompileResult CompileConvolution(const shlo::Operation& op,
                                 CompileContext& context);  // also dynamic_conv
// A convolution's (or dynamic_conv's, padding left zero) attributes.
StatusOr<ConvolutionConfig> ConvolutionConfigOf(const shlo::Operation& op);

// A static convolution whose windows are single elements of a
// single-element spatial input (a classifier written as a 1x1 convolution
// after global pooling): a matrix product of [batch, features] and
// [features, outputs], which the convolution's kernel runs as one.
bool IsMatrixProductConvolution(const shlo::Operation& op, const ConvolutionConfig& c);
CompileResult CompileFft(const shlo::Operation& op);
CompileResult CompileTriangularSolve(const shlo::Operation& op);
CompileResult CompileCholesky(const shlo::Operation& op);
CompileResult CompileBatchNorm(const shlo::Operation& op);  // all three
CompileResult CompileRng(const shlo::Operation& op);
CompileResult CompileRngBitGenerator(const shlo::Operation& op);

}  // namespace plugrt::cpu::compute

#endif  // PLUGRT_CPU_EXEC_COMPUTE_OPS_UTIL_H_
