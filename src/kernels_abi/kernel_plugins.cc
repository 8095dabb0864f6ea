#include "kernels_abi/kernel_plugins.h"

#include <dlfcn.h>

#include <algorithm>

#include "common/plugin_library.h"
#include "kernels_abi/kernel_api.h"
#include "stablehlo/element_type.h"

namespace plugrt::kernels_abi {

StatusOr<std::shared_ptr<KernelPlugins>> KernelPlugins::Load(
    const std::vector<std::string>& paths, std::string_view platform,
    const std::function<bool(std::string_view)>& built_in) {
  std::shared_ptr<KernelPlugins> plugins(new KernelPlugins(std::string(platform)));
  for (const std::string& path : paths) {
    // The same library named twice loads once (its targets would clash).
    if (std::count(paths.begin(), paths.begin() + (&path - paths.data()), path) > 0) continue;
    PLUGRT_RETURN_IF_ERROR(plugins->LoadOne(path, built_in));
  }
  return plugins;
}

Status KernelPlugins::LoadOne(const std::string& path,
                              const std::function<bool(std::string_view)>& built_in) {
  PLUGRT_ASSIGN_OR_RETURN(void* library, OpenPluginLibrary("kernel", path));
  libraries_.push_back(library);  // closed by the destructor, also on error
  auto init = reinterpret_cast<PLUGRT_KernelPluginInitFn>(
      dlsym(library, PLUGRT_KERNEL_PLUGIN_INIT_SYMBOL));
  if (init == nullptr) {
    return NotFound("kernel plugin '", path, "' exports no ", PLUGRT_KERNEL_PLUGIN_INIT_SYMBOL,
                    " (is it a plugrt kernel plugin? include/plugrt/kernel_c_api.h)");
  }
  PLUGRT_KernelRegistrar registrar;
  registrar.add = [&](const PLUGRT_KernelRegistration& registration) -> Status {
    if (PlatformKey(registration.platform) != PlatformKey(platform_)) return OkStatus();
    const std::string target = registration.target;
    if (built_in(target)) {
      return MakeError(StatusCode::kAlreadyExists, "custom call target '", target,
                       "' is built into the runtime; a plugin cannot replace it");
    }
    if (const KernelHandlerEntry* existing = registry_.Find(target)) {
      return MakeError(StatusCode::kAlreadyExists, "custom call target '", target,
                       "' is already registered by kernel plugin '", existing->plugin_path, "'");
    }
    return registry_.Register(
        target, KernelHandlerEntry{registration.handler, registration.user_data,
                                   registration.xla_ffi_handler, path,
                                   registration.xla_custom_call, registration.flags});
  };
  Status status;
  try {
    status = TakeKernelStatus(init(KernelApi(), &registrar));
  } catch (...) {
    status = Internal(PLUGRT_KERNEL_PLUGIN_INIT_SYMBOL, " ",
                      CurrentExceptionText());
  }
  if (status.ok()) status = registrar.first_error;
  if (!status.ok()) {
    return Status(status.code(), StrCat("kernel plugin '", path, "': ", status.message()));
  }
  return OkStatus();
}

KernelPlugins::~KernelPlugins() {
  // Delete functions are the plugins' code: they run while it is loaded.
  resources_.DeleteAll();
  for (auto it = libraries_.rbegin(); it != libraries_.rend(); ++it) dlclose(*it);
}

Status KernelPlugins::Call(const KernelHandlerEntry& entry, const CustomCallFrame& frame,
                           const KernelAttributes& attributes) const {
  KernelCallContext context(frame, attributes, resources_, platform_);
  try {
    entry.handler(&context, entry.user_data);
  } catch (...) {
    return Internal("custom call '", frame.target, "' (kernel plugin '", entry.plugin_path,
                    "'): the handler ", CurrentExceptionText());
  }
  if (context.failure != nullptr) {
    Status failure = TakeKernelStatus(context.failure.release());
    return Status(failure.code(), StrCat("custom call '", frame.target, "' failed in kernel plugin '",
                                         entry.plugin_path, "': ", failure.message()));
  }
  return OkStatus();
}

namespace {

class KernelPluginHandler final : public CustomCallHandler {
 public:
  KernelPluginHandler(std::shared_ptr<const KernelPlugins> plugins, const KernelHandlerEntry& entry,
                      std::unique_ptr<const KernelAttributes> attributes)
      : plugins_(std::move(plugins)), entry_(entry), attributes_(std::move(attributes)) {}

  Status Call(const CustomCallFrame& frame) const override {
    return plugins_->Call(entry_, frame, *attributes_);
  }

 private:
  std::shared_ptr<const KernelPlugins> plugins_;
  const KernelHandlerEntry& entry_;  // owned by plugins_
  std::unique_ptr<const KernelAttributes> attributes_;
};

Status KernelTypeRule(std::string_view target, bool is_result, size_t index,
                      const shlo::Type& type) {
  if (!type.is_tensor() || !shlo::ToPjrtType(type.element_type()) ||
      (is_result && !type.has_static_shape())) {
    return Unimplemented("custom call target '", target, "' (a kernel plugin's): ",
                         OperandOrResult(is_result), " ", index, " is ", type.ToString(),
                         "; kernel plugins take tensors",
                         is_result ? " of static shape" : "",
                         " of the element types the kernel ABI names");
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<const CustomCallHandler>> BindKernelPluginHandler(
    const shlo::Operation& op, std::string_view target,
    std::shared_ptr<const KernelPlugins> plugins, const KernelHandlerEntry& entry) {
  PLUGRT_RETURN_IF_ERROR(CheckCustomCallTypes(op, target, &KernelTypeRule));
  PLUGRT_ASSIGN_OR_RETURN(CustomCallAttributes decoded, CustomCallAttributes::FromOperation(op));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<const KernelAttributes> attributes,
                          KernelAttributes::Convert(decoded));
  return std::unique_ptr<const CustomCallHandler>(
      new KernelPluginHandler(std::move(plugins), entry, std::move(attributes)));
}

}  // namespace plugrt::kernels_abi
