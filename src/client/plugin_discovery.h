// plugrt client: finding PJRT plugins by name, by the conventions frameworks
// use, so that "cpu" means the same library to every program on a system.
//
// In precedence order (the first library found for a name wins):
//   1. PJRT_NAMES_AND_LIBRARY_PATHS="name:path,name:path" (JAX's variable);
//   2. the directories of PLUGRT_PLUGIN_PATH ("dir:dir", like PATH);
//   3. the install's plugin directory: lib/plugrt/ beside the library or
//      program holding this code (P/lib/libplugrt.so or P/bin/PROGRAM ->
//      P/lib/plugrt/; the build tree has build/lib/plugrt/ too).
// In a directory, every "*.so" is a plugin, named by its file name without
// "lib", ".so", a leading "plugrt_", "pjrt_plugin_" or "pjrt_c_api_" and a
// trailing "_plugin": libplugrt_cpu.so and pjrt_c_api_cpu_plugin.so are "cpu".
#ifndef PLUGRT_CLIENT_PLUGIN_DISCOVERY_H_
#define PLUGRT_CLIENT_PLUGIN_DISCOVERY_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "client/plugin.h"
#include "common/status.h"

namespace plugrt {

// Where a plugin name leads.
struct PluginLocation {
  std::string name;
  std::string path;
  // "PJRT_NAMES_AND_LIBRARY_PATHS", "PLUGRT_PLUGIN_PATH" or "install".
  std::string origin;
  // A location of the same name came earlier (this one is never chosen).
  bool shadowed = false;
};

struct PluginDiscovery {
  std::vector<PluginLocation> plugins;  // in precedence order
  // The directories searched (2 and 3 above), in order.
  std::vector<std::string> directories;
  // Malformed PJRT_NAMES_AND_LIBRARY_PATHS entries, unreadable directories.
  std::vector<std::string> problems;
};

// Reads the environment and the directories now (nothing is cached, so a
// changed environment is seen by the next call). Loads nothing.
PluginDiscovery DiscoverPlugins();

// The install's plugin directories (3 above) that exist, without the
// environment's: where a program looks for the plugins it was installed with.
std::vector<std::string> InstallPluginDirectories();

// The name a library file stands for (see above); empty if `file_name` does
// not end in ".so".
std::string PluginNameFromFile(std::string_view file_name);

// True if `spec` names a file (it has a '/' or ends in ".so") rather than a
// plugin name.
bool IsPluginPath(std::string_view spec);

// A path is returned as it is; a name becomes the first location of that
// name, or NOT_FOUND saying where it was looked for and which names exist.
StatusOr<std::string> FindPlugin(std::string_view name_or_path);

// Plugin::Load(FindPlugin(name_or_path)).
StatusOr<std::shared_ptr<Plugin>> LoadPlugin(std::string_view name_or_path);

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_PLUGIN_DISCOVERY_H_
