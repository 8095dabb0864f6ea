// The VJPs of elementwise ops. Each output element depends on the input
// elements at the same index, so each input's gradient is the output's
// gradient times that partial derivative, written with eager ops.
#include <cmath>

#include "autodiff/builtin_rules.h"

namespace plugrt::autodiff::internal {

namespace {

// The shared shape of a unary rule: d(output)/d(input) from the input x and
// the output y; the gradient is g times it.
using Derivative = std::function<StatusOr<Tensor>(const TensorMath&, const Tensor& x,
                                                  const Tensor& y)>;

VjpFunction Unary(Derivative derivative) {
  return [derivative](const VjpCall& c) -> StatusOr<Grads> {
    TensorMath m(c.context());
    PLUGRT_ASSIGN_OR_RETURN(Tensor d, derivative(m, c.op.inputs()[0], c.outputs[0]));
    PLUGRT_ASSIGN_OR_RETURN(Tensor g, m.Mul(c.output_grads[0], d));
    return Grads{g};
  };
}

// Ops whose derivative is zero wherever it exists (floor, sign, ...).
StatusOr<Grads> ZeroGradient(const VjpCall& c) {
  TensorMath m(c.context());
  PLUGRT_ASSIGN_OR_RETURN(Tensor z, m.ZerosLike(c.op.inputs()[0]));
  return Grads{z};
}

// max/min: the gradient goes to the input that was chosen, half to each on
// a tie (so that max(x, x) has derivative 1, as x has).
StatusOr<Grads> MaxMinVjp(const VjpCall& c) {
  TensorMath m(c.context());
  const Tensor& a = c.op.inputs()[0];
  const Tensor& b = c.op.inputs()[1];
  const Tensor& g = c.output_grads[0];
  PLUGRT_ASSIGN_OR_RETURN(Tensor a_won, m.Compare(a, c.outputs[0], "EQ"));
  PLUGRT_ASSIGN_OR_RETURN(Tensor b_won, m.Compare(b, c.outputs[0], "EQ"));
  PLUGRT_ASSIGN_OR_RETURN(Tensor zero, m.ZerosLike(g));
  PLUGRT_ASSIGN_OR_RETURN(Tensor half, m.Scale(g, 0.5));
  PLUGRT_ASSIGN_OR_RETURN(Tensor a_share, m.Select(b_won, half, g));
  PLUGRT_ASSIGN_OR_RETURN(Tensor b_share, m.Select(a_won, half, g));
  PLUGRT_ASSIGN_OR_RETURN(Tensor ga, m.Select(a_won, a_share, zero));
  PLUGRT_ASSIGN_OR_RETURN(Tensor gb, m.Select(b_won, b_share, zero));
  return Grads{ga, gb};
}

// A clamp bound may be a scalar standing for every element: its gradient is
// then the sum over them.
StatusOr<Tensor> ToBoundShape(const TensorMath& m, const Tensor& g, const Tensor& bound) {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, bound.dims());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> gdims, g.dims());
  if (dims.empty() && !gdims.empty()) return m.SumAll(g);
  return g;
}

StatusOr<Tensor> AsOperandShape(const TensorMath& m, const Tensor& bound, const Tensor& x) {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, bound.dims());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> xdims, x.dims());
  if (dims.empty() && !xdims.empty()) return m.Broadcast(bound, xdims, {});
  return bound;
}

StatusOr<Grads> ClampVjp(const VjpCall& c) {
  TensorMath m(c.context());
  const Tensor& x = c.op.inputs()[1];
  const Tensor& g = c.output_grads[0];
  PLUGRT_ASSIGN_OR_RETURN(Tensor lo, AsOperandShape(m, c.op.inputs()[0], x));
  PLUGRT_ASSIGN_OR_RETURN(Tensor hi, AsOperandShape(m, c.op.inputs()[2], x));
  PLUGRT_ASSIGN_OR_RETURN(Tensor zero, m.ZerosLike(g));
  PLUGRT_ASSIGN_OR_RETURN(Tensor below, m.Compare(x, lo, "LT"));
  PLUGRT_ASSIGN_OR_RETURN(Tensor above, m.Compare(x, hi, "GT"));
  PLUGRT_ASSIGN_OR_RETURN(Tensor g_lo, m.Select(below, g, zero));
  PLUGRT_ASSIGN_OR_RETURN(Tensor g_hi, m.Select(above, g, zero));
  PLUGRT_ASSIGN_OR_RETURN(Tensor g_in, m.Select(below, zero, g));
  PLUGRT_ASSIGN_OR_RETURN(g_in, m.Select(above, zero, g_in));
  PLUGRT_ASSIGN_OR_RETURN(g_lo, ToBoundShape(m, g_lo, c.op.inputs()[0]));
  PLUGRT_ASSIGN_OR_RETURN(g_hi, ToBoundShape(m, g_hi, c.op.inputs()[2]));
  return Grads{g_lo, g_in, g_hi};
}

}  // namespace

void AddElementwiseVjps(const AddVjp& add) {
  add("stablehlo.add", [](const VjpCall& c) -> StatusOr<Grads> {
    return Grads{c.output_grads[0], c.output_grads[0]};
  });
  add("stablehlo.subtract", [](const VjpCall& c) -> StatusOr<Grads> {
    PLUGRT_ASSIGN_OR_RETURN(Tensor neg, TensorMath(c.context()).Neg(c.output_grads[0]));
    return Grads{c.output_grads[0], neg};
  });
  add("stablehlo.multiply", [](const VjpCall& c) -> StatusOr<Grads> {
    TensorMath m(c.context());
    PLUGRT_ASSIGN_OR_RETURN(Tensor ga, m.Mul(c.output_grads[0], c.op.inputs()[1]));
    PLUGRT_ASSIGN_OR_RETURN(Tensor gb, m.Mul(c.output_grads[0], c.op.inputs()[0]));
    return Grads{ga, gb};
  });
  add("stablehlo.divide", [](const VjpCall& c) -> StatusOr<Grads> {
    // d(a/b)/da = 1/b; d(a/b)/db = -a/b^2 = -(a/b)/b.
    TensorMath m(c.context());
    const Tensor& b = c.op.inputs()[1];
    PLUGRT_ASSIGN_OR_RETURN(Tensor ga, m.Div(c.output_grads[0], b));
    PLUGRT_ASSIGN_OR_RETURN(Tensor gy, m.Mul(ga, c.outputs[0]));
    PLUGRT_ASSIGN_OR_RETURN(Tensor gb, m.Neg(gy));
    return Grads{ga, gb};
  });
  add("stablehlo.remainder", [](const VjpCall& c) -> StatusOr<Grads> {
    // a rem b = a - trunc(a/b) * b: d/da = 1, d/db = -trunc(a/b) = -(a - y)/b.
    TensorMath m(c.context());
    PLUGRT_ASSIGN_OR_RETURN(Tensor q, m.Sub(c.op.inputs()[0], c.outputs[0]));
    PLUGRT_ASSIGN_OR_RETURN(q, m.Div(q, c.op.inputs()[1]));
    PLUGRT_ASSIGN_OR_RETURN(Tensor gq, m.Mul(c.output_grads[0], q));
    PLUGRT_ASSIGN_OR_RETURN(Tensor gb, m.Neg(gq));
    return Grads{c.output_grads[0], gb};
  });
  add("stablehlo.negate", [](const VjpCall& c) -> StatusOr<Grads> {
    PLUGRT_ASSIGN_OR_RETURN(Tensor neg, TensorMath(c.context()).Neg(c.output_grads[0]));
    return Grads{neg};
  });
  add("stablehlo.exponential",
      Unary([](const TensorMath&, const Tensor&, const Tensor& y) -> StatusOr<Tensor> { return y; }));
  add("stablehlo.exponential_minus_one",
      Unary([](const TensorMath& m, const Tensor&, const Tensor& y) -> StatusOr<Tensor> {
        PLUGRT_ASSIGN_OR_RETURN(Tensor one, m.OnesLike(y));
        return m.Add(y, one);
      }));
  add("stablehlo.log", [](const VjpCall& c) -> StatusOr<Grads> {
    PLUGRT_ASSIGN_OR_RETURN(Tensor g, TensorMath(c.context()).Div(c.output_grads[0], c.op.inputs()[0]));
    return Grads{g};
  });
  add("stablehlo.log_plus_one", [](const VjpCall& c) -> StatusOr<Grads> {
    TensorMath m(c.context());
    PLUGRT_ASSIGN_OR_RETURN(Tensor one, m.OnesLike(c.op.inputs()[0]));
    PLUGRT_ASSIGN_OR_RETURN(Tensor x1, m.Add(c.op.inputs()[0], one));
    PLUGRT_ASSIGN_OR_RETURN(Tensor g, m.Div(c.output_grads[0], x1));
    return Grads{g};
  });
  add("stablehlo.tanh",
      Unary([](const TensorMath& m, const Tensor&, const Tensor& y) -> StatusOr<Tensor> {
        PLUGRT_ASSIGN_OR_RETURN(Tensor one, m.OnesLike(y));
        PLUGRT_ASSIGN_OR_RETURN(Tensor yy, m.Mul(y, y));
        return m.Sub(one, yy);
      }));
  add("stablehlo.logistic",
      Unary([](const TensorMath& m, const Tensor&, const Tensor& y) -> StatusOr<Tensor> {
        PLUGRT_ASSIGN_OR_RETURN(Tensor one, m.OnesLike(y));
        PLUGRT_ASSIGN_OR_RETURN(Tensor rest, m.Sub(one, y));
        return m.Mul(y, rest);
      }));
  add("stablehlo.sqrt", [](const VjpCall& c) -> StatusOr<Grads> {
    // 1 / (2 sqrt(x)).
    TensorMath m(c.context());
    PLUGRT_ASSIGN_OR_RETURN(Tensor half, m.Scale(c.output_grads[0], 0.5));
    PLUGRT_ASSIGN_OR_RETURN(Tensor g, m.Div(half, c.outputs[0]));
    return Grads{g};
  });
  add("stablehlo.rsqrt",
      Unary([](const TensorMath& m, const Tensor& x, const Tensor& y) -> StatusOr<Tensor> {
        // -x^(-3/2) / 2 = -y / (2x).
        PLUGRT_ASSIGN_OR_RETURN(Tensor q, m.Div(y, x));
        return m.Scale(q, -0.5);
      }));
  add("stablehlo.cbrt",
      Unary([](const TensorMath& m, const Tensor& x, const Tensor& y) -> StatusOr<Tensor> {
        // x^(-2/3) / 3 = y / (3x).
        PLUGRT_ASSIGN_OR_RETURN(Tensor q, m.Div(y, x));
        return m.Scale(q, 1.0 / 3.0);
      }));
  add("stablehlo.sine",
      Unary([](const TensorMath& m, const Tensor& x, const Tensor&) -> StatusOr<Tensor> {
        return m.Run1("stablehlo.cosine", {x});
      }));
  add("stablehlo.cosine",
      Unary([](const TensorMath& m, const Tensor& x, const Tensor&) -> StatusOr<Tensor> {
        PLUGRT_ASSIGN_OR_RETURN(Tensor s, m.Run1("stablehlo.sine", {x}));
        return m.Neg(s);
      }));
  add("stablehlo.tan",
      Unary([](const TensorMath& m, const Tensor&, const Tensor& y) -> StatusOr<Tensor> {
        PLUGRT_ASSIGN_OR_RETURN(Tensor one, m.OnesLike(y));
        PLUGRT_ASSIGN_OR_RETURN(Tensor yy, m.Mul(y, y));
        return m.Add(one, yy);
      }));
  add("stablehlo.abs",
      Unary([](const TensorMath& m, const Tensor& x, const Tensor&) -> StatusOr<Tensor> {
        return m.Run1("stablehlo.sign", {x});
      }));
  add("stablehlo.power", [](const VjpCall& c) -> StatusOr<Grads> {
    // d(x^p)/dx = p x^(p-1); d(x^p)/dp = x^p log x, taken as 0 where x = 0
    // (the limit for p > 0) rather than NaN.
    TensorMath m(c.context());
    const Tensor& x = c.op.inputs()[0];
    const Tensor& p = c.op.inputs()[1];
    const Tensor& g = c.output_grads[0];
    PLUGRT_ASSIGN_OR_RETURN(Tensor one, m.OnesLike(p));
    PLUGRT_ASSIGN_OR_RETURN(Tensor p1, m.Sub(p, one));
    PLUGRT_ASSIGN_OR_RETURN(Tensor xp1, m.Run1("stablehlo.power", {x, p1}));
    PLUGRT_ASSIGN_OR_RETURN(Tensor dx, m.Mul(p, xp1));
    PLUGRT_ASSIGN_OR_RETURN(Tensor gx, m.Mul(g, dx));
    PLUGRT_ASSIGN_OR_RETURN(Tensor zero, m.ZerosLike(x));
    PLUGRT_ASSIGN_OR_RETURN(Tensor at_zero, m.Compare(x, zero, "EQ"));
    PLUGRT_ASSIGN_OR_RETURN(Tensor safe_x, m.Select(at_zero, one, x));
    PLUGRT_ASSIGN_OR_RETURN(Tensor log_x, m.Run1("stablehlo.log", {safe_x}));
    PLUGRT_ASSIGN_OR_RETURN(Tensor dp, m.Mul(c.outputs[0], log_x));
    PLUGRT_ASSIGN_OR_RETURN(Tensor gp, m.Mul(g, dp));
    return Grads{gx, gp};
  });
  add("stablehlo.atan2", [](const VjpCall& c) -> StatusOr<Grads> {
    // atan2(a, b): d/da = b / (a^2 + b^2), d/db = -a / (a^2 + b^2).
    TensorMath m(c.context());
    const Tensor& a = c.op.inputs()[0];
    const Tensor& b = c.op.inputs()[1];
    PLUGRT_ASSIGN_OR_RETURN(Tensor aa, m.Mul(a, a));
    PLUGRT_ASSIGN_OR_RETURN(Tensor bb, m.Mul(b, b));
    PLUGRT_ASSIGN_OR_RETURN(Tensor r2, m.Add(aa, bb));
    PLUGRT_ASSIGN_OR_RETURN(Tensor gr, m.Div(c.output_grads[0], r2));
    PLUGRT_ASSIGN_OR_RETURN(Tensor ga, m.Mul(gr, b));
    PLUGRT_ASSIGN_OR_RETURN(Tensor gb, m.Mul(gr, a));
    PLUGRT_ASSIGN_OR_RETURN(gb, m.Neg(gb));
    return Grads{ga, gb};
  });
  add("stablehlo.maximum", MaxMinVjp);
  add("stablehlo.minimum", MaxMinVjp);
  add("stablehlo.clamp", ClampVjp);
  add("stablehlo.select", [](const VjpCall& c) -> StatusOr<Grads> {
    TensorMath m(c.context());
    const Tensor& pred = c.op.inputs()[0];
    const Tensor& g = c.output_grads[0];
    PLUGRT_ASSIGN_OR_RETURN(Tensor zero, m.ZerosLike(g));
    // A scalar predicate picks a whole operand.
    PLUGRT_ASSIGN_OR_RETURN(Tensor p, AsOperandShape(m, pred, g));
    PLUGRT_ASSIGN_OR_RETURN(Tensor gt, m.Select(p, g, zero));
    PLUGRT_ASSIGN_OR_RETURN(Tensor gf, m.Select(p, zero, g));
    return Grads{Tensor(), gt, gf};
  });
  add("stablehlo.convert", [](const VjpCall& c) -> StatusOr<Grads> {
    // Back to the input's type; an integer input gets nothing.
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type from, c.op.inputs()[0].dtype());
    if (!IsDifferentiable(from)) return Grads{Tensor()};
    PLUGRT_ASSIGN_OR_RETURN(Tensor g, TensorMath(c.context()).Convert(c.output_grads[0], from));
    return Grads{g};
  });
  for (const char* name : {"stablehlo.floor", "stablehlo.ceil", "stablehlo.sign",
                           "stablehlo.round_nearest_even", "stablehlo.round_nearest_afz"}) {
    add(name, ZeroGradient);
  }
}

}  // namespace plugrt::autodiff::internal
