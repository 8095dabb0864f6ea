#include "cpu/exec/op_registry.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace plugrt::cpu {

void OpRegistry::SetCustomCall(std::string_view target, CompileCustomCallFn fn) {
  Status status = custom_calls_.Register(target, fn);
  if (!status.ok()) {
    std::fprintf(stderr, "plugrt: %s\n", status.ToString().c_str());
    std::abort();
  }
}

void OpRegistry::SetGroup(shlo::OpGroup group, CompileOpFn fn) {
  for (size_t i = 1; i < shlo::kNumOpCodes; ++i) {
    const auto code = static_cast<shlo::OpCode>(i);
    if (shlo::TraitsOf(code).group == group && !shlo::IsTerminator(code)) Set(code, fn);
  }
}

const OpRegistry& OpRegistry::Programs() {
  static const OpRegistry registry = [] {
    OpRegistry r;
    RegisterControlFlowOps(r);
    RegisterElementwiseOps(r);
    RegisterDataMovementOps(r);
    RegisterComputeOps(r);
    RegisterCollectiveOps(r);
    RegisterCustomCallOp(r);
    RegisterMathCustomCalls(r);
    RegisterLapackCustomCalls(r);
    RegisterHostTransferOps(r);
    return r;
  }();
  return registry;
}

const OpRegistry& OpRegistry::ConformanceHarness() {
  static const OpRegistry registry = [] {
    OpRegistry r = Programs();
    RegisterCheckOps(r);
    RegisterRunParallelOp(r);
    RegisterFeedOps(r);
    return r;
  }();
  return registry;
}

}  // namespace plugrt::cpu
