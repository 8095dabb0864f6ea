#include "common/plugin_library.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace plugrt {

StatusOr<void*> OpenPluginLibrary(std::string_view kind, const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    return NotFound(kind, " plugin '", path, "': no such file");
  }
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* reason = dlerror();
    return InvalidArgument(kind, " plugin '", path, "' cannot be loaded: ",
                           reason != nullptr ? reason : "unknown dlopen error");
  }
  return library;
}

std::string CurrentExceptionText() {
  try {
    throw;
  } catch (const std::exception& e) {
    return StrCat("threw ", e.what());
  } catch (...) {
    return "threw an exception that is not a std::exception";
  }
}

std::string PlatformKey(std::string_view name) {
  std::string key(name);
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return key == "host" ? "cpu" : key;
}

}  // namespace plugrt
