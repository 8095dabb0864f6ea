// plugrt common: what every loader of plugrt's plugin libraries (kernel and
// optimizer plugins) does the same way.
#ifndef PLUGRT_COMMON_PLUGIN_LIBRARY_H_
#define PLUGRT_COMMON_PLUGIN_LIBRARY_H_

#include <exception>
#include <string>
#include <string_view>

#include "common/status.h"

namespace plugrt {

// dlopen(path, RTLD_NOW | RTLD_LOCAL). NOT_FOUND for a missing file,
// INVALID_ARGUMENT with dlerror's reason otherwise; both begin
// "<kind> plugin '<path>'" (kind: "kernel", "optimizer").
StatusOr<void*> OpenPluginLibrary(std::string_view kind, const std::string& path);

// "threw <what()>" for the exception being handled, for messages about
// plugin callbacks that let one escape.
std::string CurrentExceptionText();

// A device type or platform name as plugins and clients compare them:
// lowercase, "host" read as "cpu".
std::string PlatformKey(std::string_view name);

}  // namespace plugrt

#endif  // PLUGRT_COMMON_PLUGIN_LIBRARY_H_
