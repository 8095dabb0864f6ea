#include "cpu/exec/program.h"

#include "cpu/exec/interpreter.h"
#include "passes/lower_quantized.h"

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
  context.frame = nullptr;
  std::map<std::string, std::vector<Tensor>, std::less<>> probes;
  if (context.probes == nullptr) context.probes = &probes;
  StatusOr<std::vector<RtValue>> results = body_->Run(std::move(arguments), context);
  if (context.probes == &probes) context.probes = nullptr;
  return results;
}

}  // namespace plugrt::cpu
