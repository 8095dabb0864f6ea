#include "cpu/exec/program.h"

#include "cpu/exec/program_compiler.h"
#include "cpu/kernels/host_memory.h"
#include "cpu/kernels/parallel.h"
#include "compiler/passes/lower_quantized.h"
#include "profiler/recorder.h"

namespace plugrt::cpu {

StatusOr<std::shared_ptr<const Program>> Program::Compile(
    std::shared_ptr<const shlo::Module> module, const ProgramOptions& options) {
  const shlo::Function* entry = module->EntryFunction();
  if (entry == nullptr) {
    return InvalidArgument(module->location.ToString(),
                           ": the program has no entry function (@main or a single public "
                           "function)");
  }
  // Kernels see storage integers only: quantized ops must have been
  // lowered (CpuExecutable::Compile runs the pass), never run as integers.
  if (passes::HasQuantizedTypes(*module)) {
    return Unimplemented(module->location.ToString(),
                         ": the program has quantized types; run passes::LowerQuantized first");
  }
  ProgramCompiler compiler(*module, options);
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledRegion> body,
                          compiler.CompileFunction(entry->name));
  auto program = std::shared_ptr<Program>(new Program());
  program->module_ = std::move(module);
  program->entry_ = entry;
  program->body_ = std::move(body);
  return std::shared_ptr<const Program>(std::move(program));
}

StatusOr<std::vector<RtValue>> Program::Run(std::vector<RtValue> arguments,
                                            ExecContext& context) const {
  // A run inside a traced run (the harness's run_parallel members) is part
  // of it; otherwise a session makes this run an execute event.
  if (profiler::Enabled() && !context.trace_kernels) return TracedRun(std::move(arguments), context);
  return RunBody(std::move(arguments), context);
}

const std::string& Program::name() const {
  return module_->name.empty() ? entry_->name : module_->name;
}

StatusOr<std::vector<RtValue>> Program::TracedRun(std::vector<RtValue> arguments,
                                                  ExecContext& context) const {
  namespace stat = profiler::stat;
  profiler::TraceEvent event;
  event.name = name();
  event.category = std::string(profiler::category::kExecute);
  if (context.trace_flow == 0) context.trace_flow = profiler::NewFlowId();
  event.flow_id = context.trace_flow;
  context.trace_kernels = true;
  const HostAllocations before = ThreadHostAllocations();
  event.start_ns = profiler::NowNs();
  StatusOr<std::vector<RtValue>> results = RunBody(std::move(arguments), context);
  event.end_ns = profiler::NowNs();
  context.trace_kernels = false;
  const HostAllocations after = ThreadHostAllocations();
  event.stats.push_back({std::string(stat::kProgram), name()});
  event.stats.push_back({std::string(stat::kDevice), context.device_id >= 0 ? context.device_id
                                                                            : context.device_index});
  event.stats.push_back({std::string(stat::kThreads), int64_t{ThreadBudget(context.kernel_threads)}});
  event.stats.push_back({std::string(stat::kPeakLiveBytes), body_->planned_peak_bytes()});
  event.stats.push_back({std::string(stat::kAllocations), after.blocks - before.blocks});
  event.stats.push_back({std::string(stat::kAllocatedBytes), after.bytes - before.bytes});
  event.stats.push_back({"fresh_allocated_bytes", after.fresh_bytes - before.fresh_bytes});
  if (!results.ok()) event.stats.push_back({"error", std::string(results.status().message())});
  profiler::Record(std::move(event));
  return results;
}

StatusOr<std::vector<RtValue>> Program::RunBody(std::vector<RtValue> arguments,
                                                ExecContext& context) const {
  context.frame = nullptr;
  std::map<std::string, std::vector<Tensor>, std::less<>> probes;
  if (context.probes == nullptr) context.probes = &probes;
  StatusOr<std::vector<RtValue>> results = body_->Run(std::move(arguments), context);
  if (context.probes == &probes) context.probes = nullptr;
  return results;
}

}  // namespace plugrt::cpu
