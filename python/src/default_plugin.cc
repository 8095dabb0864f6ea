#include "default_plugin.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

namespace plugrt::python {

std::string DefaultCpuPluginPath() {
  if (const char* env = std::getenv("PLUGRT_CPU_PLUGIN"); env != nullptr && *env != '\0') {
    return env;
  }
  // The module's own file, found through the address of this function.
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&DefaultCpuPluginPath), &info) == 0 ||
      info.dli_fname == nullptr) {
    return PLUGRT_CPU_PLUGIN_NAME;  // let dlopen search the library path
  }
  std::filesystem::path module_dir = std::filesystem::path(info.dli_fname).parent_path();
  return (module_dir / PLUGRT_CPU_PLUGIN_RELATIVE).lexically_normal().string();
}

}  // namespace plugrt::python
