#include "kernels_abi/untyped_custom_calls.h"

#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "common/plugin_library.h"

namespace plugrt::kernels_abi {
namespace {

struct UntypedRegistry {
  std::mutex mu;
  std::map<std::pair<std::string, std::string>, void*> functions;  // (platform, target)
};

UntypedRegistry& TheUntypedRegistry() {
  static UntypedRegistry* registry = new UntypedRegistry;  // never freed: programs may call at exit
  return *registry;
}

}  // namespace

Status RegisterUntypedCustomCall(std::string_view target, std::string_view platform, void* fn) {
  if (target.empty()) return InvalidArgument("custom call registration: the target name is empty");
  if (platform.empty()) {
    return InvalidArgument("custom call '", target, "': the platform name is empty");
  }
  if (fn == nullptr) return InvalidArgument("custom call '", target, "': the function is null");
  UntypedRegistry& registry = TheUntypedRegistry();
  std::lock_guard<std::mutex> lock(registry.mu);
  auto [it, inserted] =
      registry.functions.emplace(std::make_pair(PlatformKey(platform), std::string(target)), fn);
  if (!inserted && it->second != fn) {
    return MakeError(StatusCode::kAlreadyExists, "custom call target '", target,
                     "' is already registered for platform '", platform,
                     "' with another function");
  }
  return OkStatus();
}

void* FindUntypedCustomCall(std::string_view target, std::string_view platform) {
  UntypedRegistry& registry = TheUntypedRegistry();
  std::lock_guard<std::mutex> lock(registry.mu);
  auto it = registry.functions.find(std::make_pair(PlatformKey(platform), std::string(target)));
  return it == registry.functions.end() ? nullptr : it->second;
}

}  // namespace plugrt::kernels_abi
