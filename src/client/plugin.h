// plugrt client: a loaded PJRT plugin (any shared library exporting
// GetPjrtApi, or a statically linked PJRT_Api table).
#ifndef PLUGRT_CLIENT_PLUGIN_H_
#define PLUGRT_CLIENT_PLUGIN_H_

#include <cstdint>
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

  // Registers a custom-call handler through the plugin's FFI extension
  // (plugrt/pjrt_ffi_extension.h), as JAX does: `handler` is an
  // XLA_FFI_Handler* for api_version 1 (custom calls with api_version = 4)
  // or an untyped function for api_version 0. Handlers belong to the plugin
  // (every client of it sees them). UNIMPLEMENTED when the plugin has no
  // FFI extension; the plugin's own error otherwise (a target registered
  // twice, a bad platform).
  Status RegisterFfiHandler(const std::string& target, void* handler, int api_version = 1,
                            const std::string& platform = "Host", uint32_t traits = 0) const;

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
