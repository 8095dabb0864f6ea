// The VJPs of reductions: reduce (add, mul, max, min), reduce_window (sums;
// max and min pooling), select_and_scatter (add scatters), and the
// collectives all_reduce (sums) and all_gather.
#include <algorithm>
#include <cstring>
#include <utility>

#include "autodiff/builtin_rules.h"
#include "eager/op_def.h"

namespace plugrt::autodiff::internal {

namespace {

// One input of a reduction with a built-in combiner (each input of a
// variadic reduce is reduced on its own by the built-in combiners): the
// gradients of x and of its init value.
StatusOr<Grads> ReduceOneVjp(const VjpCall& c, eager::Reducer reducer, const Tensor& x,
                             const Tensor& init, const Tensor& y, const Tensor& g) {
  TensorMath m(c.context());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> reduced, Attrs(c).Ints("dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> xdims, x.dims());
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < static_cast<int64_t>(xdims.size()); ++d) {
    if (!Contains(reduced, d)) kept.push_back(d);
  }
  PLUGRT_ASSIGN_OR_RETURN(Tensor g_wide, m.Broadcast(g, xdims, kept));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> ydims, y.dims());
  switch (reducer) {
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
                           eager::ReducerOpName(reducer), " (boolean)");
  }
}

StatusOr<Grads> ReduceVjp(const VjpCall& c) {
  PLUGRT_ASSIGN_OR_RETURN(auto region, Attrs(c).Region("body"));
  const eager::Reducer* reducer = std::get_if<eager::Reducer>(&region);
  if (reducer == nullptr) {
    return Unimplemented("no gradient for ", c.op.name(), " with a loaded function as its body (@",
                         std::get<eager::FunctionRef>(region).name,
                         "); only the built-in add, mul, max and min reducers");
  }
  const size_t n = c.op.inputs().size() / 2;
  Grads grads(2 * n);
  for (size_t i = 0; i < n; ++i) {
    if (!c.output_grads[i]) continue;  // an integer input: nothing flows
    PLUGRT_ASSIGN_OR_RETURN(Grads pair, ReduceOneVjp(c, *reducer, c.op.inputs()[i],
                                                     c.op.inputs()[n + i], c.outputs[i],
                                                     c.output_grads[i]));
    grads[i] = pair[0];
    grads[n + i] = pair[1];
  }
  return grads;
}

StatusOr<Grads> ReduceWindowMaxMinVjp(const VjpCall& c);

// reduce_window with an add body: each input element's gradient is the sum
// of the gradients of the windows it fell in, a window sum of the output
// gradient dilated by the strides and padded by a window on each side
// (windows of ones are symmetric, so no flip), cut back to the input.
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

// The number of windows (the product of `out_dims`) and of offsets within
// a window (of `window`).
std::pair<int64_t, int64_t> WindowCounts(const std::vector<int64_t>& out_dims,
                                         const std::vector<int64_t>& window) {
  int64_t windows = 1, offsets = 1;
  for (size_t d = 0; d < out_dims.size(); ++d) {
    windows *= out_dims[d];
    offsets *= window[d];
  }
  return {windows, offsets};
}

// Where window offset `flat` (row-major over `window`) of every window
// starts and ends in the padded input: a strided slice [start, limit) with
// the window strides gives that offset's element of each window.
void OffsetSlice(int64_t flat, const std::vector<int64_t>& window,
                 const std::vector<int64_t>& dilation, const std::vector<int64_t>& out_dims,
                 const std::vector<int64_t>& strides, std::vector<int64_t>& start,
                 std::vector<int64_t>& limit) {
  const size_t rank = window.size();
  start.assign(rank, 0);
  limit.assign(rank, 0);
  for (size_t d = rank; d-- > 0;) {
    start[d] = (flat % window[d]) * dilation[d];
    flat /= window[d];
    limit[d] = start[d] + (out_dims[d] - 1) * strides[d] + 1;
  }
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
  const auto [windows, offsets] = WindowCounts(ydims, window);
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
    std::vector<int64_t> start, limit;
    OffsetSlice(flat, window, wdil, ydims, strides, start, limit);
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

// all_gather over one group of every replica in order: replica r's input
// is block r of every replica's output, so its gradient is block r of the
// sum of their gradients (an all_reduce, then a slice at r's offset).
StatusOr<Grads> AllGatherVjp(const VjpCall& c) {
  const eager::AttrReader a = Attrs(c);
  PLUGRT_ASSIGN_OR_RETURN(eager::DenseTensor groups, a.Dense("replica_groups"));
  PLUGRT_ASSIGN_OR_RETURN(int64_t dim, a.Int("all_gather_dim"));
  bool in_order = groups.type.dims.size() == 2 && groups.type.dims[0] == 1 &&
                  groups.type.type == PJRT_Buffer_Type_S64;
  const int64_t n = in_order ? groups.type.dims[1] : 0;
  for (int64_t i = 0; in_order && i < n; ++i) {
    int64_t id;
    std::memcpy(&id, groups.data.data() + i * sizeof id, sizeof id);
    in_order = id == i;
  }
  if (!in_order) {
    return Unimplemented("no gradient for ", c.op.name(), " other than over one group of every "
                         "replica in order (s64 replica_groups [[0, 1, ...]])");
  }
  TensorMath m(c.context());
  const Tensor& x = c.op.inputs()[0];
  const Tensor& g = c.output_grads[0];
  eager::Op sum(c.context(), "stablehlo.all_reduce");
  PLUGRT_RETURN_IF_ERROR(sum.SetAttr("replica_groups", groups));
  PLUGRT_RETURN_IF_ERROR(sum.SetAttr("computation", eager::Reducer::kAdd));
  PLUGRT_RETURN_IF_ERROR(sum.AddInput(g));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> summed, sum.Execute());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> xdims, x.dims());
  // This replica's index: plugrt.device_id (a parallel device's component
  // index; 0 on a single device).
  eager::Op id(c.context(), std::string(eager::kDeviceIdOp));
  id.SetDevice(g.device_name());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> index, id.Execute());
  std::vector<Tensor> starts;
  for (size_t d = 0; d < xdims.size(); ++d) {
    if (static_cast<int64_t>(d) == dim) {
      PLUGRT_ASSIGN_OR_RETURN(Tensor block, m.Filled(PJRT_Buffer_Type_S64, {},
                                                     static_cast<double>(xdims[d]),
                                                     g.device_name()));
      PLUGRT_ASSIGN_OR_RETURN(Tensor start, m.Mul(index[0], block));
      starts.push_back(start);
    } else {
      PLUGRT_ASSIGN_OR_RETURN(Tensor zero, m.Filled(PJRT_Buffer_Type_S64, {}, 0.0, g.device_name()));
      starts.push_back(zero);
    }
  }
  eager::Op slice(c.context(), "stablehlo.dynamic_slice");
  PLUGRT_RETURN_IF_ERROR(slice.SetAttr("slice_sizes", xdims));
  PLUGRT_RETURN_IF_ERROR(slice.AddInput(summed[0]));
  PLUGRT_RETURN_IF_ERROR(slice.AddInputList(starts));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> gx, slice.Execute());
  return Grads{gx[0]};
}

// select_and_scatter with an add scatter and a built-in select
// (`select_direction`): result = init everywhere, plus, at the element each
// window selects, that window's source. So the source's gradient is g at
// each window's selected element (found again here, window offset by window
// offset in the order the op scans them: an offset replaces the choice so
// far when select(choice, it) is false; padding is never chosen), the
// init's is the sum of g, and the operand, which only chooses, gets zeros.
// Made of differentiable ops, so forward mode and second derivatives work.
StatusOr<Grads> SelectAndScatterVjp(const VjpCall& c) {
  const eager::AttrReader a = Attrs(c);
  PLUGRT_ASSIGN_OR_RETURN(auto scatter, a.Region("scatter"));
  const eager::Reducer* reducer = std::get_if<eager::Reducer>(&scatter);
  if (reducer == nullptr || *reducer != eager::Reducer::kAdd) {
    return Unimplemented("no gradient for ", c.op.name(), " other than with an add scatter");
  }
  if (a.Has("select")) {
    return Unimplemented("no gradient for ", c.op.name(), " with a loaded select function (",
                         "give select_direction instead)");
  }
  std::string direction(eager::kDefaultSelectDirection);
  if (a.Has(eager::kSelectDirectionAttr)) {
    PLUGRT_ASSIGN_OR_RETURN(direction, a.String(eager::kSelectDirectionAttr));
  }
  const Tensor& x = c.op.inputs()[0];
  const Tensor& source = c.op.inputs()[1];
  const Tensor& g = c.output_grads[0];
  if (!g) return Grads(3);  // an integer result carries no gradient
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> sdims, source.dims());
  const size_t rank = sdims.size();
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> window, a.Ints("window_dimensions"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides, a.IntsOrEmpty("window_strides"));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> padding, a.IntsOrEmpty("padding"));
  if (strides.empty()) strides.assign(rank, 1);
  if (padding.empty()) padding.assign(2 * rank, 0);
  TensorMath m(c.context());
  PLUGRT_ASSIGN_OR_RETURN(Tensor g_init, m.SumAll(g));
  PLUGRT_ASSIGN_OR_RETURN(Tensor g_operand, m.ZerosLike(x));
  const auto [windows, offsets] = WindowCounts(sdims, window);
  if (windows == 0) {
    PLUGRT_ASSIGN_OR_RETURN(Tensor g_source, m.ZerosLike(source));
    return Grads{g_operand, g_source, g_init};
  }
  std::vector<int64_t> lo, hi, none(rank, 0);
  for (size_t d = 0; d < rank; ++d) {
    lo.push_back(padding[2 * d]);
    hi.push_back(padding[2 * d + 1]);
  }
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type xtype, x.dtype());
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type gtype, g.dtype());
  PLUGRT_ASSIGN_OR_RETURN(Tensor x_zero, m.Filled(xtype, {}, 0.0, x.device_name()));
  PLUGRT_ASSIGN_OR_RETURN(Tensor g_zero, m.Filled(gtype, {}, 0.0, g.device_name()));
  // Padding: any value (never chosen), marked invalid.
  PLUGRT_ASSIGN_OR_RETURN(Tensor xpad, m.Pad(x, x_zero, lo, hi, none));
  PLUGRT_ASSIGN_OR_RETURN(Tensor gpad, m.Pad(g, g_zero, lo, hi, none));
  PLUGRT_ASSIGN_OR_RETURN(Tensor ones, m.OnesLike(x));
  PLUGRT_ASSIGN_OR_RETURN(Tensor valid_pad, m.Pad(ones, x_zero, lo, hi, none));
  Tensor have, best, best_g;
  const std::vector<int64_t> undilated(rank, 1);
  for (int64_t flat = 0; flat < offsets; ++flat) {
    std::vector<int64_t> start, limit;
    OffsetSlice(flat, window, undilated, sdims, strides, start, limit);
    PLUGRT_ASSIGN_OR_RETURN(Tensor xk, m.Slice(xpad, start, limit, strides));
    PLUGRT_ASSIGN_OR_RETURN(Tensor gk, m.Slice(gpad, start, limit, strides));
    PLUGRT_ASSIGN_OR_RETURN(Tensor vk, m.Slice(valid_pad, start, limit, strides));
    PLUGRT_ASSIGN_OR_RETURN(Tensor vk_zero, m.ZerosLike(vk));
    PLUGRT_ASSIGN_OR_RETURN(Tensor valid, m.Compare(vk, vk_zero, "NE"));
    if (flat == 0) {
      have = valid, best = xk, best_g = gk;
      continue;
    }
    // Replaces the choice where this offset is valid and either nothing is
    // chosen yet or select(choice, this) says not to keep the choice.
    PLUGRT_ASSIGN_OR_RETURN(Tensor keep, m.Compare(best, xk, direction));
    PLUGRT_ASSIGN_OR_RETURN(Tensor kept, m.Run1("stablehlo.and", {have, keep}));
    PLUGRT_ASSIGN_OR_RETURN(Tensor not_kept, m.Run1("stablehlo.not", {kept}));
    PLUGRT_ASSIGN_OR_RETURN(Tensor take, m.Run1("stablehlo.and", {valid, not_kept}));
    PLUGRT_ASSIGN_OR_RETURN(best, m.Select(take, xk, best));
    PLUGRT_ASSIGN_OR_RETURN(best_g, m.Select(take, gk, best_g));
    PLUGRT_ASSIGN_OR_RETURN(have, m.Run1("stablehlo.or", {have, valid}));
  }
  PLUGRT_ASSIGN_OR_RETURN(Tensor none_chosen, m.ZerosLike(best_g));
  PLUGRT_ASSIGN_OR_RETURN(Tensor g_source, m.Select(have, best_g, none_chosen));
  return Grads{g_operand, g_source, g_init};
}

}  // namespace

void AddReductionVjps(const AddVjp& add) {
  add("stablehlo.all_gather", AllGatherVjp);
  add("stablehlo.reduce", ReduceVjp);
  add("stablehlo.reduce_window", ReduceWindowVjp);
  add("stablehlo.select_and_scatter", SelectAndScatterVjp);
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
