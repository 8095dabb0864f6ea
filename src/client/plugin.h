// plugrt client: a loaded PJRT plugin (any shared library exporting
// GetPjrtApi, or a statically linked PJRT_Api table).
#ifndef PLUGRT_CLIENT_PLUGIN_H_
#define PLUGRT_CLIENT_PLUGIN_H_

#include <memory>
#include <string>
#include <vector>

#include "common/named_value.h"
#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

// Shared and thread-safe. The library stays loaded for the rest of the
// process: buffers and events may outlive every Plugin object, and many
// plugins cannot be unloaded safely anyway.
class Plugin {
 public:
  // dlopens `path` (RTLD_NOW | RTLD_LOCAL), calls GetPjrtApi, checks the
  // table and initializes the plugin (once per table in the process).
  // NOT_FOUND: no such library or symbol; INVALID_ARGUMENT: null or
  // truncated table; FAILED_PRECONDITION: major version mismatch.
  static StatusOr<std::shared_ptr<Plugin>> Load(const std::string& path);
  // Same checks and initialization for a table the caller already has.
  // `name` stands in for the path in messages. The table must outlive the
  // process's use of it.
  static StatusOr<std::shared_ptr<Plugin>> FromApi(const PJRT_Api* api, std::string name);

  const PJRT_Api* api() const { return api_; }
  int major_version() const { return major_; }
  int minor_version() const { return minor_; }
  // The library path, or the name given to FromApi.
  const std::string& path() const { return path_; }

  // PJRT_Plugin_Attributes, copied.
  StatusOr<std::vector<NamedValue>> attributes() const;

  // Only Load and FromApi can name the tag, so every Plugin has passed the
  // table checks.
  struct CheckedTag {
   private:
    CheckedTag() = default;
    friend class Plugin;
  };
  Plugin(CheckedTag, const PJRT_Api* api, std::string path);

 private:
  const PJRT_Api* api_;
  std::string path_;
  int major_;
  int minor_;
};

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_PLUGIN_H_
