// plugrt CPU executor: dot, dot_general, the plugrt.quantized_dot custom
// call, convolution, dynamic_conv, fft,
// triangular_solve, cholesky and the batch norm ops. Attributes are decoded
// and checked here once; Execute checks the operand shapes it relies on and
// calls the kernels.
#include "cpu/exec/compute_ops_util.h"
#include "cpu/kernels/batch_norm.h"
#include "cpu/kernels/convolution.h"
#include "cpu/kernels/dot.h"
#include "cpu/kernels/fast_convolution.h"
#include "cpu/kernels/fast_dot.h"
#include "cpu/kernels/fft.h"
#include "cpu/kernels/linalg.h"
#include "cpu/kernels/quantized_dot.h"
#include "kernels_abi/custom_call_targets.h"

namespace plugrt::cpu::compute {
namespace {

using shlo::OpCode;

// Compile-time check of a statically known result shape.
Status CheckResultDims(const shlo::Operation& op, const std::vector<int64_t>& dims, size_t i = 0) {
  const shlo::Type& type = op.result(i)->type;
  if (type.has_static_shape() && type.dims() != dims) {
    return Invalid(op, StrCat("result type ", type.ToString(), " does not match the computed shape"));
  }
  return OkStatus();
}

bool AllStatic(const shlo::Operation& op) {
  for (const shlo::Value* v : op.operands) {
    if (!v->type.has_static_shape()) return false;
  }
  return true;
}

Status CheckNotQuantizedOrBool(const shlo::Operation& op) {
  for (const shlo::Value* v : op.operands) {
    if (v->type.element_type() == ElementType::kI1 && op.code == OpCode::kFft) {
      return Invalid(op, "fft does not take booleans");
    }
  }
  return OkStatus();
}

// True when the tensors have the static dims the fast kernel was planned for.
bool HasDims(const std::vector<Tensor>& t, const std::vector<int64_t>& lhs,
             const std::vector<int64_t>& rhs) {
  return t[0].dims() == lhs && t[1].dims() == rhs;
}

StatusOr<DotDimensions> DotDimensionsOf(const shlo::Operation& op) {
  const shlo::Attribute* attr = op.attribute("dot_dimension_numbers");
  if (attr == nullptr) return Invalid(op, "missing dot_dimension_numbers");
  DotDimensions dd;
  PLUGRT_ASSIGN_OR_RETURN(dd.lhs_batching, FieldList(op, *attr, "lhs_batching_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(dd.rhs_batching, FieldList(op, *attr, "rhs_batching_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(dd.lhs_contracting, FieldList(op, *attr, "lhs_contracting_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(dd.rhs_contracting, FieldList(op, *attr, "rhs_contracting_dimensions"));
  return dd;
}

CompileResult MakeDotOp(const shlo::Operation& op, DotDimensions dd, const ProgramOptions& options) {
  const ElementType result_type = op.result(0)->type.element_type();
  // f32/bf16 products of static shape run on oneDNN; the reference kernel
  // takes every other type and shape.
  std::shared_ptr<const FastDot> fast;
  std::vector<int64_t> lhs_dims, rhs_dims;
  if (AllStatic(op)) {
    lhs_dims = op.operands[0]->type.dims();
    rhs_dims = op.operands[1]->type.dims();
    auto dims = DotResultDims(lhs_dims, rhs_dims, dd);
    if (!dims.ok()) return Annotated(op, dims.status());
    PLUGRT_RETURN_IF_ERROR(CheckResultDims(op, *dims));
  }
  if (AllStatic(op) && options.fast_paths) {
    fast = FastDot::Plan(lhs_dims, op.operands[0]->type.element_type(), rhs_dims,
                         op.operands[1]->type.element_type(), dd, result_type,
                         options.kernel_threads);
  }
  return MakeOp([op = TagOf(op), dd, result_type, fast, lhs_dims, rhs_dims](
                    const Operands& in, ExecContext& context) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    if (fast != nullptr && HasDims(t, lhs_dims, rhs_dims)) {
      StatusOr<Tensor> result = fast->Run(t[0], t[1], context.kernel_threads);
      if (result.ok()) {
        if (context.counters != nullptr) ++context.counters->onednn_calls;
        return Wrap({std::move(result).value()});
      }
    }
    auto dims = DotResultDims(t[0].dims(), t[1].dims(), dd);
    if (!dims.ok()) return Annotated(op, dims.status());
    return Wrap({DotGeneral(t[0], t[1], dd, result_type)});
  });
}

}  // namespace

CompileResult CompileDot(const shlo::Operation& op, CompileContext& context) {
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, 2, 1));
  const int64_t lr = op.operands[0]->type.rank(), rr = op.operands[1]->type.rank();
  if (lr < 1 || lr > 2 || rr < 1 || rr > 2) return Invalid(op, "operands must have rank 1 or 2");
  DotDimensions dd;
  dd.lhs_contracting = {lr - 1};
  dd.rhs_contracting = {0};
  return MakeDotOp(op, dd, context.options());
}

CompileResult CompileDotGeneral(const shlo::Operation& op, CompileContext& context) {
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, 2, 1));
  PLUGRT_ASSIGN_OR_RETURN(DotDimensions dd, DotDimensionsOf(op));
  return MakeDotOp(op, dd, context.options());
}

CompileResult CompileQuantizedDot(const shlo::Operation& op, std::string_view target,
                                  const ProgramOptions& options) {
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, 2, 1));
  if (!AllStatic(op) || !op.result(0)->type.has_static_shape()) {
    return OpError(op, StatusCode::kUnimplemented,
                   StrCat(target, " needs static shapes"));
  }
  PLUGRT_ASSIGN_OR_RETURN(DotDimensions dd, DotDimensionsOf(op));
  namespace abi = kernels_abi;
  QuantizedDotParams params;
  PLUGRT_ASSIGN_OR_RETURN(params.lhs_zero_point, IntAttr(op, abi::kQuantizedDotLhsZeroPoint, 0));
  PLUGRT_ASSIGN_OR_RETURN(params.zero_points, IntListAttr(op, abi::kQuantizedDotZeroPoints, {}));
  PLUGRT_ASSIGN_OR_RETURN(params.scale_dimension,
                          IntAttr(op, abi::kQuantizedDotScaleDimension, -1));
  const shlo::Type& result = op.result(0)->type;
  params.storage = result.element_type();
  PLUGRT_ASSIGN_OR_RETURN(params.storage_min,
                          IntAttr(op, abi::kQuantizedDotStorageMin,
                                  shlo::StorageTypeMin(params.storage)));
  PLUGRT_ASSIGN_OR_RETURN(params.storage_max,
                          IntAttr(op, abi::kQuantizedDotStorageMax,
                                  shlo::StorageTypeMax(params.storage)));
  if (params.storage_min < shlo::StorageTypeMin(params.storage) ||
      params.storage_max > shlo::StorageTypeMax(params.storage)) {
    return Invalid(op, StrCat("storage range [", params.storage_min, ", ", params.storage_max,
                              "] does not fit ", shlo::ElementTypeName(params.storage)));
  }
  params.full_range = params.storage_min == shlo::StorageTypeMin(params.storage) &&
                      params.storage_max == shlo::StorageTypeMax(params.storage);
  const shlo::Attribute* scales = op.attribute(abi::kQuantizedDotScales);
  if (scales == nullptr || scales->kind != shlo::Attribute::Kind::kArray) {
    return Invalid(op, StrCat(target, " needs '", abi::kQuantizedDotScales,
                              "', an array of floats"));
  }
  for (const shlo::Attribute& s : scales->elements) {
    if (s.kind != shlo::Attribute::Kind::kFloat) {
      return Invalid(op, StrCat("'", abi::kQuantizedDotScales, "' holds a non-float"));
    }
    params.scales.push_back(static_cast<float>(s.float_value));
  }
  const std::vector<int64_t> lhs_dims = op.operands[0]->type.dims();
  const std::vector<int64_t> rhs_dims = op.operands[1]->type.dims();
  StatusOr<std::shared_ptr<const QuantizedDot>> plan = QuantizedDot::Plan(
      lhs_dims, op.operands[0]->type.element_type(), rhs_dims,
      op.operands[1]->type.element_type(), dd, std::move(params), options.fast_paths,
      options.kernel_threads);
  if (!plan.ok()) return Annotated(op, plan.status());
  PLUGRT_RETURN_IF_ERROR(CheckResultDims(op, (*plan)->result_dims()));
  return MakeOp([op = TagOf(op), plan = *std::move(plan), lhs_dims, rhs_dims](
                    const Operands& in, ExecContext& context) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    if (!HasDims(t, lhs_dims, rhs_dims)) {
      return Invalid(op, "operands do not have the shapes the op was compiled for");
    }
    StatusOr<Tensor> result = plan->Run(t[0], t[1], context.kernel_threads);
    if (!result.ok()) return Annotated(op, result.status());
    if (plan->fused() && context.counters != nullptr) ++context.counters->onednn_calls;
    return Wrap({std::move(result).value()});
  });
}

StatusOr<ConvolutionConfig> ConvolutionConfigOf(const shlo::Operation& op) {
  const bool dynamic = op.code == OpCode::kDynamicConv;
  const shlo::Attribute* dn = op.attribute("dimension_numbers");
  if (dn == nullptr) return Invalid(op, "missing dimension_numbers");
  ConvolutionConfig c;
  PLUGRT_ASSIGN_OR_RETURN(c.input_batch_dimension, FieldInt(op, *dn, "input_batch_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(c.input_feature_dimension, FieldInt(op, *dn, "input_feature_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(c.input_spatial_dimensions,
                          FieldList(op, *dn, "input_spatial_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(c.kernel_input_feature_dimension,
                          FieldInt(op, *dn, "kernel_input_feature_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(c.kernel_output_feature_dimension,
                          FieldInt(op, *dn, "kernel_output_feature_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(c.kernel_spatial_dimensions,
                          FieldList(op, *dn, "kernel_spatial_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(c.output_batch_dimension, FieldInt(op, *dn, "output_batch_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(c.output_feature_dimension,
                          FieldInt(op, *dn, "output_feature_dimension"));
  PLUGRT_ASSIGN_OR_RETURN(c.output_spatial_dimensions,
                          FieldList(op, *dn, "output_spatial_dimensions"));
  const size_t ns = c.input_spatial_dimensions.size();
  std::vector<int64_t> ones(ns, 1), zeros(2 * ns, 0);
  PLUGRT_ASSIGN_OR_RETURN(c.window_strides, IntListAttr(op, "window_strides", ones));
  PLUGRT_ASSIGN_OR_RETURN(c.lhs_dilation, IntListAttr(op, "lhs_dilation", ones));
  PLUGRT_ASSIGN_OR_RETURN(c.rhs_dilation, IntListAttr(op, "rhs_dilation", ones));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> reversal,
                          IntListAttr(op, "window_reversal", std::vector<int64_t>(ns, 0)));
  for (int64_t r : reversal) c.window_reversal.push_back(r != 0);
  PLUGRT_ASSIGN_OR_RETURN(c.feature_group_count, IntAttr(op, "feature_group_count", 1));
  PLUGRT_ASSIGN_OR_RETURN(c.batch_group_count, IntAttr(op, "batch_group_count", 1));
  std::vector<int64_t> padding = zeros;
  if (!dynamic) {
    PLUGRT_ASSIGN_OR_RETURN(padding, IntListAttr(op, "padding", zeros));
  }
  if (padding.size() != 2 * ns) {
    return Invalid(op, StrCat("padding must have ", ns, "x2 entries, has ", padding.size()));
  }
  for (size_t i = 0; i < ns; ++i) {
    c.padding_low.push_back(padding[2 * i]);
    c.padding_high.push_back(padding[2 * i + 1]);
  }
  return c;
}

bool IsMatrixProductConvolution(const shlo::Operation& op, const ConvolutionConfig& c) {
  if (op.operands.size() != 2 || !op.operands[0]->type.has_static_shape() ||
      !op.operands[1]->type.has_static_shape() || c.feature_group_count != 1 ||
      c.batch_group_count != 1) {
    return false;
  }
  const std::vector<int64_t>& in = op.operands[0]->type.dims();
  const std::vector<int64_t>& kernel = op.operands[1]->type.dims();
  for (size_t s = 0; s < c.input_spatial_dimensions.size(); ++s) {
    if (in[static_cast<size_t>(c.input_spatial_dimensions[s])] != 1 ||
        kernel[static_cast<size_t>(c.kernel_spatial_dimensions[s])] != 1 ||
        c.padding_low[s] != 0 || c.padding_high[s] != 0 || c.lhs_dilation[s] != 1 ||
        c.rhs_dilation[s] != 1 || c.window_reversal[s]) {
      return false;
    }
  }
  return true;
}

namespace {

// IsMatrixProductConvolution's product on FastDot's kernels (oneDNN's 1x1
// convolution ran Keras's MobileNet classifier at a third of their speed at
// batch 16), or null. The product's free dims are the input's batch dim
// and size-1 dims, then the kernel's output features and size-1 dims: its
// [batch, outputs] is the result's memory where the result's batch dim
// comes before its feature dim.
std::shared_ptr<const FastDot> PlanConvolutionAsDot(const shlo::Operation& op,
                                                    const ConvolutionConfig& c,
                                                    int kernel_threads) {
  if (!IsMatrixProductConvolution(op, c) ||
      c.output_batch_dimension > c.output_feature_dimension) {
    return nullptr;
  }
  DotDimensions dims;
  dims.lhs_contracting = {c.input_feature_dimension};
  dims.rhs_contracting = {c.kernel_input_feature_dimension};
  return FastDot::Plan(op.operands[0]->type.dims(), op.operands[0]->type.element_type(),
                       op.operands[1]->type.dims(), op.operands[1]->type.element_type(), dims,
                       op.result(0)->type.element_type(), kernel_threads);
}

}  // namespace

CompileResult CompileConvolution(const shlo::Operation& op, CompileContext& context) {
  const bool dynamic = op.code == OpCode::kDynamicConv;
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, dynamic ? 3 : 2, 1));
  PLUGRT_ASSIGN_OR_RETURN(const ConvolutionConfig c, ConvolutionConfigOf(op));
  const size_t ns = c.input_spatial_dimensions.size();
  if (!dynamic && op.operands[0]->type.has_static_shape() &&
      op.operands[1]->type.has_static_shape()) {
    auto dims = ConvolutionResultDims(op.operands[0]->type.dims(), op.operands[1]->type.dims(), c);
    if (!dims.ok()) return Annotated(op, dims.status());
    PLUGRT_RETURN_IF_ERROR(CheckResultDims(op, *dims));
  }
  const ElementType result_type = op.result(0)->type.element_type();
  std::shared_ptr<const FastConvolution> fast;
  std::shared_ptr<const FastDot> as_dot;
  std::vector<int64_t> lhs_dims, rhs_dims, result_dims;
  if (!dynamic && AllStatic(op) && context.options().fast_paths) {
    lhs_dims = op.operands[0]->type.dims();
    rhs_dims = op.operands[1]->type.dims();
    result_dims = op.result(0)->type.dims();
    as_dot = PlanConvolutionAsDot(op, c, context.options().kernel_threads);
    if (as_dot == nullptr) {
      fast = FastConvolution::Plan(lhs_dims, op.operands[0]->type.element_type(), rhs_dims,
                                   op.operands[1]->type.element_type(), c, result_type,
                                   context.options().kernel_threads);
    }
  }
  return MakeOp([op = TagOf(op), c, result_type, dynamic, ns, fast, as_dot, lhs_dims, rhs_dims,
                 result_dims](const Operands& in, ExecContext& context) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    if (as_dot != nullptr && HasDims(t, lhs_dims, rhs_dims)) {
      StatusOr<Tensor> result = as_dot->Run(t[0], t[1], context.kernel_threads);
      if (result.ok()) {
        if (context.counters != nullptr) ++context.counters->onednn_calls;
        return Wrap({result->Reshaped(result_dims)});
      }
    }
    if (fast != nullptr && HasDims(t, lhs_dims, rhs_dims)) {
      StatusOr<Tensor> result = fast->Run(t[0], t[1], context.kernel_threads);
      if (result.ok()) {
        if (context.counters != nullptr) ++context.counters->onednn_calls;
        return Wrap({std::move(result).value()});
      }
    }
    ConvolutionConfig config = c;
    if (dynamic) {
      const Tensor& pad = t[2];
      if (pad.rank() != 2 || pad.dims()[0] != static_cast<int64_t>(ns) || pad.dims()[1] != 2 ||
          !(shlo::IsInteger(pad.type()))) {
        return Invalid(op, StrCat("padding operand must be an integer tensor of shape ", ns, "x2"));
      }
      std::vector<int64_t> p = ToDomain<int64_t>(pad);
      for (size_t i = 0; i < ns; ++i) {
        config.padding_low[i] = p[2 * i];
        config.padding_high[i] = p[2 * i + 1];
      }
    }
    auto dims = ConvolutionResultDims(t[0].dims(), t[1].dims(), config);
    if (!dims.ok()) return Annotated(op, dims.status());
    return Wrap({Convolution(t[0], t[1], config, result_type)});
  });
}

CompileResult CompileFft(const shlo::Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, 1, 1));
  PLUGRT_RETURN_IF_ERROR(CheckNotQuantizedOrBool(op));
  PLUGRT_ASSIGN_OR_RETURN(std::string name, EnumAttr(op, "fft_type", ""));
  FftType type;
  const ElementType in = op.operands[0]->type.element_type();
  const ElementType out = op.result(0)->type.element_type();
  if (name == "FFT") {
    type = FftType::kFft;
  } else if (name == "IFFT") {
    type = FftType::kIfft;
  } else if (name == "RFFT") {
    type = FftType::kRfft;
  } else if (name == "IRFFT") {
    type = FftType::kIrfft;
  } else {
    return Invalid(op, StrCat("unknown fft_type '", name, "'"));
  }
  const bool real_in = type == FftType::kRfft, real_out = type == FftType::kIrfft;
  if ((real_in ? !shlo::IsFloat(in) : !shlo::IsComplex(in)) ||
      (real_out ? !shlo::IsFloat(out) : !shlo::IsComplex(out))) {
    return Invalid(op, StrCat(name, " does not take ", shlo::ElementTypeName(in), " to ",
                              shlo::ElementTypeName(out)));
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> length, IntListAttr(op, "fft_length", {}));
  if (op.operands[0]->type.has_static_shape()) {
    auto dims = FftResultDims(op.operands[0]->type.dims(), type, length);
    if (!dims.ok()) return Annotated(op, dims.status());
    PLUGRT_RETURN_IF_ERROR(CheckResultDims(op, *dims));
  }
  return MakeOp([op = TagOf(op), type, length, out](const Operands& in, ExecContext&) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    auto dims = FftResultDims(t[0].dims(), type, length);
    if (!dims.ok()) return Annotated(op, dims.status());
    return Wrap({Fft(t[0], type, length, out)});
  });
}

CompileResult CompileTriangularSolve(const shlo::Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, 2, 1));
  PLUGRT_ASSIGN_OR_RETURN(bool left_side, BoolAttr(op, "left_side", false));
  PLUGRT_ASSIGN_OR_RETURN(bool lower, BoolAttr(op, "lower", false));
  PLUGRT_ASSIGN_OR_RETURN(bool unit_diagonal, BoolAttr(op, "unit_diagonal", false));
  PLUGRT_ASSIGN_OR_RETURN(std::string transpose, EnumAttr(op, "transpose_a", "NO_TRANSPOSE"));
  TransposeKind kind;
  if (transpose == "NO_TRANSPOSE") {
    kind = TransposeKind::kNoTranspose;
  } else if (transpose == "TRANSPOSE") {
    kind = TransposeKind::kTranspose;
  } else if (transpose == "ADJOINT") {
    kind = TransposeKind::kAdjoint;
  } else {
    return Invalid(op, StrCat("unknown transpose_a '", transpose, "'"));
  }
  return MakeOp([op = TagOf(op), left_side, lower, unit_diagonal, kind](
                    const Operands& in, ExecContext&) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    auto x = TriangularSolve(t[0], t[1], left_side, lower, unit_diagonal, kind);
    if (!x.ok()) return Annotated(op, x.status());
    return Wrap({std::move(x).value()});
  });
}

CompileResult CompileCholesky(const shlo::Operation& op) {
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, 1, 1));
  PLUGRT_ASSIGN_OR_RETURN(bool lower, BoolAttr(op, "lower", false));
  return MakeOp([op = TagOf(op), lower](const Operands& in, ExecContext&) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    auto l = Cholesky(t[0], lower);
    if (!l.ok()) return Annotated(op, l.status());
    return Wrap({std::move(l).value()});
  });
}

CompileResult CompileBatchNorm(const shlo::Operation& op) {
  const OpCode code = op.code;
  const int operands = code == OpCode::kBatchNormTraining ? 3 : 5;
  const int results = code == OpCode::kBatchNormInference ? 1 : 3;
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, operands, results));
  PLUGRT_ASSIGN_OR_RETURN(double epsilon, FloatAttr(op, "epsilon", 0.0));
  PLUGRT_ASSIGN_OR_RETURN(int64_t feature_index, IntAttr(op, "feature_index", 0));
  return MakeOp([op = TagOf(op), code, epsilon, feature_index](const Operands& in,
                                                               ExecContext&) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    StatusOr<std::vector<Tensor>> out = std::vector<Tensor>{};
    if (code == OpCode::kBatchNormInference) {
      auto r = BatchNormInference(t[0], t[1], t[2], t[3], t[4], epsilon, feature_index);
      if (!r.ok()) return Annotated(op, r.status());
      return Wrap({std::move(r).value()});
    }
    if (code == OpCode::kBatchNormTraining) {
      out = BatchNormTraining(t[0], t[1], t[2], epsilon, feature_index);
    } else {
      out = BatchNormGrad(t[0], t[1], t[2], t[3], t[4], epsilon, feature_index);
    }
    if (!out.ok()) return Annotated(op, out.status());
    return Wrap(std::move(out).value());
  });
}

}  // namespace plugrt::cpu::compute
