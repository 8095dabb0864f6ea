#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>

#include "client/plugin_discovery.h"
#include "tools/commands.h"
#include "tools/job_env.h"

namespace plugrt::tools {
namespace {

// The CPU plugin's create option and attribute of that name
// (src/cpu/cpu_options.h).
constexpr const char* kConformanceHarnessOption = "conformance_harness";

}  // namespace

void AddPluginOptions(CLI::App& command, PluginOptions& options) {
  command.add_option("--plugin", options.plugin_path,
                     "PJRT plugin to load: a name (see `plugrt plugins`) or the path of a shared "
                     "library exporting GetPjrtApi; default: the CPU plugin");
  command.add_option("--devices", options.devices,
                     "number of devices to create (sets the cpu_device_count create option)")
      ->check(CLI::Range(1, 1024));
  AddKernelsOption(command, options.kernels);
  AddOptimizersOption(command, options.optimizers);
}

void AddKernelsOption(CLI::App& command, std::vector<std::string>& kernels) {
  command.add_option("--kernels", kernels,
                     "kernel plugin to load (a shared library exporting "
                     "PLUGRT_KernelPlugin_Init; repeatable; sets the kernel_plugins create "
                     "option, added to $PLUGRT_KERNEL_PLUGINS)")
      ->allow_extra_args(false);  // one path per flag: positional arguments may follow
}

void AddOptimizersOption(CLI::App& command, std::vector<std::string>& optimizers) {
  command.add_option("--optimizers", optimizers,
                     "optimizer plugin to load (a shared library exporting "
                     "PLUGRT_OptimizerPlugin_Init; repeatable; sets the optimizer_plugins create "
                     "option, added to $PLUGRT_OPTIMIZER_PLUGINS)")
      ->allow_extra_args(false);
}

void AddPathListOption(const char* name, const std::vector<std::string>& paths,
                       std::vector<NamedValue>& create_options) {
  if (paths.empty()) return;
  std::string joined;
  for (const std::string& path : paths) {
    if (!joined.empty()) joined += ':';
    joined += path;
  }
  create_options.push_back(NamedValue{name, joined});
}

void AddKernelPluginsOption(const std::vector<std::string>& kernels,
                            std::vector<NamedValue>& create_options) {
  AddPathListOption("kernel_plugins", kernels, create_options);
}

std::string DefaultPluginPath() {
  if (const char* env = std::getenv("PLUGRT_CPU_PLUGIN"); env != nullptr && *env != '\0') {
    return env;
  }
  // plugrt's own, installed (P/lib/plugrt/) or in the build tree
  // (build/lib/plugrt/); not whatever the environment calls "cpu" (JAX's
  // PJRT_NAMES_AND_LIBRARY_PATHS may name XLA's): `--plugin cpu` asks for that.
  for (const std::string& dir : InstallPluginDirectories()) {
    std::filesystem::path installed = std::filesystem::path(dir) / PLUGRT_DEFAULT_PLUGIN_NAME;
    if (std::filesystem::exists(installed)) return installed.string();
  }
  std::error_code error;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return PLUGRT_DEFAULT_PLUGIN_NAME;  // let dlopen search its paths
  std::filesystem::path beside_lib = exe.parent_path().parent_path() / "lib" / PLUGRT_DEFAULT_PLUGIN_NAME;
  if (std::filesystem::exists(beside_lib)) return beside_lib.string();
  std::filesystem::path beside_exe = exe.parent_path() / PLUGRT_DEFAULT_PLUGIN_NAME;
  if (std::filesystem::exists(beside_exe)) return beside_exe.string();
  return beside_lib.string();  // the error message names the expected place
}

StatusOr<std::unique_ptr<Client>> OpenClient(const PluginOptions& options) {
  std::string path = options.plugin_path.empty() ? DefaultPluginPath() : options.plugin_path;
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, LoadPlugin(path));
  ClientOptions client_options;
  if (options.conformance_harness) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<NamedValue> attributes, plugin->attributes());
    for (const NamedValue& attribute : attributes) {
      const bool* announced = std::get_if<bool>(&attribute.value);
      if (attribute.name == kConformanceHarnessOption && announced != nullptr && *announced) {
        client_options.create_options.push_back(NamedValue{kConformanceHarnessOption, true});
      }
    }
  }
  if (options.devices) {
    client_options.create_options.push_back(
        NamedValue{"cpu_device_count", static_cast<int64_t>(*options.devices)});
  }
  AddKernelPluginsOption(options.kernels, client_options.create_options);
  AddPathListOption("optimizer_plugins", options.optimizers, client_options.create_options);
  PLUGRT_RETURN_IF_ERROR(AddJobOptions(client_options));
  return Client::Create(std::move(plugin), client_options);
}

}  // namespace plugrt::tools
