#include "client/plugin_discovery.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

namespace plugrt {
namespace {

namespace fs = std::filesystem;

constexpr const char* kNamesVariable = "PJRT_NAMES_AND_LIBRARY_PATHS";
constexpr const char* kPathVariable = "PLUGRT_PLUGIN_PATH";

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (true) {
    size_t end = text.find(separator);
    parts.push_back(text.substr(0, end));
    if (end == std::string_view::npos) return parts;
    text.remove_prefix(end + 1);
  }
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// The module (shared library or program) this code was linked into.
fs::path ThisModule() {
  Dl_info info;
  link_map* map = nullptr;
  if (dladdr1(reinterpret_cast<void*>(&ThisModule), &info, reinterpret_cast<void**>(&map),
              RTLD_DL_LINKMAP) == 0 || map == nullptr) {
    return {};
  }
  std::error_code error;
  // The main program's link map has an empty name.
  fs::path module = map->l_name[0] == '\0' ? fs::read_symlink("/proc/self/exe", error)
                                           : fs::canonical(map->l_name, error);
  return error ? fs::path() : module;
}

}  // namespace

// lib/plugrt/ of the install (or build tree) holding this code: beside a
// library (P/lib/libplugrt.so), or at ../lib/plugrt of a program (P/bin/x).
std::vector<std::string> InstallPluginDirectories() {
  fs::path module = ThisModule();
  if (module.empty()) return {};
  fs::path dir = module.parent_path();
  std::vector<fs::path> candidates = {dir / "plugrt", dir.parent_path() / PLUGRT_INSTALL_LIBDIR / "plugrt",
                                      dir.parent_path() / "lib" / "plugrt"};
  std::vector<std::string> found;
  for (const fs::path& candidate : candidates) {
    std::error_code error;
    if (!fs::is_directory(candidate, error)) continue;
    std::string path = fs::canonical(candidate, error).string();
    if (!error && std::find(found.begin(), found.end(), path) == found.end()) found.push_back(path);
  }
  return found;
}

namespace {

bool StripPrefix(std::string_view& text, std::string_view prefix) {
  if (!text.starts_with(prefix) || text.size() == prefix.size()) return false;
  text.remove_prefix(prefix.size());
  return true;
}

bool StripSuffix(std::string_view& text, std::string_view suffix) {
  if (!text.ends_with(suffix) || text.size() == suffix.size()) return false;
  text.remove_suffix(suffix.size());
  return true;
}

void ScanDirectory(const std::string& dir, const std::string& origin, PluginDiscovery& out) {
  std::error_code error;
  fs::directory_iterator it(dir, error);
  if (error) {
    out.problems.push_back(StrCat(origin, " directory ", dir, ": ", error.message()));
    return;
  }
  std::vector<PluginLocation> found;
  for (const fs::directory_entry& entry : it) {
    std::string name = PluginNameFromFile(entry.path().filename().string());
    if (name.empty() || !entry.is_regular_file(error)) continue;  // follows links
    found.push_back({name, entry.path().string(), origin});
  }
  // Directory order is arbitrary; names sort so the listing is stable.
  std::sort(found.begin(), found.end(),
            [](const PluginLocation& a, const PluginLocation& b) { return a.path < b.path; });
  out.plugins.insert(out.plugins.end(), found.begin(), found.end());
}

}  // namespace

std::string PluginNameFromFile(std::string_view file_name) {
  if (!StripSuffix(file_name, ".so")) return "";
  StripPrefix(file_name, "lib");
  StripPrefix(file_name, "plugrt_") || StripPrefix(file_name, "pjrt_plugin_") ||
      StripPrefix(file_name, "pjrt_c_api_");
  StripSuffix(file_name, "_plugin");
  return std::string(file_name);
}

bool IsPluginPath(std::string_view spec) {
  return spec.find('/') != std::string_view::npos || spec.ends_with(".so");
}

PluginDiscovery DiscoverPlugins() {
  PluginDiscovery out;
  if (const char* names = std::getenv(kNamesVariable); names != nullptr && *names != '\0') {
    for (std::string_view entry : Split(names, ',')) {
      entry = Trim(entry);
      if (entry.empty()) continue;
      size_t colon = entry.find(':');
      if (colon == std::string_view::npos || colon == 0 || colon + 1 == entry.size()) {
        out.problems.push_back(
            StrCat(kNamesVariable, ": entry \"", entry, "\" is not name:path"));
        continue;
      }
      out.plugins.push_back({std::string(Trim(entry.substr(0, colon))),
                             std::string(Trim(entry.substr(colon + 1))), kNamesVariable});
    }
  }
  if (const char* path = std::getenv(kPathVariable); path != nullptr && *path != '\0') {
    for (std::string_view dir : Split(path, ':')) {
      if (dir.empty()) continue;
      out.directories.emplace_back(dir);
      ScanDirectory(std::string(dir), kPathVariable, out);
    }
  }
  for (const std::string& dir : InstallPluginDirectories()) {
    out.directories.push_back(dir);
    ScanDirectory(dir, "install", out);
  }
  std::set<std::string> seen;
  for (PluginLocation& location : out.plugins) {
    location.shadowed = !seen.insert(location.name).second;
  }
  return out;
}

StatusOr<std::string> FindPlugin(std::string_view name_or_path) {
  if (IsPluginPath(name_or_path)) return std::string(name_or_path);
  if (name_or_path.empty()) return InvalidArgument("empty PJRT plugin name");
  PluginDiscovery discovery = DiscoverPlugins();
  std::string names;
  for (const PluginLocation& location : discovery.plugins) {
    if (location.name == name_or_path) return location.path;
    if (!location.shadowed) names += StrCat(names.empty() ? "" : ", ", location.name);
  }
  std::string dirs;
  for (const std::string& dir : discovery.directories) dirs += StrCat(dirs.empty() ? "" : ":", dir);
  return NotFound("no PJRT plugin named \"", name_or_path, "\" (looked in ", kNamesVariable,
                  ", then the directories ", dirs.empty() ? "(none)" : dirs,
                  "; plugins found: ", names.empty() ? "none" : names, ")");
}

StatusOr<std::shared_ptr<Plugin>> LoadPlugin(std::string_view name_or_path) {
  PLUGRT_ASSIGN_OR_RETURN(std::string path, FindPlugin(name_or_path));
  return Plugin::Load(path);
}

}  // namespace plugrt
