// The built-in JVPs: elementwise ops through their VJPs (a diagonal Jacobian
// is its own transpose), linear ops by running the op on the tangents,
// dot_general by the product rule, and the rest by transposing their VJPs.
#include "autodiff/builtin_rules.h"
#include "autodiff/function_runner.h"
#include "autodiff/tape.h"

namespace plugrt::autodiff::internal {

namespace {

using Tangents = std::vector<Tensor>;

// Elementwise ops: input i's part of J v is the VJP's gradient for input i
// with v_i as the output gradient (every operand has the output's shape).
StatusOr<Tangents> ElementwiseJvp(const JvpCall& c) {
  const VjpFunction* vjp = FindVjp(c.op.name());
  if (vjp == nullptr) return Internal("no VJP for elementwise ", c.op.name());
  TensorMath m(c.context());
  Tensor sum;
  for (size_t i = 0; i < c.input_tangents.size(); ++i) {
    if (!c.input_tangents[i]) continue;
    std::vector<Tensor> g{c.input_tangents[i]};
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> parts, (*vjp)(VjpCall{c.op, c.outputs, g}));
    if (i >= parts.size() || !parts[i]) continue;
    if (!sum) {
      sum = parts[i];
    } else {
      PLUGRT_ASSIGN_OR_RETURN(sum, m.Add(sum, parts[i]));
    }
  }
  return Tangents{sum};
}

// Ops linear in all their floating-point inputs together: the op on the
// tangents (zeros for inputs without one; non-float inputs as they were).
StatusOr<Tangents> LinearJvp(const JvpCall& c) {
  TensorMath m(c.context());
  std::vector<std::vector<Tensor>> groups = c.op.input_groups();
  size_t flat = 0;
  for (auto& group : groups) {
    for (Tensor& t : group) {
      const Tensor& v = c.input_tangents[flat++];
      if (v) {
        t = v;
      } else {
        PLUGRT_ASSIGN_OR_RETURN(bool differentiable, IsDifferentiable(t));
        if (differentiable) {
          PLUGRT_ASSIGN_OR_RETURN(t, m.ZerosLike(t));
        }
      }
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(eager::Op op, c.op.Rebound(std::move(groups), c.op.device()));
  return op.Execute();
}

// dot_general and convolution, f(x, y) bilinear: d = f(dx, y) + f(x, dy).
StatusOr<Tangents> BilinearJvp(const JvpCall& c) {
  TensorMath m(c.context());
  const Tensor& x = c.op.inputs()[0];
  const Tensor& y = c.op.inputs()[1];
  Tensor sum;
  for (int side = 0; side < 2; ++side) {
    const Tensor& v = c.input_tangents[side];
    if (!v) continue;
    PLUGRT_ASSIGN_OR_RETURN(eager::Op op, c.op.Rebound({{side == 0 ? v : x}, {side == 0 ? y : v}},
                                                       c.op.device()));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> part, op.Execute());
    if (!sum) {
      sum = part[0];
    } else {
      PLUGRT_ASSIGN_OR_RETURN(sum, m.Add(sum, part[0]));
    }
  }
  return Tangents{sum};
}

// reduce and all_reduce are linear when they sum.
StatusOr<Tangents> SumJvp(const JvpCall& c, std::string_view region_attr) {
  eager::AttrReader a(c.op.name(), c.op.attrs());
  PLUGRT_ASSIGN_OR_RETURN(auto region, a.Region(region_attr));
  const eager::Reducer* reducer = std::get_if<eager::Reducer>(&region);
  if (reducer != nullptr && *reducer == eager::Reducer::kAdd) return LinearJvp(c);
  return JvpByTransposedVjp(c);
}

}  // namespace

StatusOr<std::vector<Tensor>> JvpByTransposedVjp(const JvpCall& c) {
  const VjpFunction vjp = ResolveVjp(c.op);
  if (!vjp) return Unimplemented("no VJP for ", c.op.name(), " to transpose");
  TensorMath m(c.context());
  // A private tape over placeholder output gradients u (their values do not
  // matter: J^T u is linear in u).
  Tape tape(c.context());
  std::vector<Tensor> u(c.outputs.size()), watched;
  for (size_t o = 0; o < c.outputs.size(); ++o) {
    PLUGRT_ASSIGN_OR_RETURN(bool differentiable, IsDifferentiable(c.outputs[o]));
    if (!differentiable) continue;
    PLUGRT_ASSIGN_OR_RETURN(u[o], m.ZerosLike(c.outputs[o]));
    tape.Watch(u[o]);
    watched.push_back(u[o]);
  }
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> w, vjp(VjpCall{c.op, c.outputs, u}));
  Tensor inner;  // <J^T u, v>
  for (size_t i = 0; i < w.size() && i < c.input_tangents.size(); ++i) {
    if (!w[i] || !c.input_tangents[i]) continue;
    PLUGRT_ASSIGN_OR_RETURN(Tensor prod, m.Mul(w[i], c.input_tangents[i]));
    PLUGRT_ASSIGN_OR_RETURN(Tensor part, m.SumAll(prod));
    if (!inner) {
      inner = part;
    } else {
      PLUGRT_ASSIGN_OR_RETURN(inner, m.Add(inner, part));
    }
  }
  std::vector<Tensor> tangents(c.outputs.size());
  if (!inner || watched.empty()) return tangents;
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> jv,
                          tape.Gradient({inner}, watched, {}, UnconnectedGradients::kZero));
  for (size_t o = 0, k = 0; o < c.outputs.size(); ++o) {
    if (u[o]) tangents[o] = jv[k++];
  }
  return tangents;
}

void AddBuiltinJvps(const AddJvp& add) {
  for (const char* name :
       {"stablehlo.add", "stablehlo.subtract", "stablehlo.multiply", "stablehlo.divide",
        "stablehlo.remainder", "stablehlo.negate", "stablehlo.exponential",
        "stablehlo.exponential_minus_one", "stablehlo.log", "stablehlo.log_plus_one",
        "stablehlo.tanh", "stablehlo.logistic", "stablehlo.sqrt", "stablehlo.rsqrt",
        "stablehlo.cbrt", "stablehlo.sine", "stablehlo.cosine", "stablehlo.tan", "stablehlo.abs",
        "stablehlo.power", "stablehlo.atan2", "stablehlo.maximum", "stablehlo.minimum",
        "stablehlo.select", "stablehlo.floor", "stablehlo.ceil", "stablehlo.sign",
        "stablehlo.round_nearest_even", "stablehlo.round_nearest_afz"}) {
    add(name, ElementwiseJvp);
  }
  for (const char* name :
       {"stablehlo.reshape", "stablehlo.transpose", "stablehlo.reverse",
        "stablehlo.broadcast_in_dim", "stablehlo.slice", "stablehlo.pad",
        "stablehlo.concatenate", "stablehlo.convert", "stablehlo.dynamic_slice",
        "stablehlo.dynamic_update_slice", "stablehlo.gather", "stablehlo.all_gather"}) {
    add(name, LinearJvp);
  }
  add("stablehlo.dot_general", BilinearJvp);
  add("stablehlo.convolution", BilinearJvp);
  add("stablehlo.reduce", [](const JvpCall& c) { return SumJvp(c, "body"); });
  add("stablehlo.all_reduce", [](const JvpCall& c) { return SumJvp(c, "computation"); });
  add("stablehlo.scatter", [](const JvpCall& c) { return SumJvp(c, "update_computation"); });
  add("stablehlo.reduce_window", [](const JvpCall& c) { return SumJvp(c, "body"); });
}

}  // namespace plugrt::autodiff::internal
