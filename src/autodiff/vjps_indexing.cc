// The VJPs of ops that pick elements by index: dynamic (update) slices,
// gather and scatter (each other's transposes), and sort (a permutation).
#include "autodiff/builtin_rules.h"
#include "stablehlo/ir.h"
#include "compiler/importers/mlir/parser.h"

namespace plugrt::autodiff::internal {

namespace {

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

// `t` (shaped like the scatter's operand) gathered at each update's place:
// the transpose of scattering the updates.
StatusOr<Tensor> GatherAtUpdates(const VjpCall& c, const Tensor& t) {
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
  PLUGRT_RETURN_IF_ERROR(gather.AddInput(t));
  PLUGRT_RETURN_IF_ERROR(gather.AddInput(c.op.inputs()[1]));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> out, gather.Execute());
  return out[0];
}

// Whether loaded function `name` returns its second argument as it is: a
// scatter's overwrite (what jax's x.at[i].set(u) lowers to).
bool IsOverwrite(Context& ctx, const std::string& name) {
  StatusOr<std::string> text = ctx.functions().DefinitionsFor({name});
  if (!text.ok()) return false;
  StatusOr<std::unique_ptr<shlo::Module>> module = shlo::ParseModule(*text, name);
  if (!module.ok()) return false;
  const shlo::Function* f = (*module)->FindFunction(name);
  if (f == nullptr || f->body == nullptr || f->body->blocks.size() != 1) return false;
  const shlo::Block& block = f->body->front();
  return block.arguments.size() == 2 && block.operations.size() == 1 &&
         block.operations[0]->operands.size() == 1 &&
         block.operations[0]->operands[0] == block.arguments[1].get();
}

// scatter overwriting with its updates: the operand's gradient is g where no
// update was written (found by scattering ones into zeros the same way),
// each update's g gathered from where it went. Exact for indices that do not
// repeat (the spec leaves open which of repeated ones is written last).
StatusOr<Grads> OverwriteScatterVjp(const VjpCall& c) {
  TensorMath m(c.context());
  const Tensor& g = c.output_grads[0];
  PLUGRT_ASSIGN_OR_RETURN(Tensor zeros_x, m.ZerosLike(c.op.inputs()[0]));
  PLUGRT_ASSIGN_OR_RETURN(Tensor ones_u, m.OnesLike(c.op.inputs()[2]));
  eager::Op mark = c.op.Fresh();
  PLUGRT_RETURN_IF_ERROR(mark.AddInputList({zeros_x}));
  PLUGRT_RETURN_IF_ERROR(mark.AddInput(c.op.inputs()[1]));
  PLUGRT_RETURN_IF_ERROR(mark.AddInputList({ones_u}));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> written, mark.Execute());
  PLUGRT_ASSIGN_OR_RETURN(Tensor kept, m.Compare(written[0], zeros_x, "EQ"));
  PLUGRT_ASSIGN_OR_RETURN(Tensor gx, m.Select(kept, g, zeros_x));
  PLUGRT_ASSIGN_OR_RETURN(Tensor gu, GatherAtUpdates(c, g));
  return Grads{gx, Tensor(), gu};
}

// scatter with a built-in combiner, one input. Let r be the result:
//  add: the operand's gradient is g, each update's g gathered from where it
//       went;
//  mul: r is the operand times its updates, so the operand gets g r / x and
//       each update gathered(g r) / u (exact where no factor is zero);
//  max, min: the elements equal to r get the gradient there (every one of
//       them at a tie), operand and updates alike.
// A loaded function as the region: an overwrite has its own rule
// (OverwriteScatterVjp), any other none.
StatusOr<Grads> ScatterVjp(const VjpCall& c) {
  PLUGRT_ASSIGN_OR_RETURN(auto region, Attrs(c).Region("update_computation"));
  if (c.op.inputs().size() != 3) {
    return Unimplemented("no gradient for ", c.op.name(), " of more than one input");
  }
  if (const eager::FunctionRef* f = std::get_if<eager::FunctionRef>(&region)) {
    if (IsOverwrite(c.context(), f->name)) return OverwriteScatterVjp(c);
    return Unimplemented("no gradient for ", c.op.name(), " with the loaded function @", f->name,
                         " as its update computation (built-in add, mul, max, min and an "
                         "overwrite only)");
  }
  const eager::Reducer reducer = std::get<eager::Reducer>(region);
  const Tensor& g = c.output_grads[0];
  const Tensor& x = c.op.inputs()[0];
  const Tensor& u = c.op.inputs()[2];
  TensorMath m(c.context());
  switch (reducer) {
    case eager::Reducer::kAdd: {
      PLUGRT_ASSIGN_OR_RETURN(Tensor gu, GatherAtUpdates(c, g));
      return Grads{g, Tensor(), gu};
    }
    case eager::Reducer::kMul: {
      const Tensor& r = c.outputs[0];
      PLUGRT_ASSIGN_OR_RETURN(Tensor gr, m.Mul(g, r));
      PLUGRT_ASSIGN_OR_RETURN(Tensor gx, m.Div(gr, x));
      PLUGRT_ASSIGN_OR_RETURN(Tensor gr_at_u, GatherAtUpdates(c, gr));
      PLUGRT_ASSIGN_OR_RETURN(Tensor gu, m.Div(gr_at_u, u));
      return Grads{gx, Tensor(), gu};
    }
    case eager::Reducer::kMax:
    case eager::Reducer::kMin: {
      const Tensor& r = c.outputs[0];
      PLUGRT_ASSIGN_OR_RETURN(Tensor zeros_x, m.ZerosLike(x));
      PLUGRT_ASSIGN_OR_RETURN(Tensor x_won, m.Compare(x, r, "EQ"));
      PLUGRT_ASSIGN_OR_RETURN(Tensor gx, m.Select(x_won, g, zeros_x));
      PLUGRT_ASSIGN_OR_RETURN(Tensor r_at_u, GatherAtUpdates(c, r));
      PLUGRT_ASSIGN_OR_RETURN(Tensor g_at_u, GatherAtUpdates(c, g));
      PLUGRT_ASSIGN_OR_RETURN(Tensor zeros_u, m.ZerosLike(u));
      PLUGRT_ASSIGN_OR_RETURN(Tensor u_won, m.Compare(u, r_at_u, "EQ"));
      PLUGRT_ASSIGN_OR_RETURN(Tensor gu, m.Select(u_won, g_at_u, zeros_u));
      return Grads{gx, Tensor(), gu};
    }
    default:
      return Unimplemented("no gradient for ", c.op.name(), " with combiner ",
                           eager::ReducerOpName(reducer));
  }
}

// A comparator that takes one more pair of arguments, two s32 indices, and
// ignores them: `comparator` for the sort that carries an index operand
// along. Loaded once per comparator (as @<comparator>_with_index).
StatusOr<eager::FunctionRef> WithIndexComparator(Context& ctx, const std::string& comparator) {
  const std::string name = comparator + "_with_index";
  if (ctx.functions().Contains(name)) return eager::FunctionRef{name};
  PLUGRT_ASSIGN_OR_RETURN(eager::FunctionSignature sig, ctx.functions().Signature(comparator));
  if (sig.result_types.size() != 1) {
    return InvalidArgument("comparator @", comparator, " must return one i1");
  }
  std::string params, operands, types;
  for (size_t i = 0; i < sig.argument_types.size(); ++i) {
    const std::string sep = i == 0 ? "" : ", ";
    params += sep + "%p" + std::to_string(i) + ": " + sig.argument_types[i];
    operands += sep + "%p" + std::to_string(i);
    types += sep + sig.argument_types[i];
  }
  const std::string text = "func.func private @" + name + "(" + params +
                           ", %i: tensor<i32>, %j: tensor<i32>) -> " + sig.result_types[0] +
                           " {\n  %r = func.call @" + comparator + "(" + operands + ") : (" +
                           types + ") -> " + sig.result_types[0] + "\n  return %r : " +
                           sig.result_types[0] + "\n}\n";
  Status loaded = ctx.LoadFunctions(text);
  // Another thread may have loaded it first.
  if (!loaded.ok() && !ctx.functions().Contains(name)) return loaded;
  return eager::FunctionRef{name};
}

// sort: a permutation of each row. The permutation comes from sorting once
// more with an index operand (a loaded comparator is given one that ignores
// it); each gradient goes back by sorting (index, gradient) pairs by index.
StatusOr<Grads> SortVjp(const VjpCall& c) {
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
  if (Attrs(c).Has("comparator")) {
    PLUGRT_ASSIGN_OR_RETURN(auto region, Attrs(c).Region("comparator"));
    if (const eager::FunctionRef* f = std::get_if<eager::FunctionRef>(&region)) {
      PLUGRT_ASSIGN_OR_RETURN(eager::FunctionRef wrapped,
                              WithIndexComparator(c.context(), f->name));
      PLUGRT_RETURN_IF_ERROR(with_index.SetAttr("comparator", wrapped));
    }
  }
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

void AddIndexingVjps(const AddVjp& add) {
  add("stablehlo.dynamic_slice", DynamicSliceVjp);
  add("stablehlo.dynamic_update_slice", DynamicUpdateSliceVjp);
  add("stablehlo.gather", GatherVjp);
  add("stablehlo.scatter", ScatterVjp);
  add("stablehlo.sort", SortVjp);
}

}  // namespace plugrt::autodiff::internal
