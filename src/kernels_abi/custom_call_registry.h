// plugrt custom calls: the registry of stablehlo.custom_call targets by name.
//
// A backend keeps one registry per set of targets a program may call and
// stores with each name what it needs to compile a call (the CPU backend: a
// compile function, src/cpu/exec/op_registry.h). Targets plugrt defines
// register under the names of custom_call_targets.h; the kernel-plugin ABI
// will register a plugin's targets here the same way.
#ifndef PLUGRT_KERNELS_ABI_CUSTOM_CALL_REGISTRY_H_
#define PLUGRT_KERNELS_ABI_CUSTOM_CALL_REGISTRY_H_

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace plugrt::kernels_abi {

template <typename Entry>
class CustomCallRegistry {
 public:
  // ALREADY_EXISTS when `name` is taken: one target, one implementation.
  Status Register(std::string_view name, Entry entry) {
    if (name.empty()) return InvalidArgument("a custom call target needs a name");
    auto [it, inserted] = entries_.emplace(std::string(name), std::move(entry));
    if (!inserted) {
      return MakeError(StatusCode::kAlreadyExists, "custom call target '", name,
                       "' is registered twice");
    }
    return OkStatus();
  }

  // The entry of `name`, or null.
  const Entry* Find(std::string_view name) const {
    auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : &it->second;
  }

  // Every registered name, sorted.
  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    for (const auto& [name, entry] : entries_) names.push_back(name);
    return names;
  }

 private:
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_CUSTOM_CALL_REGISTRY_H_
