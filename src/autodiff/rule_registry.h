// plugrt autodiff: the registry behind both kinds of rule (VJPs in
// vjp_registry.cc, JVPs in jvp_registry.cc): op name -> rule, the built-in
// rules added on first use, users' rules registered or replaced under a lock.
#ifndef PLUGRT_AUTODIFF_RULE_REGISTRY_H_
#define PLUGRT_AUTODIFF_RULE_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace plugrt::autodiff::internal {

template <typename Rule>
class RuleRegistry {
 public:
  using Add = std::function<void(std::string, Rule)>;

  // `kind` names the rules in errors ("VJP"); `builtins` adds the built-in
  // ones through the function it is given.
  RuleRegistry(const char* kind, const std::function<void(const Add&)>& builtins) : kind_(kind) {
    builtins([this](std::string name, Rule rule) {
      rules_[std::move(name)] = std::make_unique<Rule>(std::move(rule));
    });
  }

  Status Register(std::string op, Rule rule, bool replace) {
    if (op.empty()) return InvalidArgument("registering a ", kind_, ": the op name is empty");
    if (!rule) return InvalidArgument("registering a ", kind_, " for ", op, ": no function given");
    std::lock_guard<std::mutex> lock(mu_);
    auto it = rules_.find(op);
    if (it != rules_.end()) {
      if (!replace) {
        return MakeError(StatusCode::kAlreadyExists, "a ", kind_, " for ", op,
                         " is already registered (pass replace to override it)");
      }
      *it->second = std::move(rule);
      return OkStatus();
    }
    rules_.emplace(std::move(op), std::make_unique<Rule>(std::move(rule)));
    return OkStatus();
  }

  // Null when `op` has none.
  const Rule* Find(std::string_view op) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = rules_.find(op);
    return it == rules_.end() ? nullptr : it->second.get();
  }

  std::vector<std::string> Names() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::string> names;
    for (const auto& [name, rule] : rules_) names.push_back(name);
    return names;
  }

 private:
  const char* kind_;
  std::mutex mu_;
  // Entries are never erased, only replaced, and handed out by pointer: a
  // node map keeps them where they are. Replacing one a gradient is running
  // is the caller's race (as with any registry).
  std::map<std::string, std::unique_ptr<Rule>, std::less<>> rules_;
};

}  // namespace plugrt::autodiff::internal

#endif  // PLUGRT_AUTODIFF_RULE_REGISTRY_H_
