// plugrt filesystems: the registry that maps URI schemes to filesystems.
//
// "" (a plain path) and "file" are the local filesystem, "ram" an in-memory
// one, "http" and "https" a read-only one over libcurl; plugins
// (include/plugrt/filesystem_c_api.h) add more. One scheme has one owner: a
// second registration is ALREADY_EXISTS naming both owners.
#ifndef PLUGRT_FILESYSTEM_REGISTRY_H_
#define PLUGRT_FILESYSTEM_REGISTRY_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "filesystem/filesystem.h"

namespace plugrt::fs {

// Filesystem plugins to load into the process's registry at its first use,
// paths separated by ':'.
inline constexpr const char* kFilesystemPluginsEnv = "PLUGRT_FILESYSTEM_PLUGINS";

// The scheme of `uri`, lowercased: what comes before "://" when that is a
// well-formed scheme name, else "" (a local path).
std::string SchemeOf(std::string_view uri);
// Whether `scheme` is a well-formed scheme name (a letter, then letters,
// digits, '+', '-', '.'; lowercase).
bool IsValidScheme(std::string_view scheme);

class Registry {
 public:
  // A registry with the built-in schemes only.
  Registry();
  ~Registry();
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // The process's registry: the built-in schemes, then the plugins of
  // PLUGRT_FILESYSTEM_PLUGINS (loaded once, at the first call; a plugin
  // that fails is named in the errors of lookups it could have served).
  static Registry& Global();

  // `owner` names who registered it in errors ("built-in", "plugin 'x.so'").
  Status Register(const std::string& scheme, std::shared_ptr<FileSystem> filesystem,
                  const std::string& owner);
  // The filesystem serving `uri`; UNIMPLEMENTED naming the scheme and the
  // registered ones when nobody serves it.
  StatusOr<FileSystem*> Lookup(std::string_view uri) const;
  // Loads a filesystem plugin and registers its schemes (all or none).
  // Loading a path that was loaded already does nothing.
  Status LoadPlugin(const std::string& path);
  // Registered schemes with their owners, sorted by scheme.
  std::vector<std::pair<std::string, std::string>> Schemes() const;

 private:
  struct Entry {
    std::shared_ptr<FileSystem> filesystem;
    std::string owner;
  };
  mutable std::mutex mu_;
  std::map<std::string, Entry> schemes_;
  std::vector<std::string> loaded_plugins_;
  std::vector<void*> libraries_;  // closed after the filesystems are gone
  std::string environment_error_;  // from PLUGRT_FILESYSTEM_PLUGINS
};

}  // namespace plugrt::fs

#endif  // PLUGRT_FILESYSTEM_REGISTRY_H_
