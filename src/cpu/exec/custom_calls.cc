// plugrt CPU executor: stablehlo.custom_call. The op's call_target_name is
// looked up in the compiling program's custom-call registry (op_registry.h),
// where the math kernels and, with the conformance harness, the checks
// register their targets by name, then in the client's kernel plugins, then
// in what PJRT's FFI extension registered for the process: XLA FFI handlers,
// which serve typed calls (api_version = 4), and untyped XLA custom-call
// functions, which serve api_version 1 to 3. Each of those is bound by its
// ABI's binder in kernels_abi/ and runs as one kind of compiled op
// (external_custom_call.h). A target found nowhere fails the compile.
#include "cpu/exec/external_custom_call.h"
#include "cpu/exec/op_registry.h"
#include "kernels_abi/custom_call_targets.h"
#include "kernels_abi/kernel_plugins.h"
#include "kernels_abi/untyped_custom_calls.h"
#include "kernels_abi/xla_ffi_call.h"
#include "stablehlo/check_targets.h"

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
    return (*compile)(op, target, context.options());
  }
  const int api_version = kernels_abi::CustomCallApiVersion(op);
  const bool typed_ffi = api_version == 4;
  auto need_typed = [&]() {
    return OpError(op, StatusCode::kInvalidArgument,
                   StrCat("custom call target '", target,
                          "' is an XLA FFI handler; call it with api_version = 4"));
  };
  const std::shared_ptr<kernels_abi::KernelPlugins>& plugins = context.options().kernel_plugins;
  if (plugins != nullptr) {
    if (const kernels_abi::KernelHandlerEntry* entry = plugins->Find(target)) {
      if (entry->xla_custom_call != nullptr) {
        return CompileExternalCustomCall(op, target, kernels_abi::BindUntypedCustomCall(
            op, target, entry->xla_custom_call, api_version, plugins));
      }
      if (entry->xla_ffi_handler == nullptr) {
        return CompileExternalCustomCall(
            op, target, kernels_abi::BindKernelPluginHandler(op, target, plugins, *entry));
      }
      if (!typed_ffi) return need_typed();
      kernels_abi::XlaFfiHandlerEntry ffi;
      ffi.bundle.execute = reinterpret_cast<XLA_FFI_Handler*>(entry->xla_ffi_handler);
      return CompileExternalCustomCall(op, target,
                                       kernels_abi::BindXlaFfiHandler(op, target, ffi, plugins));
    }
  }
  // XLA keeps typed and untyped targets in two registries; the op's
  // api_version says which one it means, and the other one only explains a
  // mismatch.
  std::optional<kernels_abi::XlaFfiHandlerEntry> ffi = kernels_abi::FindXlaFfiHandler(target, "cpu");
  void* untyped = kernels_abi::FindUntypedCustomCall(target, "cpu");
  if (ffi.has_value() && (typed_ffi || untyped == nullptr)) {
    if (!typed_ffi) return need_typed();
    return CompileExternalCustomCall(op, target, kernels_abi::BindXlaFfiHandler(op, target, *ffi));
  }
  if (untyped != nullptr) {
    return CompileExternalCustomCall(
        op, target, kernels_abi::BindUntypedCustomCall(op, target, untyped, api_version));
  }
  if (shlo::IsCheckTarget(target)) {
    return OpError(op, StatusCode::kUnimplemented,
                   StrCat("custom call target '", target,
                          "' is a check of the conformance test harness; it runs only under "
                          "`plugrt conformance` (create option conformance_harness=true)"));
  }
  std::string where = plugins == nullptr || plugins->Targets().empty()
                          ? "not built in, and no kernel plugin is loaded (create option "
                            "kernel_plugins, PLUGRT_KERNEL_PLUGINS, or --kernels PATH)"
                          : "neither built in nor by a loaded kernel plugin";
  if (typed_ffi) {
    where += "; no XLA FFI handler is registered for it on platform cpu (PJRT's FFI extension, "
             "PJRT_FFI_Register_Handler)";
  } else {
    where += "; no untyped XLA custom call is registered for it on platform cpu (PJRT's FFI "
             "extension, PJRT_FFI_Register_Handler with api_version 0)";
  }
  return OpError(op, StatusCode::kUnimplemented,
                 StrCat("no custom call target '", target, "' is registered (", where, ")"));
}

}  // namespace

void RegisterCustomCallOp(OpRegistry& registry) {
  registry.Set(shlo::OpCode::kCustomCall, &CompileCustomCall);
}

}  // namespace plugrt::cpu
