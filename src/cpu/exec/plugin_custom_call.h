// plugrt CPU executor: a stablehlo.custom_call served by a kernel plugin's
// handler (include/plugrt/kernel_c_api.h, kernels_abi/kernel_plugins.h).
#ifndef PLUGRT_CPU_EXEC_PLUGIN_CUSTOM_CALL_H_
#define PLUGRT_CPU_EXEC_PLUGIN_CUSTOM_CALL_H_

#include <memory>

#include "cpu/exec/compiled_op.h"
#include "kernels_abi/kernel_plugins.h"

namespace plugrt::cpu {

// Checks the call's operand and result types (tensors of element types the
// kernel ABI names, results of static shape) and converts its attributes;
// errors name the op and the target. The compiled op keeps `plugins` alive.
StatusOr<std::unique_ptr<CompiledOp>> CompilePluginCustomCall(
    const shlo::Operation& op, std::string_view target,
    std::shared_ptr<const kernels_abi::KernelPlugins> plugins,
    const kernels_abi::KernelHandlerEntry& entry);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_PLUGIN_CUSTOM_CALL_H_
