#include "kernels_abi/xla_ffi_handlers.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace plugrt::kernels_abi {
namespace {

std::string CanonicalPlatform(std::string_view platform) {
  std::string lower(platform);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "host" ? "cpu" : lower;
}

struct Registry {
  std::mutex mu;
  std::map<std::pair<std::string, std::string>, XlaFfiHandlerEntry> entries;  // (platform, target)
};

Registry& TheRegistry() {
  static Registry* registry = new Registry;  // never freed: handlers may run at exit
  return *registry;
}

bool SameBundle(const XLA_FFI_Handler_Bundle& a, const XLA_FFI_Handler_Bundle& b) {
  return a.instantiate == b.instantiate && a.prepare == b.prepare &&
         a.initialize == b.initialize && a.execute == b.execute;
}

}  // namespace

Status RegisterXlaFfiHandler(std::string_view target, std::string_view platform,
                             const XLA_FFI_Handler_Bundle& bundle, XLA_FFI_Handler_Traits traits) {
  if (target.empty()) return InvalidArgument("XLA FFI handler registration: the target name is empty");
  if (platform.empty()) {
    return InvalidArgument("XLA FFI handler '", target, "': the platform name is empty");
  }
  if (bundle.execute == nullptr) {
    return InvalidArgument("XLA FFI handler '", target, "' has no execute handler");
  }
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mu);
  auto key = std::make_pair(CanonicalPlatform(platform), std::string(target));
  auto it = registry.entries.find(key);
  if (it != registry.entries.end()) {
    if (SameBundle(it->second.bundle, bundle)) return OkStatus();
    return MakeError(StatusCode::kAlreadyExists, "XLA FFI handler '", target,
                     "' is already registered for platform '", platform,
                     "' with other functions");
  }
  registry.entries.emplace(std::move(key), XlaFfiHandlerEntry{bundle, traits});
  return OkStatus();
}

std::optional<XlaFfiHandlerEntry> FindXlaFfiHandler(std::string_view target,
                                                    std::string_view platform) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mu);
  auto it = registry.entries.find(std::make_pair(CanonicalPlatform(platform), std::string(target)));
  if (it == registry.entries.end()) return std::nullopt;
  return it->second;
}

}  // namespace plugrt::kernels_abi
