// The VJPs of ops that move or combine elements: each is the transpose of
// the op's linear map (a broadcast's is a sum, a slice's a pad, a
// concatenation's slices, ...), and dot_general's are two dot_generals.
#include <algorithm>
#include <numeric>

#include "autodiff/builtin_rules.h"

namespace plugrt::autodiff::internal {

namespace {

StatusOr<Grads> BroadcastVjp(const VjpCall& c) {
  TensorMath m(c.context());
  const Tensor& x = c.op.inputs()[0];
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> bdims, Attrs(c).Ints("broadcast_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> xdims, x.dims());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> ydims, c.outputs[0].dims());
  // Summed: result dims no operand dim maps to, and those an operand dim of
  // size 1 was stretched over.
  std::vector<int64_t> summed;
  for (size_t d = 0; d < ydims.size(); ++d) {
    auto it = std::find(bdims.begin(), bdims.end(), static_cast<int64_t>(d));
    if (it == bdims.end() || (xdims[it - bdims.begin()] == 1 && ydims[d] != 1)) {
      summed.push_back(static_cast<int64_t>(d));
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(Tensor g, m.ReduceSum(c.output_grads[0], summed));
  // The kept dims are in result order; the operand's order may differ.
  std::vector<std::pair<int64_t, int64_t>> kept;  // (result dim, operand dim)
  for (size_t i = 0; i < bdims.size(); ++i) {
    if (!Contains(summed, bdims[i])) kept.push_back({bdims[i], static_cast<int64_t>(i)});
  }
  std::sort(kept.begin(), kept.end());
  std::vector<int64_t> order;  // operand dims in the order g has them
  for (const auto& [r, o] : kept) order.push_back(o);
  std::vector<int64_t> by_operand = order;
  std::sort(by_operand.begin(), by_operand.end());
  std::vector<int64_t> perm;
  for (int64_t o : by_operand) {
    perm.push_back(std::find(order.begin(), order.end(), o) - order.begin());
  }
  PLUGRT_ASSIGN_OR_RETURN(g, m.Transpose(g, perm));
  PLUGRT_ASSIGN_OR_RETURN(g, m.Reshape(g, xdims));
  return Grads{g};
}

// dot_general's dimensions, grouped.
struct DotDims {
  std::vector<int64_t> lb, rb, lc, rc, lf, rf;  // batch, contracting, free
};

StatusOr<DotDims> ReadDotDims(const VjpCall& c) {
  const eager::AttrReader a = Attrs(c);
  DotDims d;
  PLUGRT_ASSIGN_OR_RETURN(d.lb, a.IntsOrEmpty("lhs_batching_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(d.rb, a.IntsOrEmpty("rhs_batching_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(d.lc, a.IntsOrEmpty("lhs_contracting_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(d.rc, a.IntsOrEmpty("rhs_contracting_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> ldims, c.op.inputs()[0].dims());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> rdims, c.op.inputs()[1].dims());
  for (int64_t i = 0; i < static_cast<int64_t>(ldims.size()); ++i) {
    if (!Contains(d.lb, i) && !Contains(d.lc, i)) d.lf.push_back(i);
  }
  for (int64_t i = 0; i < static_cast<int64_t>(rdims.size()); ++i) {
    if (!Contains(d.rb, i) && !Contains(d.rc, i)) d.rf.push_back(i);
  }
  return d;
}

std::vector<int64_t> Range(int64_t begin, int64_t count) {
  std::vector<int64_t> r(static_cast<size_t>(count));
  std::iota(r.begin(), r.end(), begin);
  return r;
}

// The gradient of one side (`mine`) of a dot_general whose result is
// [batch, lhs free, rhs free]: g contracted with the other side over the
// other side's free dims, then transposed to this side's layout.
// `g_free_mine`/`g_free_other`: where each side's free dims sit in g.
StatusOr<Tensor> DotSideGrad(const TensorMath& m, const Tensor& g, const Tensor& other,
                             const std::vector<int64_t>& my_batch,
                             const std::vector<int64_t>& my_contract,
                             const std::vector<int64_t>& my_free,
                             const std::vector<int64_t>& other_batch,
                             const std::vector<int64_t>& other_contract,
                             const std::vector<int64_t>& other_free,
                             const std::vector<int64_t>& g_other_free, bool g_first,
                             PJRT_Buffer_Type my_type) {
  const int64_t nb = static_cast<int64_t>(my_batch.size());
  // The product's dims: [batch, g's remaining (my free) / other's remaining
  // (my contracting, as other's contracting dims ascend)], in the operand
  // order of the call.
  std::vector<int64_t> other_rest = other_contract;
  std::sort(other_rest.begin(), other_rest.end());
  std::vector<int64_t> from_other;  // my dim for each of other's remaining dims
  for (int64_t o : other_rest) {
    const size_t k = std::find(other_contract.begin(), other_contract.end(), o) -
                     other_contract.begin();
    from_other.push_back(my_contract[k]);
  }
  std::vector<int64_t> layout = my_batch;  // my dim at each product position
  Tensor product;
  if (g_first) {
    PLUGRT_ASSIGN_OR_RETURN(product,
                            m.DotGeneral(g, other, Range(0, nb), other_batch, g_other_free,
                                         other_free));
    layout.insert(layout.end(), my_free.begin(), my_free.end());
    layout.insert(layout.end(), from_other.begin(), from_other.end());
  } else {
    PLUGRT_ASSIGN_OR_RETURN(product,
                            m.DotGeneral(other, g, other_batch, Range(0, nb), other_free,
                                         g_other_free));
    layout.insert(layout.end(), from_other.begin(), from_other.end());
    layout.insert(layout.end(), my_free.begin(), my_free.end());
  }
  PLUGRT_ASSIGN_OR_RETURN(product, m.Convert(product, my_type));
  return m.Transpose(product, Inverse(layout));
}

StatusOr<Grads> DotGeneralVjp(const VjpCall& c) {
  TensorMath m(c.context());
  PLUGRT_ASSIGN_OR_RETURN(DotDims d, ReadDotDims(c));
  const Tensor& lhs = c.op.inputs()[0];
  const Tensor& rhs = c.op.inputs()[1];
  const Tensor& g = c.output_grads[0];
  const int64_t nb = static_cast<int64_t>(d.lb.size());
  const int64_t nlf = static_cast<int64_t>(d.lf.size());
  const int64_t nrf = static_cast<int64_t>(d.rf.size());
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type lt, lhs.dtype());
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type rt, rhs.dtype());
  Grads grads(2);
  if (IsDifferentiable(lt)) {
    PLUGRT_ASSIGN_OR_RETURN(grads[0], DotSideGrad(m, g, rhs, d.lb, d.lc, d.lf, d.rb, d.rc, d.rf,
                                                  Range(nb + nlf, nrf), true, lt));
  }
  if (IsDifferentiable(rt)) {
    PLUGRT_ASSIGN_OR_RETURN(grads[1], DotSideGrad(m, g, lhs, d.rb, d.rc, d.rf, d.lb, d.lc, d.lf,
                                                  Range(nb, nlf), false, rt));
  }
  return grads;
}

StatusOr<Grads> SliceVjp(const VjpCall& c) {
  TensorMath m(c.context());
  const eager::AttrReader a = Attrs(c);
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> start, a.Ints("start_indices"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides, a.IntsOrEmpty("strides"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> xdims, c.op.inputs()[0].dims());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> ydims, c.outputs[0].dims());
  if (strides.empty()) strides.assign(xdims.size(), 1);
  const Tensor& g = c.output_grads[0];
  for (int64_t n : ydims) {
    if (n == 0) {
      PLUGRT_ASSIGN_OR_RETURN(Tensor z, m.ZerosLike(c.op.inputs()[0]));
      return Grads{z};
    }
  }
  // Each taken element back at its place: pad low by the start, between
  // by stride - 1, high by what follows the last one taken.
  std::vector<int64_t> high, interior;
  for (size_t d = 0; d < xdims.size(); ++d) {
    const int64_t last = start[d] + (ydims[d] - 1) * strides[d];
    high.push_back(xdims[d] - 1 - last);
    interior.push_back(strides[d] - 1);
  }
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, g.dtype());
  PLUGRT_ASSIGN_OR_RETURN(Tensor zero, m.Filled(type, {}, 0.0, g.device_name()));
  PLUGRT_ASSIGN_OR_RETURN(Tensor gx, m.Pad(g, zero, start, high, interior));
  return Grads{gx};
}

StatusOr<Grads> PadVjp(const VjpCall& c) {
  TensorMath m(c.context());
  const eager::AttrReader a = Attrs(c);
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> low, a.Ints("edge_padding_low"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> high, a.Ints("edge_padding_high"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> interior, a.IntsOrEmpty("interior_padding"));
  const Tensor& x = c.op.inputs()[0];
  const Tensor& g = c.output_grads[0];
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> xdims, x.dims());
  if (interior.empty()) interior.assign(xdims.size(), 0);
  // Negative padding cut operand elements off (they get zero): pad g back
  // out by what was cut, then take every (interior + 1)-th element.
  std::vector<int64_t> out_low, out_high, none(xdims.size(), 0), start, limit, strides;
  bool empty = false;
  for (size_t d = 0; d < xdims.size(); ++d) {
    out_low.push_back(std::max<int64_t>(-low[d], 0));
    out_high.push_back(std::max<int64_t>(-high[d], 0));
    start.push_back(std::max<int64_t>(low[d], 0));
    strides.push_back(interior[d] + 1);
    limit.push_back(start.back() + (xdims[d] - 1) * strides.back() + 1);
    empty |= xdims[d] == 0;
  }
  PLUGRT_ASSIGN_OR_RETURN(Tensor total, m.SumAll(g));
  if (empty) {
    PLUGRT_ASSIGN_OR_RETURN(Tensor z, m.ZerosLike(x));
    return Grads{z, total};
  }
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, g.dtype());
  PLUGRT_ASSIGN_OR_RETURN(Tensor zero, m.Filled(type, {}, 0.0, g.device_name()));
  PLUGRT_ASSIGN_OR_RETURN(Tensor wide, m.Pad(g, zero, out_low, out_high, none));
  PLUGRT_ASSIGN_OR_RETURN(Tensor gx, m.Slice(wide, start, limit, strides));
  // The padding value's gradient: every element of g that is padding.
  PLUGRT_ASSIGN_OR_RETURN(Tensor taken, m.SumAll(gx));
  PLUGRT_ASSIGN_OR_RETURN(Tensor gv, m.Sub(total, taken));
  return Grads{gx, gv};
}

StatusOr<Grads> ConcatenateVjp(const VjpCall& c) {
  TensorMath m(c.context());
  PLUGRT_ASSIGN_OR_RETURN(int64_t dim, Attrs(c).Int("dimension"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> ydims, c.outputs[0].dims());
  Grads grads;
  int64_t offset = 0;
  for (const Tensor& x : c.op.inputs()) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> xdims, x.dims());
    std::vector<int64_t> start(ydims.size(), 0), limit = ydims, strides(ydims.size(), 1);
    start[dim] = offset;
    limit[dim] = offset + xdims[dim];
    offset += xdims[dim];
    PLUGRT_ASSIGN_OR_RETURN(bool differentiable, IsDifferentiable(x));
    if (!differentiable) {
      grads.emplace_back();
      continue;
    }
    PLUGRT_ASSIGN_OR_RETURN(Tensor gx, m.Slice(c.output_grads[0], start, limit, strides));
    grads.push_back(gx);
  }
  return grads;
}

}  // namespace

void AddStructuralVjps(const AddVjp& add) {
  add("stablehlo.broadcast_in_dim", BroadcastVjp);
  add("stablehlo.reshape", [](const VjpCall& c) -> StatusOr<Grads> {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> xdims, c.op.inputs()[0].dims());
    PLUGRT_ASSIGN_OR_RETURN(Tensor g, TensorMath(c.context()).Reshape(c.output_grads[0], xdims));
    return Grads{g};
  });
  add("stablehlo.transpose", [](const VjpCall& c) -> StatusOr<Grads> {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> perm, Attrs(c).Ints("permutation"));
    PLUGRT_ASSIGN_OR_RETURN(Tensor g,
                            TensorMath(c.context()).Transpose(c.output_grads[0], Inverse(perm)));
    return Grads{g};
  });
  add("stablehlo.reverse", [](const VjpCall& c) -> StatusOr<Grads> {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, Attrs(c).Ints("dimensions"));
    PLUGRT_ASSIGN_OR_RETURN(Tensor g, TensorMath(c.context()).Run1("stablehlo.reverse",
                                                                 {c.output_grads[0]},
                                                                 {{"dimensions", dims}}));
    return Grads{g};
  });
  add("stablehlo.dot_general", DotGeneralVjp);
  add("stablehlo.slice", SliceVjp);
  add("stablehlo.pad", PadVjp);
  add("stablehlo.concatenate", ConcatenateVjp);
}

}  // namespace plugrt::autodiff::internal
