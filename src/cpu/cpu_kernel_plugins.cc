// plugrt CPU backend: loading the kernel and optimizer plugins a client or
// topology is created with (CpuOptions::kernel_plugins, optimizer_plugins)
// for the "cpu" platform.
#include "cpu/cpu_options.h"
#include "cpu/exec/op_registry.h"
#include "kernels_abi/kernel_plugins.h"
#include "compiler/passes/optimizer_plugins.h"

namespace plugrt::cpu {

Status LoadKernelPlugins(CpuOptions& options) {
  if (options.kernel_plugins.empty()) return OkStatus();
  // Either registry's targets are the runtime's own: a plugin may not take
  // their names, with or without the conformance harness.
  auto built_in = [](std::string_view target) {
    return OpRegistry::ConformanceHarness().custom_calls().Find(target) != nullptr;
  };
  PLUGRT_ASSIGN_OR_RETURN(options.program.kernel_plugins,
                          kernels_abi::KernelPlugins::Load(options.kernel_plugins, "cpu", built_in));
  return OkStatus();
}

Status LoadOptimizerPlugins(CpuOptions& options) {
  if (options.optimizer_plugins.empty()) return OkStatus();
  PLUGRT_ASSIGN_OR_RETURN(options.program.pipeline.optimizers,
                          passes::OptimizerPlugins::Load(options.optimizer_plugins, "cpu"));
  return OkStatus();
}

}  // namespace plugrt::cpu
