#include "autodiff/function_runner.h"

#include <initializer_list>
#include <map>

#include "autodiff/tape.h"
#include "stablehlo/element_type.h"
#include "stablehlo/ir.h"
#include "compiler/importers/mlir/parser.h"

namespace plugrt::autodiff::internal {

namespace {

using shlo::Attribute;
using shlo::Operation;

// Ops given to the eager layer with their operands alone: by the op table,
// the elementwise ops with no required attributes whose result type is their
// operands' (the eager op table holds the same set, eager/op_defs.cc).
bool NoAttributes(const Operation& op) {
  return shlo::IsElementwise(op.code) && shlo::TakesNoAttributes(op.code) &&
         shlo::TraitsOf(op.code).shape == shlo::OpShape::kLikeOperands;
}

StatusOr<PJRT_Buffer_Type> PjrtType(const shlo::Type& type, const Operation& op) {
  std::optional<PJRT_Buffer_Type> t = shlo::ToPjrtType(type.element_type());
  if (!t) return Unimplemented(op.name, ": an element type the eager layer has no name for");
  return *t;
}

StatusOr<std::vector<int64_t>> Ints(const Operation& op, std::string_view name) {
  const Attribute* a = op.attribute(name);
  if (a == nullptr) return InvalidArgument(op.name, " has no attribute '", name, "'");
  return shlo::AttrToIntList(*a);
}

// Each of `names` the op has, as a flat integer list of the same name on the
// eager op (a padding's (low, high) pairs row by row).
Status CopyOptionalInts(const Operation& op, eager::Op& e,
                        std::initializer_list<const char*> names) {
  for (const char* attr : names) {
    if (const Attribute* a = op.attribute(attr)) {
      PLUGRT_ASSIGN_OR_RETURN(auto values, shlo::AttrToIntList(*a));
      PLUGRT_RETURN_IF_ERROR(e.SetAttr(attr, values));
    }
  }
  return OkStatus();
}

// Each field of the struct attribute `name` (the dimension numbers of
// gather, scatter or convolution) as an eager attribute of the field's name: an int or a
// list of ints.
Status CopyStructFields(const Operation& op, eager::Op& e, std::string_view name) {
  const Attribute* numbers = op.attribute(name);
  if (numbers == nullptr || numbers->kind != Attribute::Kind::kStruct) {
    return InvalidArgument(op.name, " without ", name);
  }
  for (const auto& field : numbers->fields) {
    if (field.second.kind == Attribute::Kind::kInteger) {
      PLUGRT_RETURN_IF_ERROR(e.SetAttr(field.first, field.second.int_value));
    } else {
      PLUGRT_ASSIGN_OR_RETURN(auto values, shlo::AttrToIntList(field.second));
      PLUGRT_RETURN_IF_ERROR(e.SetAttr(field.first, values));
    }
  }
  return OkStatus();
}

// A boolean attribute, when the op has it, under the same name.
Status CopyOptionalBool(const Operation& op, eager::Op& e, const char* name) {
  if (const Attribute* a = op.attribute(name)) {
    if (a->kind != Attribute::Kind::kBool) {
      return InvalidArgument(op.name, ": ", name, " is not a bool");
    }
    PLUGRT_RETURN_IF_ERROR(e.SetAttr(name, a->bool_value));
  }
  return OkStatus();
}

// A region that applies one built-in combiner to its two arguments.
StatusOr<eager::Reducer> BuiltinReducer(const Operation& op) {
  if (op.regions.size() != 1 || op.region(0).blocks.size() != 1 ||
      op.region(0).front().operations.size() != 2) {
    return Unimplemented(op.name, " with a region other than one add, multiply, max or min");
  }
  const std::string& combiner = op.region(0).front().operations[0]->name;
  if (combiner == "stablehlo.add") return eager::Reducer::kAdd;
  if (combiner == "stablehlo.multiply") return eager::Reducer::kMul;
  if (combiner == "stablehlo.maximum") return eager::Reducer::kMax;
  if (combiner == "stablehlo.minimum") return eager::Reducer::kMin;
  return Unimplemented(op.name, " with a ", combiner, " region");
}

// The eager op for `op` on `inputs` (flat), run; its results.
StatusOr<std::vector<Tensor>> RunOne(Context& ctx, const Operation& op,
                                     const std::vector<Tensor>& inputs,
                                     const std::optional<std::string>& device) {
  const std::string& name = op.name;
  if (name == "func.call") {
    const Attribute* callee = op.attribute("callee");
    if (callee == nullptr) return InvalidArgument("func.call without a callee");
    return RunFunctionOpByOp(ctx, callee->str, inputs, device);
  }
  eager::Op e(ctx, name);
  if (device) e.SetDevice(*device);
  auto single = [&]() -> Status {
    for (const Tensor& t : inputs) PLUGRT_RETURN_IF_ERROR(e.AddInput(t));
    return OkStatus();
  };
  const shlo::Type& result = op.result(0)->type;
  if (name == "stablehlo.constant") {
    const Attribute* value = op.attribute("value");
    if (value == nullptr || value->kind != Attribute::Kind::kDenseElements || !value->dense) {
      return Unimplemented(name, " without a dense value");
    }
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, PjrtType(result, op));
    eager::DenseTensor dense{eager::TensorType{type, result.dims()}, value->dense->bytes};
    if (value->dense->splat) {
      int64_t count = 1;
      for (int64_t d : result.dims()) count *= d;
      dense.data.clear();
      for (int64_t i = 0; i < count; ++i) {
        dense.data.insert(dense.data.end(), value->dense->bytes.begin(), value->dense->bytes.end());
      }
    }
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("value", std::move(dense)));
  } else if (name == "stablehlo.compare") {
    const Attribute* direction = op.attribute("comparison_direction");
    if (direction == nullptr) return InvalidArgument(name, " without a direction");
    PLUGRT_ASSIGN_OR_RETURN(std::string d, shlo::AttrToEnumValue(*direction));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("comparison_direction", d));
    PLUGRT_RETURN_IF_ERROR(single());
  } else if (name == "stablehlo.convert") {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, PjrtType(result, op));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("element_type", type));
    PLUGRT_RETURN_IF_ERROR(single());
  } else if (name == "stablehlo.reshape") {
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("shape", eager::Shape{result.dims()}));
    PLUGRT_RETURN_IF_ERROR(single());
  } else if (name == "stablehlo.broadcast_in_dim") {
    PLUGRT_ASSIGN_OR_RETURN(auto dims, Ints(op, "broadcast_dimensions"));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("broadcast_dimensions", dims));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("shape", eager::Shape{result.dims()}));
    PLUGRT_RETURN_IF_ERROR(single());
  } else if (name == "stablehlo.transpose" || name == "stablehlo.reverse") {
    const char* attr = name == "stablehlo.transpose" ? "permutation" : "dimensions";
    PLUGRT_ASSIGN_OR_RETURN(auto dims, Ints(op, attr));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr(attr, dims));
    PLUGRT_RETURN_IF_ERROR(single());
  } else if (name == "stablehlo.dot_general") {
    const Attribute* numbers = op.attribute("dot_dimension_numbers");
    if (numbers == nullptr) return InvalidArgument(name, " without dot_dimension_numbers");
    for (const char* field : {"lhs_batching_dimensions", "rhs_batching_dimensions",
                              "lhs_contracting_dimensions", "rhs_contracting_dimensions"}) {
      if (const Attribute* f = numbers->field(field)) {
        PLUGRT_ASSIGN_OR_RETURN(auto dims, shlo::AttrToIntList(*f));
        if (!dims.empty()) PLUGRT_RETURN_IF_ERROR(e.SetAttr(field, dims));
      }
    }
    PLUGRT_RETURN_IF_ERROR(single());
  } else if (name == "stablehlo.slice") {
    for (const char* attr : {"start_indices", "limit_indices", "strides"}) {
      PLUGRT_ASSIGN_OR_RETURN(auto dims, Ints(op, attr));
      PLUGRT_RETURN_IF_ERROR(e.SetAttr(attr, dims));
    }
    PLUGRT_RETURN_IF_ERROR(single());
  } else if (name == "stablehlo.pad") {
    for (const char* attr : {"edge_padding_low", "edge_padding_high", "interior_padding"}) {
      PLUGRT_ASSIGN_OR_RETURN(auto dims, Ints(op, attr));
      PLUGRT_RETURN_IF_ERROR(e.SetAttr(attr, dims));
    }
    PLUGRT_RETURN_IF_ERROR(single());
  } else if (name == "stablehlo.concatenate") {
    const Attribute* dim = op.attribute("dimension");
    if (dim == nullptr) return InvalidArgument(name, " without a dimension");
    PLUGRT_ASSIGN_OR_RETURN(int64_t d, shlo::AttrToInt(*dim));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("dimension", d));
    PLUGRT_RETURN_IF_ERROR(e.AddInputList(inputs));
  } else if (name == "stablehlo.dynamic_slice" || name == "stablehlo.dynamic_update_slice") {
    // The operand (and update) singly, then the start indices as a list.
    const size_t singles = name == "stablehlo.dynamic_slice" ? 1 : 2;
    if (inputs.size() < singles) return InvalidArgument(name, " without its operands");
    if (singles == 1) {
      PLUGRT_ASSIGN_OR_RETURN(auto sizes, Ints(op, "slice_sizes"));
      PLUGRT_RETURN_IF_ERROR(e.SetAttr("slice_sizes", sizes));
    }
    for (size_t i = 0; i < singles; ++i) PLUGRT_RETURN_IF_ERROR(e.AddInput(inputs[i]));
    PLUGRT_RETURN_IF_ERROR(e.AddInputList(std::vector<Tensor>(
        inputs.begin() + static_cast<std::ptrdiff_t>(singles), inputs.end())));
  } else if (name == "stablehlo.iota") {
    const Attribute* dim = op.attribute("iota_dimension");
    if (dim == nullptr) return InvalidArgument(name, " without an iota_dimension");
    PLUGRT_ASSIGN_OR_RETURN(int64_t d, shlo::AttrToInt(*dim));
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, PjrtType(result, op));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("iota_dimension", d));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("element_type", type));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("shape", eager::Shape{result.dims()}));
  } else if (name == "stablehlo.reduce") {
    if (inputs.size() != 2) {
      // The eager layer's built-in body combines each input on its own;
      // a region of several inputs may not.
      return Unimplemented(name, " of more than one input, in a function run op by op");
    }
    PLUGRT_ASSIGN_OR_RETURN(auto dims, Ints(op, "dimensions"));
    PLUGRT_ASSIGN_OR_RETURN(eager::Reducer reducer, BuiltinReducer(op));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("dimensions", dims));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("body", reducer));
    PLUGRT_RETURN_IF_ERROR(e.AddInputList({inputs[0]}));
    PLUGRT_RETURN_IF_ERROR(e.AddInputList({inputs[1]}));
  } else if (name == "stablehlo.convolution") {
    // The dimension numbers' fields under their StableHLO names, as the
    // eager op takes them (it checks that none is missing); the window
    // attributes as flat lists.
    PLUGRT_RETURN_IF_ERROR(CopyStructFields(op, e, "dimension_numbers"));
    if (const Attribute* reversal = op.attribute("window_reversal")) {
      PLUGRT_ASSIGN_OR_RETURN(auto flags, shlo::AttrToIntList(*reversal));
      for (int64_t flag : flags) {
        if (flag != 0) return Unimplemented(name, " with window_reversal, run op by op");
      }
    }
    PLUGRT_RETURN_IF_ERROR(CopyOptionalInts(op, e, {"window_strides", "padding", "lhs_dilation",
                                                    "rhs_dilation"}));
    for (const char* attr : {"feature_group_count", "batch_group_count"}) {
      if (const Attribute* a = op.attribute(attr)) {
        PLUGRT_ASSIGN_OR_RETURN(int64_t v, shlo::AttrToInt(*a));
        PLUGRT_RETURN_IF_ERROR(e.SetAttr(attr, v));
      }
    }
    PLUGRT_RETURN_IF_ERROR(single());
  } else if (name == "stablehlo.gather") {
    PLUGRT_RETURN_IF_ERROR(CopyStructFields(op, e, "dimension_numbers"));
    PLUGRT_ASSIGN_OR_RETURN(auto sizes, Ints(op, "slice_sizes"));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("slice_sizes", sizes));
    PLUGRT_RETURN_IF_ERROR(CopyOptionalBool(op, e, "indices_are_sorted"));
    PLUGRT_RETURN_IF_ERROR(single());
  } else if (name == "stablehlo.scatter") {
    // One input, its indices and one update (the eager layer's built-in
    // combiners act on each input on its own).
    if (inputs.size() != 3) {
      return Unimplemented(name, " of more than one input, in a function run op by op");
    }
    PLUGRT_RETURN_IF_ERROR(CopyStructFields(op, e, "scatter_dimension_numbers"));
    PLUGRT_RETURN_IF_ERROR(CopyOptionalBool(op, e, "indices_are_sorted"));
    PLUGRT_RETURN_IF_ERROR(CopyOptionalBool(op, e, "unique_indices"));
    PLUGRT_ASSIGN_OR_RETURN(eager::Reducer reducer, BuiltinReducer(op));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("update_computation", reducer));
    PLUGRT_RETURN_IF_ERROR(e.AddInputList({inputs[0]}));
    PLUGRT_RETURN_IF_ERROR(e.AddInput(inputs[1]));
    PLUGRT_RETURN_IF_ERROR(e.AddInputList({inputs[2]}));
  } else if (name == "stablehlo.reduce_window") {
    if (inputs.size() != 2) {
      return Unimplemented(name, " of more than one input, in a function run op by op");
    }
    PLUGRT_ASSIGN_OR_RETURN(auto window, Ints(op, "window_dimensions"));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("window_dimensions", window));
    PLUGRT_RETURN_IF_ERROR(CopyOptionalInts(
        op, e, {"window_strides", "base_dilations", "window_dilations", "padding"}));
    PLUGRT_ASSIGN_OR_RETURN(eager::Reducer reducer, BuiltinReducer(op));
    PLUGRT_RETURN_IF_ERROR(e.SetAttr("body", reducer));
    PLUGRT_RETURN_IF_ERROR(e.AddInputList({inputs[0]}));
    PLUGRT_RETURN_IF_ERROR(e.AddInputList({inputs[1]}));
  } else if (NoAttributes(op)) {
    PLUGRT_RETURN_IF_ERROR(single());
  } else {
    return Unimplemented(name, " cannot be run op by op (in a loaded function differentiated "
                         "without a rule of its own; register a VJP for the function)");
  }
  return e.Execute();
}

}  // namespace

StatusOr<std::vector<Tensor>> RunFunctionOpByOp(Context& ctx, std::string_view name,
                                                const std::vector<Tensor>& args,
                                                const std::optional<std::string>& device) {
  PLUGRT_ASSIGN_OR_RETURN(std::string text, ctx.functions().DefinitionsFor({std::string(name)}));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module, shlo::ParseModule(text, name));
  const shlo::Function* f = module->FindFunction(name);
  if (f == nullptr || f->body == nullptr || f->body->blocks.size() != 1) {
    return NotFound("function @", name, " has no single-block body to run");
  }
  const shlo::Block& block = f->body->front();
  if (block.arguments.size() != args.size()) {
    return InvalidArgument("@", name, " takes ", block.arguments.size(), " arguments; got ",
                           args.size());
  }
  std::map<const shlo::Value*, Tensor> values;
  for (size_t i = 0; i < args.size(); ++i) values[block.arguments[i].get()] = args[i];
  for (const auto& op : block.operations) {
    std::vector<Tensor> inputs;
    for (const shlo::Value* v : op->operands) {
      auto it = values.find(v);
      if (it == values.end()) return Internal("@", name, ": an operand of ", op->name, " is unset");
      inputs.push_back(it->second);
    }
    if (op->name == "func.return" || op->name == "stablehlo.return") return inputs;
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, RunOne(ctx, *op, inputs, device));
    if (outputs.size() != op->results.size()) {
      return Internal("@", name, ": ", op->name, " made ", outputs.size(), " results for ",
                      op->results.size());
    }
    for (size_t r = 0; r < outputs.size(); ++r) values[op->result(r)] = outputs[r];
  }
  return InvalidArgument("function @", name, " does not end in a return");
}

StatusOr<std::vector<Tensor>> FunctionVjp(const VjpCall& call) {
  Context& ctx = call.context();
  std::vector<Tensor> args(call.op.inputs().begin(), call.op.inputs().end());
  Tape tape(ctx);
  for (const Tensor& a : args) tape.Watch(a);
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> outputs,
                          RunFunctionOpByOp(ctx, call.op.name(), args));
  std::vector<Tensor> targets, weights;
  for (size_t o = 0; o < outputs.size() && o < call.output_grads.size(); ++o) {
    if (!call.output_grads[o]) continue;
    targets.push_back(outputs[o]);
    weights.push_back(call.output_grads[o]);
  }
  return tape.Gradient(targets, args, weights, UnconnectedGradients::kNone);
}

StatusOr<std::vector<Tensor>> WhileVjp(const VjpCall& call) {
  const eager::AttrReader a(call.op.name(), call.op.attrs());
  PLUGRT_ASSIGN_OR_RETURN(eager::FunctionRef cond, a.Function("cond"));
  PLUGRT_ASSIGN_OR_RETURN(eager::FunctionRef body, a.Function("body"));
  Context& ctx = call.context();
  std::vector<Tensor> args(call.op.inputs().begin(), call.op.inputs().end());
  // The loop again, unrolled under a private tape: the trip count is the
  // one the op ran (the values are the same), read from the condition.
  Tape tape(ctx);
  for (const Tensor& t : args) tape.Watch(t);
  std::vector<Tensor> carried = args;
  for (;;) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> go, RunFunctionOpByOp(ctx, cond.name, carried));
    if (go.size() != 1) return InvalidArgument("@", cond.name, " must return one i1");
    PLUGRT_ASSIGN_OR_RETURN(std::vector<std::byte> flag, go[0].ToHost());
    if (flag.size() != 1) return InvalidArgument("@", cond.name, " must return one i1");
    if (flag[0] == std::byte{0}) break;
    PLUGRT_ASSIGN_OR_RETURN(carried, RunFunctionOpByOp(ctx, body.name, carried));
  }
  std::vector<Tensor> targets, weights;
  for (size_t o = 0; o < carried.size() && o < call.output_grads.size(); ++o) {
    if (!call.output_grads[o]) continue;
    targets.push_back(carried[o]);
    weights.push_back(call.output_grads[o]);
  }
  return tape.Gradient(targets, args, weights, UnconnectedGradients::kNone);
}

VjpFunction ResolveVjp(const eager::Op& op) {
  if (const VjpFunction* registered = FindVjp(op.name())) return *registered;
  if (op.is_function()) return FunctionVjp;
  return nullptr;
}

}  // namespace plugrt::autodiff::internal
