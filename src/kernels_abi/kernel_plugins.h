// plugrt kernel plugins: the kernel plugins one client loaded, the handlers
// they registered for its platform, and the resources their handlers keep.
//
// Each client loads its own set (create option kernel_plugins, environment
// variable PLUGRT_KERNEL_PLUGINS): a plugin's init function runs once per
// client that loads it, and each client's resources are its own. Compiled
// programs hold the set (a shared_ptr), so the libraries stay loaded while a
// program that calls them exists; the client deletes the resources when it
// is destroyed.
#ifndef PLUGRT_KERNELS_ABI_KERNEL_PLUGINS_H_
#define PLUGRT_KERNELS_ABI_KERNEL_PLUGINS_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "kernels_abi/custom_call_registry.h"
#include "kernels_abi/custom_call_frame.h"
#include "kernels_abi/kernel_attributes.h"
#include "kernels_abi/kernel_resources.h"
#include "plugrt/kernel_c_api.h"

namespace plugrt::kernels_abi {

// The environment variable of kernel plugins to load: paths separated by ':'.
inline constexpr const char* kKernelPluginsEnv = "PLUGRT_KERNEL_PLUGINS";

// One registered handler.
struct KernelHandlerEntry {
  PLUGRT_KernelHandler handler = nullptr;
  void* user_data = nullptr;
  // Instead of `handler`: an XLA FFI handler (XLA_FFI_Handler*) the plugin
  // registered through the kernel ABI (kernel API 1.1).
  void* xla_ffi_handler = nullptr;
  std::string plugin_path;  // for error messages
  // Instead of `handler`: an untyped XLA custom-call function (kernel API
  // 1.2); the call's api_version (1 to 3) gives its signature.
  void* xla_custom_call = nullptr;
  // PLUGRT_KernelFlags bits (kernel API 1.2).
  uint32_t flags = 0;
};

// `text` split at ':' (empty pieces dropped).
class KernelPlugins {
 public:
  // Loads each library of `paths` in order and runs its init function,
  // keeping the handlers registered for `platform` (compared without case;
  // "host" is accepted as a name of "cpu"). `built_in` says which targets the
  // backend defines itself: a plugin may not register those. Errors name the
  // path (and the target): NOT_FOUND for a missing file or init function,
  // ALREADY_EXISTS for a target registered twice, FAILED_PRECONDITION for an
  // incompatible kernel API version, the init function's own error, INTERNAL
  // when it throws. Nothing stays loaded after an error.
  static StatusOr<std::shared_ptr<KernelPlugins>> Load(
      const std::vector<std::string>& paths, std::string_view platform,
      const std::function<bool(std::string_view)>& built_in);

  // Deletes the resources, then unloads the libraries.
  ~KernelPlugins();
  KernelPlugins(const KernelPlugins&) = delete;
  KernelPlugins& operator=(const KernelPlugins&) = delete;

  const std::string& platform() const { return platform_; }
  // The handler of `target`, or null.
  const KernelHandlerEntry* Find(std::string_view target) const { return registry_.Find(target); }
  std::vector<std::string> Targets() const { return registry_.Names(); }

  // Runs `entry`'s handler on `frame`, its attributes as `attributes`. The
  // handler's failure, or an exception it throws, becomes an error naming
  // the target and the plugin.
  Status Call(const KernelHandlerEntry& entry, const CustomCallFrame& frame,
              const KernelAttributes& attributes) const;

  // Deletes every resource now (the client's destruction); calls made
  // afterwards start over with none.
  void DeleteResources() const { resources_.DeleteAll(); }

 private:
  explicit KernelPlugins(std::string platform) : platform_(std::move(platform)) {}
  Status LoadOne(const std::string& path, const std::function<bool(std::string_view)>& built_in);

  std::string platform_;
  std::vector<void*> libraries_;  // dlopen handles
  CustomCallRegistry<KernelHandlerEntry> registry_;
  mutable KernelResourceStore resources_;  // internally synchronized
};

// `entry`'s handler bound to the call site `op` (target `target`): its
// operand and result types checked (tensors of element types the kernel ABI
// names, results of static shape), its attributes converted once. The
// handler keeps `plugins` alive. UNIMPLEMENTED / INVALID_ARGUMENT naming the
// target.
StatusOr<std::unique_ptr<const CustomCallHandler>> BindKernelPluginHandler(
    const shlo::Operation& op, std::string_view target,
    std::shared_ptr<const KernelPlugins> plugins, const KernelHandlerEntry& entry);

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_KERNEL_PLUGINS_H_
