#include "autodiff/vjp_registry.h"

#include <map>
#include <memory>
#include <mutex>

#include "autodiff/builtin_rules.h"
#include "autodiff/function_runner.h"

namespace plugrt::autodiff {

namespace {

struct Registry {
  std::mutex mu;
  // Entries are never erased, only replaced, and handed out by pointer: a
  // node map keeps them where they are. Replacing one a gradient is
  // running is the caller's race (as with any registry).
  std::map<std::string, std::unique_ptr<VjpFunction>, std::less<>> vjps;
};

Registry& TheRegistry() {
  static Registry* registry = [] {
    auto* r = new Registry;
    internal::AddVjp add = [r](std::string name, VjpFunction f) {
      r->vjps[std::move(name)] = std::make_unique<VjpFunction>(std::move(f));
    };
    internal::AddElementwiseVjps(add);
    internal::AddStructuralVjps(add);
    internal::AddReductionVjps(add);
    internal::AddIndexingVjps(add);
    internal::AddConvolutionVjp(add);
    add("stablehlo.while", internal::WhileVjp);
    return r;
  }();
  return *registry;
}

}  // namespace

Status RegisterVjp(std::string op, VjpFunction vjp, bool replace) {
  if (op.empty()) return InvalidArgument("RegisterVjp: the op name is empty");
  if (!vjp) return InvalidArgument("RegisterVjp(", op, "): no function given");
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.vjps.find(op);
  if (it != r.vjps.end()) {
    if (!replace) {
      return MakeError(StatusCode::kAlreadyExists, "a VJP for ", op,
                       " is already registered (pass replace to override it)");
    }
    *it->second = std::move(vjp);
    return OkStatus();
  }
  r.vjps.emplace(std::move(op), std::make_unique<VjpFunction>(std::move(vjp)));
  return OkStatus();
}

const VjpFunction* FindVjp(std::string_view op) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.vjps.find(op);
  return it == r.vjps.end() ? nullptr : it->second.get();
}

std::vector<std::string> VjpOpNames() {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::string> names;
  for (const auto& [name, f] : r.vjps) names.push_back(name);
  return names;
}

}  // namespace plugrt::autodiff
