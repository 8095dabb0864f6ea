// plugrt CPU executor: a stablehlo.custom_call served by a kernel plugin's
// handler (include/plugrt/kernel_c_api.h, kernels_abi/kernel_plugins.h).
#ifndef PLUGRT_CPU_EXEC_PLUGIN_CUSTOM_CALL_H_
#define PLUGRT_CPU_EXEC_PLUGIN_CUSTOM_CALL_H_

#include <memory>
#include <string_view>
#include <vector>

#include "cpu/exec/compiled_op.h"
#include "kernels_abi/kernel_plugins.h"

namespace plugrt::cpu {

// Checks one operand or result type of a custom call for a handler ABI
// (`what`: "operand" or "result"; results must have static shapes).
using CustomCallTypeCheck = Status (*)(const shlo::Operation& op, std::string_view target,
                                       const char* what, size_t index, const shlo::Type& type,
                                       bool need_static);

// The call's operand and result types, each passed through `check`: what
// every external handler (kernel plugin, XLA FFI) needs before it compiles.
Status CustomCallTypes(const shlo::Operation& op, std::string_view target,
                       CustomCallTypeCheck check, std::vector<shlo::Type>* operand_types,
                       std::vector<shlo::Type>* result_types);

// Checks the call's operand and result types (tensors of element types the
// kernel ABI names, results of static shape) and converts its attributes;
// errors name the op and the target. The compiled op keeps `plugins` alive.
StatusOr<std::unique_ptr<CompiledOp>> CompilePluginCustomCall(
    const shlo::Operation& op, std::string_view target,
    std::shared_ptr<const kernels_abi::KernelPlugins> plugins,
    const kernels_abi::KernelHandlerEntry& entry);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_PLUGIN_CUSTOM_CALL_H_
