#include "autodiff/gradient_program.h"

#include <atomic>
#include <set>

#include "autodiff/function_runner.h"
#include "autodiff/tape.h"
#include "autodiff/trace_device.h"
#include "stablehlo/element_type.h"
#include "stablehlo/ir.h"
#include "compiler/importers/mlir/parser.h"
#include "stablehlo/printer.h"
#include "stablehlo/verifier.h"

namespace plugrt::autodiff {

namespace {

using eager::Tensor;
using eager::TensorType;

std::string Join(const std::vector<std::string>& parts) {
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : ", ") + parts[i];
  return text;
}

void RenameCallees(shlo::Region& region, const std::string& prefix) {
  for (auto& block : region.blocks) {
    for (auto& op : block->operations) {
      for (auto& [name, attr] : op->attributes) {
        if (name == "callee") attr.str = prefix + attr.str;
      }
      for (auto& inner : op->regions) RenameCallees(*inner, prefix);
    }
  }
}

StatusOr<TensorType> StaticType(const shlo::Type& type, const std::string& what) {
  if (!type.is_tensor() || type.is_quantized()) {
    return Unimplemented(what, " is not a plain tensor; gradient programs take tensors");
  }
  std::optional<PJRT_Buffer_Type> element = shlo::ToPjrtType(type.element_type());
  if (!element) return Unimplemented(what, " has an element type the eager layer has no name for");
  for (int64_t d : type.dims()) {
    if (d < 0) return Unimplemented(what, " has a dynamic dimension; gradients need static shapes");
  }
  return TensorType{*element, type.dims()};
}

}  // namespace

StatusOr<std::string> GradientProgram(eager::Context& context, std::string_view program,
                                      const GradientProgramOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module,
                          shlo::ParseModule(program, "<program>"));
  PLUGRT_RETURN_IF_ERROR(shlo::VerifyModule(*module));
  shlo::Function* entry = nullptr;
  for (auto& f : module->functions) {
    if (f->name == options.entry) entry = f.get();
  }
  if (entry == nullptr) return InvalidArgument("the program has no function @", options.entry);
  if (entry->body == nullptr || entry->body->blocks.size() != 1) {
    return InvalidArgument("@", options.entry, " has no single-block body to differentiate");
  }

  // The program's functions are loaded under a prefix of their own: the
  // library refuses "main" and names it already holds.
  static std::atomic<int> programs{0};
  const std::string prefix = "grad" + std::to_string(programs++) + "_";
  for (auto& f : module->functions) {
    f->name = prefix + f->name;
    if (f->body) RenameCallees(*f->body, prefix);
  }
  PLUGRT_RETURN_IF_ERROR(context.LoadFunctions(shlo::PrintModule(*module)));

  const size_t num_args = entry->input_types.size();
  std::vector<TensorType> arg_types, result_types;
  for (size_t i = 0; i < num_args; ++i) {
    PLUGRT_ASSIGN_OR_RETURN(TensorType t, StaticType(entry->input_types[i],
                                                     "argument " + std::to_string(i)));
    arg_types.push_back(std::move(t));
  }
  for (size_t i = 0; i < entry->result_types.size(); ++i) {
    PLUGRT_ASSIGN_OR_RETURN(TensorType t, StaticType(entry->result_types[i],
                                                     "result " + std::to_string(i)));
    result_types.push_back(std::move(t));
  }
  if (result_types.empty()) return InvalidArgument("@", options.entry, " returns nothing");

  std::vector<int64_t> wrt = options.wrt;
  if (wrt.empty()) {
    for (size_t i = 0; i < num_args; ++i) {
      if (IsDifferentiable(arg_types[i].type)) wrt.push_back(static_cast<int64_t>(i));
    }
    if (wrt.empty()) {
      return InvalidArgument("@", options.entry,
                             " has no floating-point argument to differentiate");
    }
  }
  std::set<int64_t> seen;
  for (int64_t w : wrt) {
    if (w < 0 || static_cast<size_t>(w) >= num_args) {
      return InvalidArgument("--wrt ", w, ": @", options.entry, " has ", num_args, " arguments");
    }
    if (!seen.insert(w).second) return InvalidArgument("--wrt names argument ", w, " twice");
    if (!IsDifferentiable(arg_types[w].type)) {
      return InvalidArgument("--wrt ", w, ": argument ", w, " is ",
                             eager::ShortTypeText(arg_types[w]),
                             "; only floating-point arguments have gradients");
    }
  }

  const std::string device_name = prefix + "trace";
  auto owned = std::make_unique<TraceDevice>(device_name);
  TraceDevice* trace = owned.get();
  PLUGRT_RETURN_IF_ERROR(context.RegisterCustomDevice(device_name, std::move(owned)));

  std::vector<std::string> params;
  std::vector<Tensor> args;
  for (size_t i = 0; i < num_args; ++i) {
    std::string value = "%arg" + std::to_string(i);
    PLUGRT_ASSIGN_OR_RETURN(std::string type, eager::StablehloTypeText(arg_types[i]));
    params.push_back(value + ": " + type);
    PLUGRT_ASSIGN_OR_RETURN(Tensor t, trace->Argument(context, arg_types[i], value));
    args.push_back(std::move(t));
  }
  std::vector<Tensor> seeds;
  if (options.vjp) {
    for (size_t i = 0; i < result_types.size(); ++i) {
      std::string value = "%arg" + std::to_string(num_args + i);
      PLUGRT_ASSIGN_OR_RETURN(std::string type, eager::StablehloTypeText(result_types[i]));
      params.push_back(value + ": " + type);
      PLUGRT_ASSIGN_OR_RETURN(Tensor t, trace->Argument(context, result_types[i], value));
      seeds.push_back(std::move(t));
    }
  }

  std::vector<Tensor> sources;
  for (int64_t w : wrt) sources.push_back(args[w]);
  std::vector<Tensor> results, gradients;
  {
    Tape tape(context);
    for (const Tensor& s : sources) tape.Watch(s);
    PLUGRT_ASSIGN_OR_RETURN(results, internal::RunFunctionOpByOp(context, prefix + options.entry,
                                                                 args, device_name));
    // Results that carry no gradient (integers) take no part.
    std::vector<Tensor> targets, weights;
    for (size_t i = 0; i < results.size(); ++i) {
      if (!IsDifferentiable(result_types[i].type)) continue;
      targets.push_back(results[i]);
      if (options.vjp) weights.push_back(seeds[i]);
    }
    if (targets.empty()) {
      return InvalidArgument("@", options.entry, " has no floating-point result to differentiate");
    }
    PLUGRT_ASSIGN_OR_RETURN(gradients, tape.Gradient(targets, sources, weights,
                                                     UnconnectedGradients::kZero));
  }
  if (options.sgd_learning_rate) {
    const TensorMath math(context);
    for (size_t i = 0; i < gradients.size(); ++i) {
      PLUGRT_ASSIGN_OR_RETURN(Tensor step, math.Scale(gradients[i], *options.sgd_learning_rate));
      PLUGRT_ASSIGN_OR_RETURN(gradients[i], math.Sub(sources[i], step));
    }
  }

  // What @main returns, each a value of the trace (a physical tensor, which
  // no path here makes, would be embedded as a constant).
  std::vector<Tensor> returned;
  if (options.with_value) returned = results;
  returned.insert(returned.end(), gradients.begin(), gradients.end());
  std::vector<std::string> values, types;
  for (Tensor& t : returned) {
    if (t.device_name() != device_name) {
      PLUGRT_ASSIGN_OR_RETURN(t, trace->CopyToDevice(context, t));
    }
    PLUGRT_ASSIGN_OR_RETURN(std::string value, trace->ValueOf(t));
    PLUGRT_ASSIGN_OR_RETURN(TensorType type, t.type());
    PLUGRT_ASSIGN_OR_RETURN(std::string type_text, eager::StablehloTypeText(type));
    values.push_back(std::move(value));
    types.push_back(std::move(type_text));
  }

  std::string text;
  const std::set<std::string>& functions = trace->functions();
  if (!functions.empty()) {
    const std::vector<std::string> names(functions.begin(), functions.end());
    PLUGRT_ASSIGN_OR_RETURN(text, context.functions().DefinitionsFor(names));
  }
  text += "func.func @" + options.name + "(" + Join(params) + ") -> (" + Join(types) + ") {\n";
  for (const std::string& line : trace->Body(values)) text += "  " + line + "\n";
  text += "  \"func.return\"(" + Join(values) + ") : (" + Join(types) + ") -> ()\n}\n";

  // The transformation's own check: a failure here is a bug in a rule or in
  // the trace, reported with the text's line.
  StatusOr<std::unique_ptr<shlo::Module>> written = shlo::ParseModule(text, "<gradient program>");
  if (!written.ok()) {
    return Internal("the gradient program does not parse: ", written.status().message());
  }
  Status verified = shlo::VerifyModule(**written);
  if (!verified.ok()) {
    return Internal("the gradient program fails verification: ", verified.message());
  }
  return text;
}

}  // namespace plugrt::autodiff
