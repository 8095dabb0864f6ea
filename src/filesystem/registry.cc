#include "filesystem/registry.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "filesystem/builtin_filesystems.h"
#include "filesystem/plugin_filesystem.h"

namespace plugrt::fs {
namespace {

constexpr const char* kBuiltIn = "built-in";

std::vector<std::string> SplitPaths(std::string_view text) {
  std::vector<std::string> paths;
  while (!text.empty()) {
    const size_t colon = text.find(':');
    std::string_view piece = text.substr(0, colon);
    if (!piece.empty()) paths.emplace_back(piece);
    if (colon == std::string_view::npos) break;
    text.remove_prefix(colon + 1);
  }
  return paths;
}

}  // namespace

bool IsValidScheme(std::string_view scheme) {
  if (scheme.empty() || !(scheme[0] >= 'a' && scheme[0] <= 'z')) return false;
  for (char c : scheme) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' ||
                    c == '.';
    if (!ok) return false;
  }
  return true;
}

std::string SchemeOf(std::string_view uri) {
  const size_t sep = uri.find("://");
  if (sep == std::string_view::npos || sep == 0) return "";
  std::string scheme(uri.substr(0, sep));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return IsValidScheme(scheme) ? scheme : "";
}

Registry::Registry() {
  std::shared_ptr<FileSystem> local = NewLocalFileSystem();
  std::shared_ptr<FileSystem> http = NewHttpFileSystem();
  schemes_[""] = Entry{local, kBuiltIn};
  schemes_["file"] = Entry{local, kBuiltIn};
  schemes_["ram"] = Entry{NewRamFileSystem(), kBuiltIn};
  schemes_["http"] = Entry{http, kBuiltIn};
  schemes_["https"] = Entry{http, kBuiltIn};
}

Registry::~Registry() {
  // Plugins' filesystems run their cleanup while their code is loaded.
  schemes_.clear();
  for (auto it = libraries_.rbegin(); it != libraries_.rend(); ++it) dlclose(*it);
}

Registry& Registry::Global() {
  // Never destroyed: files may be read by other static objects' destructors.
  static Registry* registry = [] {
    auto* created = new Registry();
    if (const char* env = std::getenv(kFilesystemPluginsEnv)) {
      for (const std::string& path : SplitPaths(env)) {
        Status status = created->LoadPlugin(path);
        if (!status.ok() && created->environment_error_.empty()) {
          created->environment_error_ = StrCat(kFilesystemPluginsEnv, ": ", status.message());
        }
      }
    }
    return created;
  }();
  return *registry;
}

Status Registry::Register(const std::string& scheme, std::shared_ptr<FileSystem> filesystem,
                          const std::string& owner) {
  if (!scheme.empty() && !IsValidScheme(scheme)) {
    return InvalidArgument("'", scheme, "' is not a valid scheme name");
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = schemes_.find(scheme);
  if (it != schemes_.end()) {
    return MakeError(StatusCode::kAlreadyExists, "scheme '", scheme, "' is registered by ",
                     it->second.owner, "; ", owner, " cannot register it too");
  }
  schemes_[scheme] = Entry{std::move(filesystem), owner};
  return OkStatus();
}

StatusOr<FileSystem*> Registry::Lookup(std::string_view uri) const {
  const std::string scheme = SchemeOf(uri);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = schemes_.find(scheme);
  if (it != schemes_.end()) return it->second.filesystem.get();
  std::string known;
  for (const auto& [name, entry] : schemes_) {
    if (name.empty()) continue;
    if (!known.empty()) known += ", ";
    known += name;
  }
  return Unimplemented(uri, ": no filesystem serves scheme '", scheme, "' (registered: ", known,
                       "; plugins load through ", kFilesystemPluginsEnv, ")",
                       environment_error_.empty() ? "" : "; ", environment_error_);
}

Status Registry::LoadPlugin(const std::string& path) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (std::find(loaded_plugins_.begin(), loaded_plugins_.end(), path) != loaded_plugins_.end()) {
      return OkStatus();
    }
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    return NotFound("filesystem plugin '", path, "': no such file");
  }
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* reason = dlerror();
    return InvalidArgument("filesystem plugin '", path, "' cannot be loaded: ",
                           reason != nullptr ? reason : "unknown dlopen error");
  }
  auto init = reinterpret_cast<PLUGRT_FilesystemPluginInitFn>(
      dlsym(library, PLUGRT_FILESYSTEM_PLUGIN_INIT_SYMBOL));
  if (init == nullptr) {
    dlclose(library);
    return NotFound("filesystem plugin '", path, "' exports no ",
                    PLUGRT_FILESYSTEM_PLUGIN_INIT_SYMBOL,
                    " (include/plugrt/filesystem_c_api.h)");
  }
  StatusOr<std::vector<PluginScheme>> schemes = InitFilesystemPlugin(init, path);
  std::lock_guard<std::mutex> lock(mu_);
  // Every scheme is checked before any is registered: all or none.
  Status status = schemes.status();
  if (status.ok()) {
    for (const PluginScheme& scheme : *schemes) {
      auto it = schemes_.find(scheme.scheme);
      if (it != schemes_.end()) {
        status = MakeError(StatusCode::kAlreadyExists, "filesystem plugin '", path,
                           "' registers scheme '", scheme.scheme, "', which ", it->second.owner,
                           " already serves");
        break;
      }
    }
  }
  libraries_.push_back(library);  // filesystems created by init may live until the end
  if (!status.ok()) {
    if (schemes.ok()) schemes->clear();  // their cleanup runs while the library is loaded
    return status;
  }
  const std::string owner = StrCat("filesystem plugin '", path, "'");
  for (PluginScheme& scheme : *schemes) {
    schemes_[scheme.scheme] = Entry{std::move(scheme.filesystem), owner};
  }
  loaded_plugins_.push_back(path);
  return OkStatus();
}

std::vector<std::pair<std::string, std::string>> Registry::Schemes() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, entry] : schemes_) out.emplace_back(name, entry.owner);
  return out;
}

}  // namespace plugrt::fs
