// PhysicalRunner (op_runner.h): the client-side path of an eager op.
#include "eager/op_runner.h"
#include "eager/program_key.h"
#include "eager/program_text.h"

namespace plugrt::eager {

namespace {

std::string TypesText(const std::vector<std::vector<TensorType>>& groups) {
  std::string text;
  for (const auto& group : groups) {
    for (const TensorType& t : group) text += (text.empty() ? "" : ", ") + ShortTypeText(t);
  }
  return "(" + text + ")";
}

StatusOr<CompiledProgram> CompileFor(const Client& client, const std::string& text,
                                     const Device& device) {
  PLUGRT_ASSIGN_OR_RETURN(int id, device.id());
  CompileOptions options;
  options.num_replicas = 1;
  options.num_partitions = 1;
  options.device_assignment = DeviceAssignment{1, 1, {id}};
  CompiledProgram program;
  PLUGRT_ASSIGN_OR_RETURN(program.executable, client.Compile(text, options));
  PLUGRT_ASSIGN_OR_RETURN(auto types, program.executable.output_element_types());
  PLUGRT_ASSIGN_OR_RETURN(auto dims, program.executable.output_dimensions());
  if (types.size() != dims.size()) {
    return Internal("the plugin reports ", types.size(), " output types but ", dims.size(),
                    " output shapes");
  }
  for (size_t i = 0; i < types.size(); ++i) program.results.push_back({types[i], dims[i]});
  return program;
}

}  // namespace

StatusOr<Future> PhysicalRunner::Run(const Op& op, const std::vector<std::vector<Tensor>>& inputs,
                                     const NamedDevice& device, std::vector<Tensor>& outputs) {
  std::vector<std::vector<TensorType>> types;
  std::vector<Buffer*> buffers;
  for (const auto& group : inputs) {
    types.emplace_back();
    for (const Tensor& t : group) {
      types.back().push_back(t.state()->type());
      // Execute takes non-const pointers; eager programs donate nothing, so
      // the plugin only reads these buffers.
      buffers.push_back(const_cast<Buffer*>(&t.state()->buffer()));
    }
  }
  // The text is built only when the key misses.
  const std::string key = ProgramKey(device.name, op.name(), op.attrs(), types);
  StatusOr<std::shared_ptr<const CompiledProgram>> program = cache_.GetOrCompile(key, [&] {
    StatusOr<ProgramText> text =
        op.function() ? BuildFunctionProgram(*op.function(),
                                             types.empty() ? std::vector<TensorType>() : types[0],
                                             library_)
                      : BuildOpProgram(*op.def(), OpCall{op.name(), op.attrs(), types}, library_);
    if (!text.ok()) return StatusOr<CompiledProgram>(text.status());
    StatusOr<CompiledProgram> compiled = CompileFor(client_, text->text, device.device);
    if (!compiled.ok()) {
      // The plugin's verifier names the rule; this names the eager op.
      return StatusOr<CompiledProgram>(Status(
          compiled.status().code(),
          op.name() + " on " + TypesText(types) + ": " + compiled.status().message()));
    }
    return compiled;
  });
  if (!program.ok()) return program.status();
  const CompiledProgram& compiled = **program;
  if (compiled.results.size() != outputs.size()) {
    return Internal(op.name(), ": the compiled program has ", compiled.results.size(),
                    " results; the op declares ", outputs.size());
  }
  PLUGRT_ASSIGN_OR_RETURN(ExecuteResult result, compiled.executable.ExecuteAsync({buffers}));
  if (result.outputs.size() != 1 || result.outputs[0].size() != outputs.size() ||
      result.device_complete.size() != 1) {
    return Internal(op.name(), ": the plugin returned an unexpected number of outputs");
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    outputs[i].state()->Resolve(std::move(result.outputs[0][i]), compiled.results[i]);
  }
  return std::move(result.device_complete[0]);
}

StatusOr<Tensor> PhysicalRunner::CopyToDevice(const Tensor& tensor, const NamedDevice& device) {
  return tensor.CopyToDevice(device.device, device.name);
}

}  // namespace plugrt::eager
