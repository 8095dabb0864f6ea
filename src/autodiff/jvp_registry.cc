#include "autodiff/jvp_registry.h"

#include <utility>

#include "autodiff/builtin_rules.h"
#include "autodiff/rule_registry.h"

namespace plugrt::autodiff {

namespace {

internal::RuleRegistry<JvpFunction>& Jvps() {
  static auto* registry = new internal::RuleRegistry<JvpFunction>("JVP", internal::AddBuiltinJvps);
  return *registry;
}

}  // namespace

Status RegisterJvp(std::string op, JvpFunction jvp, bool replace) {
  return Jvps().Register(std::move(op), std::move(jvp), replace);
}

const JvpFunction* FindJvp(std::string_view op) { return Jvps().Find(op); }

std::vector<std::string> JvpOpNames() { return Jvps().Names(); }

}  // namespace plugrt::autodiff
