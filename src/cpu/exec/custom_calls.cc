// plugrt CPU executor: stablehlo.custom_call. The op's call_target_name is
// looked up in the compiling program's custom-call registry (op_registry.h),
// where the math kernels and, with the conformance harness, the checks
// register their targets by name, then in the client's kernel plugins
// (plugin_custom_call.h). A target found in neither fails the compile.
#include "cpu/exec/op_registry.h"
#include "cpu/exec/plugin_custom_call.h"
#include "kernels_abi/custom_call_targets.h"

namespace plugrt::cpu {
namespace {

StatusOr<std::unique_ptr<CompiledOp>> CompileCustomCall(const shlo::Operation& op,
                                                        CompileContext& context) {
  const shlo::Attribute* attr = op.attribute("call_target_name");
  if (attr == nullptr || attr->kind != shlo::Attribute::Kind::kString) {
    return OpError(op, StatusCode::kInvalidArgument, "needs 'call_target_name'");
  }
  const std::string& target = attr->str;
  if (const CompileCustomCallFn* compile = context.registry().custom_calls().Find(target)) {
    return (*compile)(op, target);
  }
  const std::shared_ptr<kernels_abi::KernelPlugins>& plugins = context.options().kernel_plugins;
  if (plugins != nullptr) {
    if (const kernels_abi::KernelHandlerEntry* entry = plugins->Find(target)) {
      return CompilePluginCustomCall(op, target, plugins, *entry);
    }
  }
  if (kernels_abi::IsCheckTarget(target)) {
    return OpError(op, StatusCode::kUnimplemented,
                   StrCat("custom call target '", target,
                          "' is a check of the conformance test harness; it runs only under "
                          "`plugrt conformance` (create option conformance_harness=true)"));
  }
  return OpError(op, StatusCode::kUnimplemented,
                 StrCat("no custom call target '", target, "' is registered",
                        plugins == nullptr || plugins->Targets().empty()
                            ? " (no kernel plugin is loaded: create option kernel_plugins, "
                              "PLUGRT_KERNEL_PLUGINS, or --kernels PATH)"
                            : " (neither built in nor by a loaded kernel plugin)"));
}

}  // namespace

void RegisterCustomCallOp(OpRegistry& registry) {
  registry.Set(shlo::OpCode::kCustomCall, &CompileCustomCall);
}

}  // namespace plugrt::cpu
