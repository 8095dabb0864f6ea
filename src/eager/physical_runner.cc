// PhysicalRunner (op_runner.h): the client-side path of an eager op.
#include "eager/op_runner.h"
#include "eager/program_key.h"
#include "eager/program_text.h"
#include "profiler/recorder.h"

namespace plugrt::eager {

namespace {
// The program key of the op this thread last looked up, reused so that a
// cache hit allocates nothing (the key is written and looked up before
// anything else can run on this thread).
std::string& ThreadProgramKey() {
  thread_local std::string key;
  return key;
}

std::string TypesText(const std::vector<std::vector<TensorType>>& groups) {
  std::string text;
  for (const auto& group : groups) {
    for (const TensorType& t : group) text += (text.empty() ? "" : ", ") + ShortTypeText(t);
  }
  return "(" + text + ")";
}

// One replica per device, in order.
StatusOr<CompiledProgram> CompileFor(const Client& client, const std::string& text,
                                     const std::vector<Device>& devices) {
  const int replicas = static_cast<int>(devices.size());
  CompileOptions options;
  options.num_replicas = replicas;
  options.num_partitions = 1;
  options.device_assignment = DeviceAssignment{replicas, 1, {}};
  for (const Device& device : devices) {
    PLUGRT_ASSIGN_OR_RETURN(int id, device.id());
    options.device_assignment->ids.push_back(id);
  }
  CompiledProgram program;
  program.client = &client;
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

// The types of `inputs` (flat), grouped as op's inputs.
std::vector<std::vector<TensorType>> TypesOf(const Op& op, std::span<const Tensor> inputs) {
  std::vector<std::vector<TensorType>> types(op.num_input_groups());
  size_t next = 0;
  for (size_t g = 0; g < types.size(); ++g) {
    const size_t size = op.input_group_size(g);
    for (size_t i = next; i < next + size && i < inputs.size(); ++i) {
      types[g].push_back(inputs[i].state()->type());
    }
    next += size;
  }
  return types;
}

std::vector<Tensor> Flat(const std::vector<std::vector<Tensor>>& groups) {
  std::vector<Tensor> flat;
  for (const auto& group : groups) flat.insert(flat.end(), group.begin(), group.end());
  return flat;
}

void BuffersOf(std::span<const Tensor> inputs, std::vector<Buffer*>& buffers) {
  buffers.clear();
  for (const Tensor& t : inputs) {
    // Execute takes non-const pointers; eager programs donate nothing, so
    // the plugin only reads these buffers.
    buffers.push_back(const_cast<Buffer*>(&t.state()->buffer()));
  }
}

}  // namespace

StatusOr<std::shared_ptr<const CompiledProgram>> PhysicalRunner::Program(
    const Op& op, std::span<const Tensor> inputs, std::span<const NamedDevice> devices) {
  // Device names are unique in a context, and a client's programs leave the
  // cache with it (Context::SetClusterSpec), so the names stand for the
  // client too. A replicated program's key names all its devices (a name
  // has no comma); they are one client's.
  for (const NamedDevice& d : devices) {
    if (d.client == nullptr) return Internal(op.name(), ": device ", d.name, " has no client");
    if (d.client != devices[0].client) {
      return InvalidArgument(op.name(), ": one program runs on the devices of one client (the "
                             "local one or one cluster task); ", d.name, " and ", devices[0].name,
                             " are not");
    }
  }
  std::string replicated;
  for (size_t i = 0; devices.size() > 1 && i < devices.size(); ++i) {
    replicated += (i == 0 ? "" : ",") + devices[i].name;
  }
  std::string& key = ThreadProgramKey();
  WriteProgramKey(devices.size() == 1 ? devices[0].name : replicated, op, inputs, key);
  if (std::shared_ptr<const CompiledProgram> hit = cache_.Find(key)) return hit;
  const std::vector<std::vector<TensorType>> types = TypesOf(op, inputs);
  return cache_.GetOrCompile(std::string(key), [&] {
    std::vector<Device> raw;
    for (const NamedDevice& d : devices) raw.push_back(d.device);
    StatusOr<ProgramText> text =
        op.function() ? BuildFunctionProgram(*op.function(),
                                             types.empty() ? std::vector<TensorType>() : types[0],
                                             library_)
                      : BuildOpProgram(*op.def(), OpCall{op.name(), op.attrs(), types}, library_);
    if (!text.ok()) return StatusOr<CompiledProgram>(text.status());
    StatusOr<CompiledProgram> compiled = CompileFor(*devices[0].client, text->text, raw);
    if (!compiled.ok()) {
      // The plugin's verifier names the rule; this names the eager op.
      return StatusOr<CompiledProgram>(Status(
          compiled.status().code(),
          op.name() + " on " + TypesText(types) + ": " + compiled.status().message()));
    }
    return compiled;
  });
}

StatusOr<Future> PhysicalRunner::Run(const Op& op, std::span<const Tensor> inputs,
                                     const NamedDevice& device, std::vector<Tensor>& outputs) {
  // Under the profiler each op is a slice: finding (or compiling) its
  // program and launching it, with the program's cache key and whether the
  // cache had it; the client's execute and the plugin's run nest inside.
  profiler::ScopedEvent traced(profiler::category::kEager, op.name());
  const int64_t misses = traced.active() ? cache_.stats().misses : 0;
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledProgram> program,
                          Program(op, inputs, {&device, 1}));
  if (traced.active()) {
    traced.AddStat(profiler::stat::kDevice, device.name);
    traced.AddStat(profiler::stat::kProgram, ThreadProgramKey());
    traced.AddStat(profiler::stat::kCacheHit, int64_t{cache_.stats().misses == misses});
  }
  const CompiledProgram& compiled = *program;
  if (compiled.results.size() != outputs.size()) {
    return Internal(op.name(), ": the compiled program has ", compiled.results.size(),
                    " results; the op declares ", outputs.size());
  }
  // The argument table, reused per thread (ExecuteAsync does not come back
  // into the eager layer while it reads it).
  thread_local std::vector<std::vector<Buffer*>> arguments(1);
  BuffersOf(inputs, arguments[0]);
  StatusOr<ExecuteResult> executed = compiled.executable.ExecuteAsync(arguments);
  arguments[0].clear();
  PLUGRT_ASSIGN_OR_RETURN(ExecuteResult result, std::move(executed));
  if (result.outputs.size() != 1 || result.outputs[0].size() != outputs.size() ||
      result.device_complete.size() != 1) {
    return Internal(op.name(), ": the plugin returned an unexpected number of outputs");
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    outputs[i].state()->Resolve(std::move(result.outputs[0][i]), compiled.results[i]);
  }
  return std::move(result.device_complete[0]);
}

StatusOr<std::vector<Future>> PhysicalRunner::RunReplicated(
    const Op& op, const std::vector<std::vector<std::vector<Tensor>>>& inputs,
    const std::vector<NamedDevice>& devices, std::vector<std::vector<Tensor>>& outputs) {
  if (inputs.empty() || inputs.size() != devices.size() || outputs.size() != devices.size()) {
    return Internal(op.name(), ": replicated run over ", devices.size(), " devices got ",
                    inputs.size(), " input lists and ", outputs.size(), " output lists");
  }
  std::vector<std::vector<Tensor>> flat;
  for (const auto& replica : inputs) flat.push_back(Flat(replica));
  const std::vector<std::vector<TensorType>> types = TypesOf(op, flat[0]);
  std::vector<std::vector<Buffer*>> buffers;
  for (size_t r = 0; r < inputs.size(); ++r) {
    // One program for all: every replica's inputs must have its types.
    if (r > 0 && TypesOf(op, flat[r]) != types) {
      return InvalidArgument(op.name(), " runs as one program on ", devices.size(),
                             " devices, so every device's inputs need the same types: ",
                             devices[r].name, " has ", TypesText(TypesOf(op, flat[r])), ", ",
                             devices[0].name, " has ", TypesText(types));
    }
    BuffersOf(flat[r], buffers.emplace_back());
  }
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledProgram> program,
                          Program(op, flat[0], devices));
  PLUGRT_ASSIGN_OR_RETURN(ExecuteResult result, program->executable.ExecuteAsync(buffers));
  if (result.outputs.size() != devices.size() || result.device_complete.size() != devices.size()) {
    return Internal(op.name(), ": the plugin ran ", result.outputs.size(), " replicas of ",
                    devices.size());
  }
  for (size_t r = 0; r < devices.size(); ++r) {
    if (result.outputs[r].size() != outputs[r].size() ||
        program->results.size() != outputs[r].size()) {
      return Internal(op.name(), ": the plugin returned an unexpected number of outputs");
    }
    for (size_t i = 0; i < outputs[r].size(); ++i) {
      outputs[r][i].state()->Resolve(std::move(result.outputs[r][i]), program->results[i]);
    }
  }
  return std::move(result.device_complete).ToVector();
}

StatusOr<Tensor> PhysicalRunner::CopyToDevice(const Tensor& tensor, const NamedDevice& device) {
  return tensor.CopyToDevice(device.device, device.name);
}

}  // namespace plugrt::eager
