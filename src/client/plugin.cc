#include "client/plugin.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstddef>
#include <map>
#include <mutex>

#include "client/api_call.h"
#include "client/error.h"
#include "client/named_value_c.h"
#include "common/extension_chain.h"
#include "plugrt/pjrt_ffi_extension.h"

namespace plugrt {

using internal::Call;
using internal::NewArgs;

namespace {

constexpr size_t kVersionEnd = offsetof(PJRT_Api, pjrt_api_version) + sizeof(PJRT_Api_Version);
// Without the error functions no failure of the plugin could be reported.
constexpr size_t kErrorSlotsEnd =
    offsetof(PJRT_Api, PJRT_Error_GetCode) + sizeof(PJRT_Api::PJRT_Error_GetCode);

// PJRT_Plugin_Initialize runs once per table in the process, however many
// Plugin objects (or loads of the same library) refer to it; later callers
// get the first result.
Status InitializeOnce(const PJRT_Api* api) {
  static std::mutex mu;
  static std::map<const PJRT_Api*, Status>* results = new std::map<const PJRT_Api*, Status>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = results->find(api);
  if (it != results->end()) return it->second;
  auto args = NewArgs<PJRT_Plugin_Initialize_Args>();
  Status status = Call(api, args);
  // Tables from before PJRT_Plugin_Initialize existed need no initialization.
  if (status.code() == StatusCode::kUnimplemented &&
      !internal::TableCovers(api, internal::ApiSlot<PJRT_Plugin_Initialize_Args>::kEnd)) {
    status = OkStatus();
  }
  results->emplace(api, status);
  return status;
}

Status CheckTable(const PJRT_Api* api, const std::string& name) {
  if (api == nullptr) return InvalidArgument("PJRT plugin ", name, " returned a null PJRT_Api table");
  if (api->struct_size < kVersionEnd) {
    return InvalidArgument("PJRT plugin ", name, " has a PJRT_Api table of ", api->struct_size,
                           " bytes, too small to hold its version (needs at least ", kVersionEnd,
                           ")");
  }
  const PJRT_Api_Version& v = api->pjrt_api_version;
  if (v.major_version != PJRT_API_MAJOR) {
    return FailedPrecondition("PJRT plugin ", name, " implements PJRT C API ", v.major_version, ".",
                              v.minor_version, " but this client needs major version ",
                              PJRT_API_MAJOR, " (it was built for ", PJRT_API_MAJOR, ".",
                              PJRT_API_MINOR, ")");
  }
  if (api->struct_size < kErrorSlotsEnd || api->PJRT_Error_Destroy == nullptr ||
      api->PJRT_Error_Message == nullptr || api->PJRT_Error_GetCode == nullptr) {
    return InvalidArgument("PJRT plugin ", name,
                           " lacks PJRT_Error_Destroy, PJRT_Error_Message or PJRT_Error_GetCode");
  }
  return OkStatus();
}

}  // namespace

Plugin::Plugin(CheckedTag, const PJRT_Api* api, std::string path)
    : api_(api),
      path_(std::move(path)),
      major_(api->pjrt_api_version.major_version),
      minor_(api->pjrt_api_version.minor_version) {}

StatusOr<std::shared_ptr<Plugin>> Plugin::FromApi(const PJRT_Api* api, std::string name) {
  PLUGRT_RETURN_IF_ERROR(CheckTable(api, name));
  Status init = InitializeOnce(api);
  if (!init.ok()) {
    return Status(init.code(), StrCat("initializing PJRT plugin ", name, ": ", init.message()));
  }
  return std::make_shared<Plugin>(CheckedTag(), api, std::move(name));
}

StatusOr<std::shared_ptr<Plugin>> Plugin::Load(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = dlerror();
    std::string detail = error != nullptr ? error : "unknown dlopen error";
    struct stat st;
    // dlopen searches the library path for names without a slash, so only a
    // path that names no file is "not found" for certain.
    if (path.find('/') != std::string::npos && stat(path.c_str(), &st) != 0) {
      return NotFound("cannot load PJRT plugin ", path, ": no such file (", detail, ")");
    }
    if (path.find('/') == std::string::npos) {
      return NotFound("cannot load PJRT plugin ", path, ": ", detail);
    }
    return InvalidArgument("cannot load PJRT plugin ", path, ": ", detail);
  }
  dlerror();
  void* symbol = dlsym(handle, "GetPjrtApi");
  if (symbol == nullptr) {
    const char* error = dlerror();
    std::string detail = error != nullptr ? error : "symbol is null";
    dlclose(handle);
    return NotFound("PJRT plugin ", path, " does not export GetPjrtApi (", detail, ")");
  }
  using GetPjrtApiFn = const PJRT_Api* (*)();
  const PJRT_Api* api = reinterpret_cast<GetPjrtApiFn>(symbol)();
  // The handle is never closed once the plugin's code has run: its table,
  // threads and objects may be referenced for the rest of the process.
  return FromApi(api, path);
}

Status Plugin::RegisterFfiHandler(const std::string& target, void* handler, int api_version,
                                  const std::string& platform, uint32_t traits) const {
  const auto* ffi = reinterpret_cast<const PJRT_FFI_Extension*>(
      FindExtension(api_->extension_start, PJRT_Extension_Type_FFI, sizeof(PJRT_Extension_Base)));
  if (ffi == nullptr || ffi->register_handler == nullptr) {
    return Unimplemented("PJRT plugin ", path_, " has no FFI extension: cannot register ",
                         "custom-call target ", target);
  }
  PJRT_FFI_Register_Handler_Args args{};
  args.struct_size = PJRT_FFI_Register_Handler_Args_STRUCT_SIZE;
  args.target_name = target.data();
  args.target_name_size = target.size();
  args.api_version = api_version;
  args.handler = handler;
  args.platform_name = platform.data();
  args.platform_name_size = platform.size();
  args.traits = static_cast<PJRT_FFI_Handler_TraitsBits>(traits);
  return StatusFromPjrtError(api_, ffi->register_handler(&args));
}

StatusOr<std::vector<NamedValue>> Plugin::attributes() const {
  auto args = NewArgs<PJRT_Plugin_Attributes_Args>();
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return internal::NamedValuesFromC(args.attributes, args.num_attributes);
}

}  // namespace plugrt
