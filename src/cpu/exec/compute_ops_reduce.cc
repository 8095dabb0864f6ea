// plugrt CPU executor: reduce, reduce_window, select_and_scatter, sort and
// map. Bodies that are one binary op on their two arguments run as typed
// loops; other bodies run through their compiled region per element.
#include <optional>

#include "cpu/exec/compute_ops_util.h"
#include "cpu/kernels/fast_reduce.h"
#include "cpu/kernels/parallel.h"
#include "cpu/kernels/reduce.h"
#include "cpu/kernels/sort.h"

namespace plugrt::cpu::compute {
namespace {

using shlo::OpCode;

bool IsScalarOf(const shlo::Type& type, ElementType element) {
  return type.is_tensor() && type.rank() == 0 && type.element_type() == element;
}

// The ReduceKind of a body `{ ^bb(%a, %b): %r = op %a, %b; return %r }` over
// scalars of `type`, if it is one.
std::optional<ReduceKind> DetectBinaryBody(const shlo::Region& region, ElementType type) {
  if (region.blocks.size() != 1) return std::nullopt;
  const shlo::Block& block = region.front();
  if (block.arguments.size() != 2 || block.operations.size() != 2) return std::nullopt;
  for (const auto& arg : block.arguments) {
    if (!IsScalarOf(arg->type, type)) return std::nullopt;
  }
  const shlo::Operation& binary = *block.operations[0];
  const shlo::Operation& ret = *block.operations[1];
  if (ret.code != OpCode::kReturn && ret.code != OpCode::kFuncReturn) return std::nullopt;
  if (binary.operands.size() != 2 || binary.results.size() != 1 || ret.operands.size() != 1 ||
      ret.operands[0] != binary.result(0) || !IsScalarOf(binary.result(0)->type, type)) {
    return std::nullopt;
  }
  const shlo::Value* a = block.arguments[0].get();
  const shlo::Value* b = block.arguments[1].get();
  bool uses_both = (binary.operands[0] == a && binary.operands[1] == b) ||
                   (binary.operands[0] == b && binary.operands[1] == a);
  if (!uses_both) return std::nullopt;
  std::optional<ReduceKind> kind;
  switch (binary.code) {
    case OpCode::kAdd: kind = ReduceKind::kAdd; break;
    case OpCode::kMultiply: kind = ReduceKind::kMultiply; break;
    case OpCode::kMaximum: kind = ReduceKind::kMaximum; break;
    case OpCode::kMinimum: kind = ReduceKind::kMinimum; break;
    case OpCode::kAnd: kind = ReduceKind::kAnd; break;
    case OpCode::kOr: kind = ReduceKind::kOr; break;
    case OpCode::kXor: kind = ReduceKind::kXor; break;
    default: return std::nullopt;
  }
  if (!ReduceKindSupports(*kind, type)) return std::nullopt;
  return kind;
}

Status CheckOneRegion(const shlo::Operation& op, size_t count) {
  if (op.regions.size() != count) {
    return Invalid(op, StrCat("expects ", count, " region(s), has ", op.regions.size()));
  }
  for (const auto& region : op.regions) {
    if (region->blocks.size() != 1) return Invalid(op, "regions must have exactly one block");
  }
  return OkStatus();
}

// Inputs share one shape and inits are scalars of the results' types.
Status CheckVariadic(const OpTag& op, const std::vector<Tensor>& inputs,
                     const std::vector<Tensor>& inits) {
  for (const Tensor& t : inputs) {
    if (t.dims() != inputs[0].dims()) return Invalid(op, "inputs must have the same shape");
  }
  for (const Tensor& t : inits) {
    if (t.num_elements() != 1 || t.rank() != 0) {
      return Invalid(op, "init values must be rank-0 tensors");
    }
  }
  return OkStatus();
}

StatusOr<WindowGeometry> ReadWindow(const shlo::Operation& op, int64_t rank, bool has_dilations) {
  WindowGeometry w;
  std::vector<int64_t> ones(static_cast<size_t>(rank), 1), zeros(static_cast<size_t>(rank), 0);
  PLUGRT_ASSIGN_OR_RETURN(w.window_dimensions, IntListAttr(op, "window_dimensions", {}));
  PLUGRT_ASSIGN_OR_RETURN(w.window_strides, IntListAttr(op, "window_strides", ones));
  w.base_dilations = ones;
  w.window_dilations = ones;
  if (has_dilations) {
    PLUGRT_ASSIGN_OR_RETURN(w.base_dilations, IntListAttr(op, "base_dilations", ones));
    PLUGRT_ASSIGN_OR_RETURN(w.window_dilations, IntListAttr(op, "window_dilations", ones));
  }
  std::vector<int64_t> zero_pairs(static_cast<size_t>(2 * rank), 0);
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> padding, IntListAttr(op, "padding", zero_pairs));
  if (padding.size() != static_cast<size_t>(2 * rank)) {
    return Invalid(op, StrCat("padding must have ", rank, "x2 entries, has ", padding.size()));
  }
  for (int64_t d = 0; d < rank; ++d) {
    w.padding_low.push_back(padding[2 * d]);
    w.padding_high.push_back(padding[2 * d + 1]);
  }
  return w;
}

// An op on the vectorized f32 reduction kernels (reduce, pooling): checks
// that the input has the planned `shape` and the init is one f32, then
// returns run(input, init, threads).
template <typename Run>
CompileResult F32ReductionOp(const shlo::Operation& op, std::vector<int64_t> shape, Run run) {
  return MakeOp([op = TagOf(op), shape = std::move(shape), run](const Operands& in,
                                                                 ExecContext& context) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    if (t[0].dims() != shape || t[0].type() != ElementType::kF32 || t[1].num_elements() != 1 ||
        t[1].type() != ElementType::kF32) {
      return Invalid(op, "operands do not match their types");
    }
    return Wrap({run(t[0], t[1].as<float>()[0], ThreadBudget(context.kernel_threads))});
  });
}

}  // namespace

CompileResult CompileReduce(const shlo::Operation& op, CompileContext& context) {
  const size_t n = op.operands.size() / 2;
  if (n == 0 || op.operands.size() % 2 != 0) {
    return Invalid(op, "expects N inputs followed by N init values");
  }
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, -1, static_cast<int>(n)));
  PLUGRT_RETURN_IF_ERROR(CheckOneRegion(op, 1));
  const shlo::Type& input_type = op.operands[0]->type;
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, IntListAttr(op, "dimensions", {}));
  std::vector<bool> seen(static_cast<size_t>(input_type.rank()), false);
  for (int64_t d : dims) {
    if (d < 0 || d >= input_type.rank() || seen[d]) {
      return Invalid(op, StrCat("dimension ", d, " is out of range or repeated for rank ",
                                input_type.rank()));
    }
    seen[d] = true;
  }
  for (size_t k = 0; k < n; ++k) {
    if (op.operands[n + k]->type.element_type() != op.result(k)->type.element_type()) {
      return Invalid(op, "each result must have its init value's element type");
    }
    if (op.operands[k]->type.rank() != input_type.rank()) {
      return Invalid(op, "inputs must have the same rank");
    }
  }
  const ElementType type = input_type.element_type();
  std::optional<ReduceKind> kind;
  if (n == 1 && op.operands[1]->type.element_type() == type) {
    kind = DetectBinaryBody(op.region(0), type);
  }
  // f32 add/max/min of a static shape: the vectorized kernel.
  if (kind && type == ElementType::kF32 && input_type.has_static_shape() && context.options().fast_paths) {
    if (std::optional<FastReducePlan> plan = PlanFastReduce(input_type.dims(), dims, *kind)) {
      return F32ReductionOp(op, input_type.dims(),
                            [plan = *plan](const Tensor& input, float init, int threads) {
                              return FastReduce(plan, input, init, threads);
                            });
    }
  }
  if (kind) {
    return MakeOp([op = TagOf(op), dims, kind = *kind, rank = input_type.rank()](const Operands& in, ExecContext&) -> Results {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
      PLUGRT_RETURN_IF_ERROR(CheckVariadic(op, {t[0]}, {t[1]}));
      if (t[0].rank() != rank) return Invalid(op, "input rank differs from its type");
      return Wrap({ReduceFast(t[0], t[1], dims, kind)});
    });
  }
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledRegion> body,
                          context.CompileRegion(op.region(0)));
  return MakeOp([op = TagOf(op), dims, body, n, rank = input_type.rank()](const Operands& in, ExecContext& ctx) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    std::vector<Tensor> inputs(t.begin(), t.begin() + n), inits(t.begin() + n, t.end());
    PLUGRT_RETURN_IF_ERROR(CheckVariadic(op, inputs, inits));
    if (inputs[0].rank() != rank) return Invalid(op, "input rank differs from its type");
    auto results = ReduceWithBody(inputs, inits, dims, BodyOf(body, ctx));
    if (!results.ok()) return Annotated(op, results.status());
    return Wrap(std::move(results).value());
  });
}

CompileResult CompileReduceWindow(const shlo::Operation& op, CompileContext& context) {
  const size_t n = op.operands.size() / 2;
  if (n == 0 || op.operands.size() % 2 != 0) {
    return Invalid(op, "expects N inputs followed by N init values");
  }
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, -1, static_cast<int>(n)));
  PLUGRT_RETURN_IF_ERROR(CheckOneRegion(op, 1));
  const shlo::Type& input_type = op.operands[0]->type;
  PLUGRT_ASSIGN_OR_RETURN(WindowGeometry window, ReadWindow(op, input_type.rank(), true));
  // Validates the attribute sizes once; dims are recomputed per execution.
  if (input_type.has_static_shape()) {
    auto dims = WindowResultDims(input_type.dims(), window);
    if (!dims.ok()) return Annotated(op, dims.status());
  } else if (window.window_dimensions.size() != static_cast<size_t>(input_type.rank())) {
    return Invalid(op, "window_dimensions must have one entry per dimension");
  }
  for (size_t k = 0; k < n; ++k) {
    if (op.operands[n + k]->type.element_type() != op.result(k)->type.element_type()) {
      return Invalid(op, "each result must have its init value's element type");
    }
  }
  const ElementType type = input_type.element_type();
  std::optional<ReduceKind> kind;
  if (n == 1 && op.operands[1]->type.element_type() == type) {
    kind = DetectBinaryBody(op.region(0), type);
  }
  // f32 pooling (NHWC max / sum windows) on the row-at-a-time kernel.
  if (kind && type == ElementType::kF32 && input_type.has_static_shape() &&
      context.options().fast_paths) {
    if (std::optional<FastWindowPlan> plan = PlanFastReduceWindow(input_type.dims(), window, *kind)) {
      return F32ReductionOp(op, input_type.dims(),
                            [plan = *plan](const Tensor& input, float init, int threads) {
                              return FastReduceWindow(plan, input, init, threads);
                            });
    }
  }
  std::shared_ptr<const CompiledRegion> body;
  if (!kind) {
    PLUGRT_ASSIGN_OR_RETURN(body, context.CompileRegion(op.region(0)));
  }
  return MakeOp([op = TagOf(op), window, kind, body, n](const Operands& in, ExecContext& ctx) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    std::vector<Tensor> inputs(t.begin(), t.begin() + n), inits(t.begin() + n, t.end());
    PLUGRT_RETURN_IF_ERROR(CheckVariadic(op, inputs, inits));
    auto dims = WindowResultDims(inputs[0].dims(), window);
    if (!dims.ok()) return Annotated(op, dims.status());
    if (kind) return Wrap({ReduceWindowFast(inputs[0], inits[0], window, *dims, *kind)});
    auto results = ReduceWindowWithBody(inputs, inits, window, *dims, BodyOf(body, ctx));
    if (!results.ok()) return Annotated(op, results.status());
    return Wrap(std::move(results).value());
  });
}

CompileResult CompileSelectAndScatter(const shlo::Operation& op, CompileContext& context) {
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, 3, 1));
  PLUGRT_RETURN_IF_ERROR(CheckOneRegion(op, 2));
  const shlo::Type& operand_type = op.operands[0]->type;
  PLUGRT_ASSIGN_OR_RETURN(WindowGeometry window, ReadWindow(op, operand_type.rank(), false));
  if (window.window_dimensions.size() != static_cast<size_t>(operand_type.rank()) ||
      window.window_strides.size() != static_cast<size_t>(operand_type.rank())) {
    return Invalid(op, "window attributes must have one entry per dimension");
  }
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledRegion> select,
                          context.CompileRegion(op.region(0)));
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledRegion> scatter,
                          context.CompileRegion(op.region(1)));
  return MakeOp([op = TagOf(op), window, select, scatter](const Operands& in, ExecContext& ctx) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    if (t[2].rank() != 0) return Invalid(op, "init_value must be a rank-0 tensor");
    auto result = SelectAndScatter(t[0], t[1], t[2], window, BodyOf(select, ctx),
                                   BodyOf(scatter, ctx));
    if (!result.ok()) return Annotated(op, result.status());
    return Wrap({std::move(result).value()});
  });
}

CompileResult CompileSort(const shlo::Operation& op, CompileContext& context) {
  if (op.operands.empty()) return Invalid(op, "expects at least one operand");
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, -1, static_cast<int>(op.operands.size())));
  PLUGRT_RETURN_IF_ERROR(CheckOneRegion(op, 1));
  const int64_t rank = op.operands[0]->type.rank();
  PLUGRT_ASSIGN_OR_RETURN(int64_t dimension, IntAttr(op, "dimension", -1));
  if (dimension < 0) dimension += rank;
  if (dimension < 0 || dimension >= rank) {
    return Invalid(op, StrCat("dimension is out of range for rank ", rank));
  }
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledRegion> less,
                          context.CompileRegion(op.region(0)));
  return MakeOp([op = TagOf(op), dimension, less](const Operands& in, ExecContext& ctx) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    auto results = Sort(t, dimension, BodyOf(less, ctx));
    if (!results.ok()) return Annotated(op, results.status());
    return Wrap(std::move(results).value());
  });
}

CompileResult CompileMap(const shlo::Operation& op, CompileContext& context) {
  if (op.operands.empty()) return Invalid(op, "expects at least one operand");
  PLUGRT_RETURN_IF_ERROR(CheckTensors(op, -1, 1));
  PLUGRT_RETURN_IF_ERROR(CheckOneRegion(op, 1));
  const int64_t rank = op.operands[0]->type.rank();
  std::vector<int64_t> all(static_cast<size_t>(rank));
  for (int64_t d = 0; d < rank; ++d) all[d] = d;
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, IntListAttr(op, "dimensions", all));
  if (dims != all) return Invalid(op, "dimensions must be [0, 1, ..., rank - 1]");
  const ElementType result_type = op.result(0)->type.element_type();
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledRegion> body,
                          context.CompileRegion(op.region(0)));
  return MakeOp([op = TagOf(op), body, result_type](const Operands& in, ExecContext& ctx) -> Results {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> t, OperandTensors(op, in));
    for (const Tensor& x : t) {
      if (x.dims() != t[0].dims()) return Invalid(op, "inputs must have the same shape");
    }
    auto result = Map(t, result_type, BodyOf(body, ctx));
    if (!result.ok()) return Annotated(op, result.status());
    return Wrap({std::move(result).value()});
  });
}

}  // namespace plugrt::cpu::compute
