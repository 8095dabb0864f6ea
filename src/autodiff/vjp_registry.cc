#include "autodiff/vjp_registry.h"

#include <utility>

#include "autodiff/builtin_rules.h"
#include "autodiff/function_runner.h"
#include "autodiff/rule_registry.h"

namespace plugrt::autodiff {

namespace {

internal::RuleRegistry<VjpFunction>& Vjps() {
  static auto* registry =
      new internal::RuleRegistry<VjpFunction>("VJP", [](const internal::AddVjp& add) {
        internal::AddElementwiseVjps(add);
        internal::AddStructuralVjps(add);
        internal::AddReductionVjps(add);
        internal::AddIndexingVjps(add);
        internal::AddConvolutionVjp(add);
        add("stablehlo.while", internal::WhileVjp);
      });
  return *registry;
}

}  // namespace

Status RegisterVjp(std::string op, VjpFunction vjp, bool replace) {
  return Vjps().Register(std::move(op), std::move(vjp), replace);
}

const VjpFunction* FindVjp(std::string_view op) { return Vjps().Find(op); }

std::vector<std::string> VjpOpNames() { return Vjps().Names(); }

}  // namespace plugrt::autodiff
