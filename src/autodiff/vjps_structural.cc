// The VJPs of ops that move, combine or reduce elements: each is the
// transpose of the op's linear map (a broadcast's is a sum, a slice's a pad,
// a concatenation's slices, ...), and dot_general's are two dot_generals.
#include <algorithm>
#include <numeric>

#include "autodiff/builtin_rules.h"

namespace plugrt::autodiff::internal {

namespace {

using Grads = std::vector<Tensor>;

bool Contains(const std::vector<int64_t>& v, int64_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The permutation that undoes `perm` (transpose's: result dim i = operand
// dim perm[i]).
std::vector<int64_t> Inverse(const std::vector<int64_t>& perm) {
  std::vector<int64_t> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<int64_t>(i);
  return inverse;
}

eager::AttrReader Attrs(const VjpCall& c) { return eager::AttrReader(c.op.name(), c.op.attrs()); }

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

StatusOr<Grads> ReduceVjp(const VjpCall& c) {
  if (c.op.inputs().size() != 2) {
    return Unimplemented("no gradient for ", c.op.name(), " of ", c.op.inputs().size() / 2,
                         " inputs at once (only single-input reductions)");
  }
  PLUGRT_ASSIGN_OR_RETURN(auto region, Attrs(c).Region("body"));
  const eager::Reducer* reducer = std::get_if<eager::Reducer>(&region);
  if (reducer == nullptr) {
    return Unimplemented("no gradient for ", c.op.name(), " with a loaded function as its body (@",
                         std::get<eager::FunctionRef>(region).name,
                         "); only the built-in add, mul, max and min reducers");
  }
  TensorMath m(c.context());
  const Tensor& x = c.op.inputs()[0];
  const Tensor& init = c.op.inputs()[1];
  const Tensor& y = c.outputs[0];
  const Tensor& g = c.output_grads[0];
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> reduced, Attrs(c).Ints("dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> xdims, x.dims());
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < static_cast<int64_t>(xdims.size()); ++d) {
    if (!Contains(reduced, d)) kept.push_back(d);
  }
  PLUGRT_ASSIGN_OR_RETURN(Tensor g_wide, m.Broadcast(g, xdims, kept));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> ydims, y.dims());
  switch (*reducer) {
    case eager::Reducer::kAdd: {
      PLUGRT_ASSIGN_OR_RETURN(Tensor g_init, m.SumAll(g));
      return Grads{g_wide, g_init};
    }
    case eager::Reducer::kMul: {
      // Each factor's derivative is the product of the others: y / x (the
      // init value is one more factor). Exact where no factor is zero.
      PLUGRT_ASSIGN_OR_RETURN(Tensor y_wide, m.Broadcast(y, xdims, kept));
      PLUGRT_ASSIGN_OR_RETURN(Tensor q, m.Div(y_wide, x));
      PLUGRT_ASSIGN_OR_RETURN(Tensor gx, m.Mul(g_wide, q));
      PLUGRT_ASSIGN_OR_RETURN(Tensor init_wide, m.Broadcast(init, ydims, {}));
      PLUGRT_ASSIGN_OR_RETURN(Tensor qi, m.Div(y, init_wide));
      PLUGRT_ASSIGN_OR_RETURN(Tensor gi, m.Mul(g, qi));
      PLUGRT_ASSIGN_OR_RETURN(gi, m.SumAll(gi));
      return Grads{gx, gi};
    }
    case eager::Reducer::kMax:
    case eager::Reducer::kMin: {
      // The gradient goes to the elements equal to the result, shared
      // evenly among ties (the init value counts as one candidate).
      PLUGRT_ASSIGN_OR_RETURN(Tensor y_wide, m.Broadcast(y, xdims, kept));
      PLUGRT_ASSIGN_OR_RETURN(Tensor hit, m.Compare(x, y_wide, "EQ"));
      PLUGRT_ASSIGN_OR_RETURN(Tensor ones, m.OnesLike(x));
      PLUGRT_ASSIGN_OR_RETURN(Tensor zeros, m.ZerosLike(x));
      PLUGRT_ASSIGN_OR_RETURN(Tensor hits, m.Select(hit, ones, zeros));
      PLUGRT_ASSIGN_OR_RETURN(Tensor count, m.ReduceSum(hits, reduced));
      PLUGRT_ASSIGN_OR_RETURN(Tensor init_wide, m.Broadcast(init, ydims, {}));
      PLUGRT_ASSIGN_OR_RETURN(Tensor init_hit, m.Compare(init_wide, y, "EQ"));
      PLUGRT_ASSIGN_OR_RETURN(Tensor y_ones, m.OnesLike(y));
      PLUGRT_ASSIGN_OR_RETURN(Tensor y_zeros, m.ZerosLike(y));
      PLUGRT_ASSIGN_OR_RETURN(Tensor init_hits, m.Select(init_hit, y_ones, y_zeros));
      PLUGRT_ASSIGN_OR_RETURN(count, m.Add(count, init_hits));
      PLUGRT_ASSIGN_OR_RETURN(Tensor share, m.Div(g, count));
      PLUGRT_ASSIGN_OR_RETURN(Tensor share_wide, m.Broadcast(share, xdims, kept));
      PLUGRT_ASSIGN_OR_RETURN(Tensor gx, m.Mul(share_wide, hits));
      PLUGRT_ASSIGN_OR_RETURN(Tensor gi, m.Mul(share, init_hits));
      PLUGRT_ASSIGN_OR_RETURN(gi, m.SumAll(gi));
      return Grads{gx, gi};
    }
    default:
      return Unimplemented("no gradient for ", c.op.name(), " with reducer ",
                           eager::ReducerOpName(*reducer), " (boolean)");
  }
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

// Runs `name` with the operand(s) `front` followed by the start indices
// of `c`'s op (its inputs from `first_index` on).
StatusOr<Tensor> WithIndices(const VjpCall& c, std::string_view name, std::vector<Tensor> front,
                             size_t first_index, const eager::AttrMap& attrs) {
  eager::Op op(c.context(), std::string(name));
  for (const auto& [key, value] : attrs) PLUGRT_RETURN_IF_ERROR(op.SetAttr(key, value));
  for (const Tensor& t : front) PLUGRT_RETURN_IF_ERROR(op.AddInput(t));
  const std::span<const Tensor> inputs = c.op.inputs();
  PLUGRT_RETURN_IF_ERROR(op.AddInputList(
      std::vector<Tensor>(inputs.begin() + static_cast<std::ptrdiff_t>(first_index), inputs.end())));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> out, op.Execute());
  return out[0];
}

// dynamic_slice: g written into zeros at the (same, clamped) start.
StatusOr<Grads> DynamicSliceVjp(const VjpCall& c) {
  TensorMath m(c.context());
  PLUGRT_ASSIGN_OR_RETURN(Tensor zeros, m.ZerosLike(c.op.inputs()[0]));
  PLUGRT_ASSIGN_OR_RETURN(Tensor gx, WithIndices(c, "stablehlo.dynamic_update_slice",
                                                 {zeros, c.output_grads[0]}, 1, {}));
  Grads grads(c.op.inputs().size());
  grads[0] = gx;
  return grads;
}

// dynamic_update_slice: the operand gets g outside the window, the update
// g inside it.
StatusOr<Grads> DynamicUpdateSliceVjp(const VjpCall& c) {
  TensorMath m(c.context());
  const Tensor& update = c.op.inputs()[1];
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> udims, update.dims());
  PLUGRT_ASSIGN_OR_RETURN(Tensor zeros, m.ZerosLike(update));
  PLUGRT_ASSIGN_OR_RETURN(Tensor gx, WithIndices(c, "stablehlo.dynamic_update_slice",
                                                 {c.output_grads[0], zeros}, 2, {}));
  PLUGRT_ASSIGN_OR_RETURN(Tensor gu, WithIndices(c, "stablehlo.dynamic_slice", {c.output_grads[0]},
                                                 2, {{"slice_sizes", udims}}));
  Grads grads(c.op.inputs().size());
  grads[0] = gx;
  grads[1] = gu;
  return grads;
}

// Copies the int-list attributes `from` names into `to` under new names.
Status Rename(const VjpCall& c, eager::Op& op,
              std::initializer_list<std::pair<const char*, const char*>> names) {
  const eager::AttrReader a = Attrs(c);
  for (const auto& [from, to] : names) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, a.IntsOrEmpty(from));
    if (!dims.empty()) PLUGRT_RETURN_IF_ERROR(op.SetAttr(to, dims));
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t index_vector_dim, a.Int("index_vector_dim"));
  return op.SetAttr("index_vector_dim", index_vector_dim);
}

// gather: each gathered element's gradient added back where it came from
// (a scatter-add with the same dimension numbers). Exact for start indices
// in bounds: gather clamps the others, which scatter would skip.
StatusOr<Grads> GatherVjp(const VjpCall& c) {
  TensorMath m(c.context());
  PLUGRT_ASSIGN_OR_RETURN(Tensor zeros, m.ZerosLike(c.op.inputs()[0]));
  eager::Op scatter(c.context(), "stablehlo.scatter");
  PLUGRT_RETURN_IF_ERROR(Rename(c, scatter, {{"offset_dims", "update_window_dims"},
                                             {"collapsed_slice_dims", "inserted_window_dims"},
                                             {"operand_batching_dims", "input_batching_dims"},
                                             {"start_indices_batching_dims",
                                              "scatter_indices_batching_dims"},
                                             {"start_index_map", "scatter_dims_to_operand_dims"}}));
  PLUGRT_RETURN_IF_ERROR(scatter.SetAttr("update_computation", eager::Reducer::kAdd));
  PLUGRT_RETURN_IF_ERROR(scatter.AddInputList({zeros}));
  PLUGRT_RETURN_IF_ERROR(scatter.AddInput(c.op.inputs()[1]));
  PLUGRT_RETURN_IF_ERROR(scatter.AddInputList({c.output_grads[0]}));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> g, scatter.Execute());
  return Grads{g[0], Tensor()};
}

// scatter with an add combiner: the operand's gradient passes through, each
// update's is gathered from where it went.
StatusOr<Grads> ScatterVjp(const VjpCall& c) {
  PLUGRT_ASSIGN_OR_RETURN(auto region, Attrs(c).Region("update_computation"));
  const eager::Reducer* reducer = std::get_if<eager::Reducer>(&region);
  if (reducer == nullptr || *reducer != eager::Reducer::kAdd || c.op.inputs().size() != 3) {
    return Unimplemented("no gradient for ", c.op.name(),
                         " other than a single-input scatter-add (built-in add combiner)");
  }
  const Tensor& updates = c.op.inputs()[2];
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> udims, updates.dims());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> xdims, c.op.inputs()[0].dims());
  const eager::AttrReader a = Attrs(c);
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> window, a.IntsOrEmpty("update_window_dims"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> inserted, a.IntsOrEmpty("inserted_window_dims"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> batching, a.IntsOrEmpty("input_batching_dims"));
  // The slice each update window came from: 1 along inserted and batching
  // dims, the window's sizes along the others, in order.
  std::vector<int64_t> sizes;
  size_t next = 0;
  for (int64_t d = 0; d < static_cast<int64_t>(xdims.size()); ++d) {
    if (Contains(inserted, d) || Contains(batching, d)) {
      sizes.push_back(1);
    } else if (next < window.size()) {
      sizes.push_back(udims[window[next++]]);
    } else {
      return InvalidArgument(c.op.name(), ": update_window_dims is too short for the operand");
    }
  }
  eager::Op gather(c.context(), "stablehlo.gather");
  PLUGRT_RETURN_IF_ERROR(Rename(c, gather, {{"update_window_dims", "offset_dims"},
                                            {"inserted_window_dims", "collapsed_slice_dims"},
                                            {"input_batching_dims", "operand_batching_dims"},
                                            {"scatter_indices_batching_dims",
                                             "start_indices_batching_dims"},
                                            {"scatter_dims_to_operand_dims", "start_index_map"}}));
  PLUGRT_RETURN_IF_ERROR(gather.SetAttr("slice_sizes", sizes));
  PLUGRT_RETURN_IF_ERROR(gather.AddInput(c.output_grads[0]));
  PLUGRT_RETURN_IF_ERROR(gather.AddInput(c.op.inputs()[1]));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> gu, gather.Execute());
  return Grads{c.output_grads[0], Tensor(), gu[0]};
}

// reduce_window with an add body: each input element's gradient is the sum
// of the gradients of the windows it fell in, a window sum of the output
// gradient dilated by the strides and padded by a window on each side
// (windows of ones are symmetric, so no flip), cut back to the input.
StatusOr<Grads> ReduceWindowMaxMinVjp(const VjpCall& c);

StatusOr<Grads> ReduceWindowVjp(const VjpCall& c) {
  PLUGRT_ASSIGN_OR_RETURN(auto region, Attrs(c).Region("body"));
  const eager::Reducer* reducer = std::get_if<eager::Reducer>(&region);
  if (reducer != nullptr && c.op.inputs().size() == 2 &&
      (*reducer == eager::Reducer::kMax || *reducer == eager::Reducer::kMin)) {
    return ReduceWindowMaxMinVjp(c);
  }
  if (reducer == nullptr || *reducer != eager::Reducer::kAdd || c.op.inputs().size() != 2) {
    return Unimplemented("no gradient for ", c.op.name(),
                         " other than a single-input window sum, max or min (built-in body)");
  }
  const eager::AttrReader a = Attrs(c);
  const Tensor& x = c.op.inputs()[0];
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> xdims, x.dims());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> ydims, c.outputs[0].dims());
  const size_t rank = xdims.size();
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> window, a.Ints("window_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides, a.IntsOrEmpty("window_strides"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> base, a.IntsOrEmpty("base_dilations"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> wdil, a.IntsOrEmpty("window_dilations"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> padding, a.IntsOrEmpty("padding"));
  if (strides.empty()) strides.assign(rank, 1);
  if (wdil.empty()) wdil.assign(rank, 1);
  if (padding.empty()) padding.assign(2 * rank, 0);
  for (int64_t b : base) {
    if (b != 1) return Unimplemented("no gradient for ", c.op.name(), " with base_dilations");
  }
  TensorMath m(c.context());
  const Tensor& g = c.output_grads[0];
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, g.dtype());
  PLUGRT_ASSIGN_OR_RETURN(Tensor zero, m.Filled(type, {}, 0.0, g.device_name()));
  PLUGRT_ASSIGN_OR_RETURN(Tensor sum_g, m.SumAll(g));
  bool empty = false;
  for (int64_t d : ydims) empty |= d == 0;
  Tensor gx;
  if (empty) {
    PLUGRT_ASSIGN_OR_RETURN(gx, m.ZerosLike(x));
    return Grads{gx, sum_g};  // no windows: nothing reaches either
  }
  std::vector<int64_t> low, high, interior, cut_low, cut_high, ones(rank, 1);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t span = (window[d] - 1) * wdil[d] + 1;
    low.push_back(span - 1);
    high.push_back(span - 1);
    interior.push_back(strides[d] - 1);
    // The window sums cover padded positions [0, (Y-1)s + span); the
    // padded input is X + lo + hi long.
    const int64_t covered = (ydims[d] - 1) * strides[d] + span;
    cut_low.push_back(-padding[2 * d]);
    cut_high.push_back(xdims[d] + padding[2 * d] - covered);
  }
  PLUGRT_ASSIGN_OR_RETURN(Tensor spread, m.Pad(g, zero, low, high, interior));
  eager::Op sums(c.context(), "stablehlo.reduce_window");
  PLUGRT_RETURN_IF_ERROR(sums.SetAttr("window_dimensions", window));
  PLUGRT_RETURN_IF_ERROR(sums.SetAttr("window_dilations", wdil));
  PLUGRT_RETURN_IF_ERROR(sums.SetAttr("body", eager::Reducer::kAdd));
  PLUGRT_RETURN_IF_ERROR(sums.AddInputList({spread}));
  PLUGRT_RETURN_IF_ERROR(sums.AddInputList({zero}));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> z, sums.Execute());
  PLUGRT_ASSIGN_OR_RETURN(gx, m.Pad(z[0], zero, cut_low, cut_high, std::vector<int64_t>(rank, 0)));
  // The init value enters every window once, and once more for each
  // padding position in it (padding holds the init value): those are the
  // positions of z that gx dropped.
  PLUGRT_ASSIGN_OR_RETURN(Tensor all_z, m.SumAll(z[0]));
  PLUGRT_ASSIGN_OR_RETURN(Tensor kept, m.SumAll(gx));
  PLUGRT_ASSIGN_OR_RETURN(Tensor padded, m.Sub(all_z, kept));
  PLUGRT_ASSIGN_OR_RETURN(Tensor g_init, m.Add(sum_g, padded));
  return Grads{gx, g_init};
}

// reduce_window with a max or min body (pooling): each window's gradient
// goes to the elements equal to its result, shared evenly among ties (the
// init value is one more candidate per window, and fills the padding).
// Written with one strided slice per window offset, so that it is made of
// differentiable ops only: second derivatives and forward mode work.
StatusOr<Grads> ReduceWindowMaxMinVjp(const VjpCall& c) {
  const eager::AttrReader a = Attrs(c);
  const Tensor& x = c.op.inputs()[0];
  const Tensor& init = c.op.inputs()[1];
  const Tensor& y = c.outputs[0];
  const Tensor& g = c.output_grads[0];
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> xdims, x.dims());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> ydims, y.dims());
  const size_t rank = xdims.size();
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> window, a.Ints("window_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides, a.IntsOrEmpty("window_strides"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> base, a.IntsOrEmpty("base_dilations"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> wdil, a.IntsOrEmpty("window_dilations"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> padding, a.IntsOrEmpty("padding"));
  if (strides.empty()) strides.assign(rank, 1);
  if (wdil.empty()) wdil.assign(rank, 1);
  if (padding.empty()) padding.assign(2 * rank, 0);
  for (int64_t b : base) {
    if (b != 1) return Unimplemented("no gradient for ", c.op.name(), " with base_dilations");
  }
  TensorMath m(c.context());
  int64_t windows = 1, offsets = 1;
  for (size_t d = 0; d < rank; ++d) {
    windows *= ydims[d];
    offsets *= window[d];
  }
  if (windows == 0) {
    PLUGRT_ASSIGN_OR_RETURN(Tensor gx, m.ZerosLike(x));
    PLUGRT_ASSIGN_OR_RETURN(Tensor gi, m.ZerosLike(init));
    return Grads{gx, gi};
  }
  std::vector<int64_t> lo, hi, none(rank, 0);
  for (size_t d = 0; d < rank; ++d) {
    lo.push_back(padding[2 * d]);
    hi.push_back(padding[2 * d + 1]);
  }
  PLUGRT_ASSIGN_OR_RETURN(Tensor xpad, m.Pad(x, init, lo, hi, none));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> pdims, xpad.dims());
  PLUGRT_ASSIGN_OR_RETURN(Tensor ones, m.OnesLike(y));
  PLUGRT_ASSIGN_OR_RETURN(Tensor zeros, m.ZerosLike(y));
  PLUGRT_ASSIGN_OR_RETURN(Tensor init_wide, m.Broadcast(init, ydims, {}));
  PLUGRT_ASSIGN_OR_RETURN(Tensor init_hit, m.Compare(init_wide, y, "EQ"));
  PLUGRT_ASSIGN_OR_RETURN(Tensor init_hits, m.Select(init_hit, ones, zeros));
  Tensor count = init_hits;
  // Per window offset: where it starts in the padded input, and which
  // windows' results its element equals.
  std::vector<std::vector<int64_t>> starts;
  std::vector<Tensor> masks;
  for (int64_t flat = 0; flat < offsets; ++flat) {
    std::vector<int64_t> start(rank), limit(rank);
    int64_t rest = flat;
    for (size_t d = rank; d-- > 0;) {
      start[d] = (rest % window[d]) * wdil[d];
      rest /= window[d];
      limit[d] = start[d] + (ydims[d] - 1) * strides[d] + 1;
    }
    PLUGRT_ASSIGN_OR_RETURN(Tensor taken, m.Slice(xpad, start, limit, strides));
    PLUGRT_ASSIGN_OR_RETURN(Tensor hit, m.Compare(taken, y, "EQ"));
    PLUGRT_ASSIGN_OR_RETURN(Tensor hits, m.Select(hit, ones, zeros));
    PLUGRT_ASSIGN_OR_RETURN(count, m.Add(count, hits));
    starts.push_back(std::move(start));
    masks.push_back(hits);
  }
  PLUGRT_ASSIGN_OR_RETURN(Tensor share, m.Div(g, count));
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, g.dtype());
  PLUGRT_ASSIGN_OR_RETURN(Tensor zero, m.Filled(type, {}, 0.0, g.device_name()));
  Tensor gpad;
  for (size_t k = 0; k < masks.size(); ++k) {
    // Each window's share back at this offset's element (a strided
    // slice's transpose: a pad).
    std::vector<int64_t> high, interior;
    for (size_t d = 0; d < rank; ++d) {
      high.push_back(pdims[d] - 1 - (starts[k][d] + (ydims[d] - 1) * strides[d]));
      interior.push_back(strides[d] - 1);
    }
    PLUGRT_ASSIGN_OR_RETURN(Tensor part, m.Mul(share, masks[k]));
    PLUGRT_ASSIGN_OR_RETURN(part, m.Pad(part, zero, starts[k], high, interior));
    if (!gpad) {
      gpad = part;
    } else {
      PLUGRT_ASSIGN_OR_RETURN(gpad, m.Add(gpad, part));
    }
  }
  // Through the padding: the input's part, and the padding's, which is
  // the init value's.
  std::vector<int64_t> out_low, out_high, start, limit, unit(rank, 1);
  for (size_t d = 0; d < rank; ++d) {
    out_low.push_back(std::max<int64_t>(-lo[d], 0));
    out_high.push_back(std::max<int64_t>(-hi[d], 0));
    start.push_back(std::max<int64_t>(lo[d], 0));
    limit.push_back(start.back() + xdims[d]);
  }
  PLUGRT_ASSIGN_OR_RETURN(Tensor wide, m.Pad(gpad, zero, out_low, out_high, none));
  PLUGRT_ASSIGN_OR_RETURN(Tensor gx, m.Slice(wide, start, limit, unit));
  PLUGRT_ASSIGN_OR_RETURN(Tensor all, m.SumAll(gpad));
  PLUGRT_ASSIGN_OR_RETURN(Tensor kept, m.SumAll(gx));
  PLUGRT_ASSIGN_OR_RETURN(Tensor g_padding, m.Sub(all, kept));
  PLUGRT_ASSIGN_OR_RETURN(Tensor direct, m.Mul(share, init_hits));
  PLUGRT_ASSIGN_OR_RETURN(direct, m.SumAll(direct));
  PLUGRT_ASSIGN_OR_RETURN(Tensor gi, m.Add(g_padding, direct));
  return Grads{gx, gi};
}

// sort with the built-in comparator: a permutation of each row. The
// permutation comes from sorting once more with an index operand; each
// gradient goes back by sorting (index, gradient) pairs by index.
StatusOr<Grads> SortVjp(const VjpCall& c) {
  if (Attrs(c).Has("comparator")) {
    return Unimplemented("no gradient for ", c.op.name(), " with a loaded comparator function");
  }
  const std::span<const Tensor> inputs = c.op.inputs();
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, inputs[0].dims());
  PLUGRT_ASSIGN_OR_RETURN(int64_t dim, Attrs(c).Int("dimension", -1));
  if (dim < 0) dim += static_cast<int64_t>(dims.size());
  TensorMath m(c.context());
  PLUGRT_ASSIGN_OR_RETURN(Tensor index,
                          m.Run1("stablehlo.iota", {},
                                 {{"shape", eager::Shape{dims}},
                                  {"iota_dimension", dim},
                                  {"element_type", PJRT_Buffer_Type_S32}}));
  // Where the op ran (an iota has no inputs to route it by).
  if (index.device_name() != inputs[0].device_name()) {
    PLUGRT_ASSIGN_OR_RETURN(index, c.context().CopyToDevice(index, inputs[0].device_name()));
  }
  eager::Op with_index = c.op.Fresh();
  PLUGRT_RETURN_IF_ERROR(with_index.SetAttr(eager::kListLengthAttr,
                                            static_cast<int64_t>(inputs.size() + 1)));
  PLUGRT_RETURN_IF_ERROR(with_index.SetAttr("is_stable", true));
  std::vector<Tensor> operands(inputs.begin(), inputs.end());
  operands.push_back(index);
  PLUGRT_RETURN_IF_ERROR(with_index.AddInputList(operands));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> sorted, with_index.Execute());
  const Tensor& permutation = sorted.back();
  Grads grads;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!c.output_grads[i]) {
      grads.emplace_back();
      continue;
    }
    eager::Op back(c.context(), "stablehlo.sort");
    PLUGRT_RETURN_IF_ERROR(back.SetAttr("dimension", dim));
    PLUGRT_RETURN_IF_ERROR(back.SetAttr("is_stable", true));
    PLUGRT_RETURN_IF_ERROR(back.AddInputList({permutation, c.output_grads[i]}));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> restored, back.Execute());
    grads.push_back(restored[1]);
  }
  return grads;
}

}  // namespace

void AddStructuralVjps(const AddVjp& add) {
  add("stablehlo.reduce_window", ReduceWindowVjp);
  add("stablehlo.sort", SortVjp);
  add("stablehlo.gather", GatherVjp);
  add("stablehlo.scatter", ScatterVjp);
  add("stablehlo.dynamic_slice", DynamicSliceVjp);
  add("stablehlo.dynamic_update_slice", DynamicUpdateSliceVjp);
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
  add("stablehlo.reduce", ReduceVjp);
  add("stablehlo.slice", SliceVjp);
  add("stablehlo.pad", PadVjp);
  add("stablehlo.concatenate", ConcatenateVjp);
  add("stablehlo.all_reduce", [](const VjpCall& c) -> StatusOr<Grads> {
    // A sum over replicas: each replica's input reaches every replica's
    // output, so its gradient is the sum of theirs (the same all_reduce).
    PLUGRT_ASSIGN_OR_RETURN(auto region, Attrs(c).Region("computation"));
    const eager::Reducer* reducer = std::get_if<eager::Reducer>(&region);
    if (reducer == nullptr || *reducer != eager::Reducer::kAdd) {
      return Unimplemented("no gradient for ", c.op.name(), " other than a sum (add reducer)");
    }
    eager::Op op = c.op.Fresh();
    PLUGRT_RETURN_IF_ERROR(op.AddInput(c.output_grads[0]));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> g, op.Execute());
    return g;
  });
}

}  // namespace plugrt::autodiff::internal
