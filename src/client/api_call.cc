#include "client/api_call.h"

namespace plugrt::internal {

Status MissingSlot(const PJRT_Api* api, std::string_view name, bool beyond_table) {
  std::string version = "an unknown version";
  if (api->struct_size >= offsetof(PJRT_Api, pjrt_api_version) + sizeof(PJRT_Api_Version)) {
    version = StrCat(api->pjrt_api_version.major_version, ".",
                     api->pjrt_api_version.minor_version);
  }
  if (beyond_table) {
    return Unimplemented("plugin implements PJRT C API ", version, "; ", name,
                         " needs a newer one");
  }
  return Unimplemented("plugin (PJRT C API ", version, ") does not implement ", name);
}

}  // namespace plugrt::internal
