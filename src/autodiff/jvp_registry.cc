#include "autodiff/jvp_registry.h"

#include <map>
#include <memory>
#include <mutex>

#include "autodiff/builtin_rules.h"

namespace plugrt::autodiff {

namespace {

struct Registry {
  std::mutex mu;
  // Entries are never erased, only replaced, and handed out by pointer: a
  // node map keeps them where they are. Replacing one a gradient is
  // running is the caller's race (as with any registry).
  std::map<std::string, std::unique_ptr<JvpFunction>, std::less<>> jvps;
};

Registry& TheRegistry() {
  static Registry* registry = [] {
    auto* r = new Registry;
    internal::AddJvp add = [r](std::string name, JvpFunction f) {
      r->jvps[std::move(name)] = std::make_unique<JvpFunction>(std::move(f));
    };
    internal::AddBuiltinJvps(add);
    return r;
  }();
  return *registry;
}

}  // namespace

Status RegisterJvp(std::string op, JvpFunction jvp, bool replace) {
  if (op.empty()) return InvalidArgument("RegisterJvp: the op name is empty");
  if (!jvp) return InvalidArgument("RegisterJvp(", op, "): no function given");
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.jvps.find(op);
  if (it != r.jvps.end()) {
    if (!replace) {
      return MakeError(StatusCode::kAlreadyExists, "a JVP for ", op,
                       " is already registered (pass replace to override it)");
    }
    *it->second = std::move(jvp);
    return OkStatus();
  }
  r.jvps.emplace(std::move(op), std::make_unique<JvpFunction>(std::move(jvp)));
  return OkStatus();
}

const JvpFunction* FindJvp(std::string_view op) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.jvps.find(op);
  return it == r.jvps.end() ? nullptr : it->second.get();
}

std::vector<std::string> JvpOpNames() {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::string> names;
  for (const auto& [name, f] : r.jvps) names.push_back(name);
  return names;
}

}  // namespace plugrt::autodiff
