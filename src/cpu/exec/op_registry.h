// plugrt CPU executor: the compile function of every op, in one table.
//
// Each op group registers its compile functions by op code (and custom-call
// targets by name) in an OpRegistry, as the verifier's rule files fill its
// CheckTable; CompileAnyOp looks the op up. The registry is read at compile
// time only: a compiled program holds CompiledOps, never the registry.
//
// Two registries exist: the one every program compiles against, and one
// that adds the conformance harness (check.*, interpreter.run_parallel and
// interpreter.probe, infeed/outfeed over the queues only run_parallel
// provides). `plugrt conformance` turns the harness on with the
// conformance_harness create option; other programs that use its ops get
// an error naming the op.
#ifndef PLUGRT_CPU_EXEC_OP_REGISTRY_H_
#define PLUGRT_CPU_EXEC_OP_REGISTRY_H_

#include <array>
#include <string_view>

#include "cpu/exec/compiled_op.h"
#include "kernels_abi/custom_call_registry.h"

namespace plugrt::cpu {

// Compiles one stablehlo.custom_call whose call_target_name is `target`,
// for a program compiled with `options`.
using CompileCustomCallFn = StatusOr<std::unique_ptr<CompiledOp>> (*)(
    const shlo::Operation& op, std::string_view target, const ProgramOptions& options);

class OpRegistry {
 public:
  // The ops and targets every program may use.
  static const OpRegistry& Programs();
  // Programs() plus the conformance harness's ops and targets.
  static const OpRegistry& ConformanceHarness();
  static const OpRegistry& Get(bool conformance_harness) {
    return conformance_harness ? ConformanceHarness() : Programs();
  }

  // Registration (by the op groups' Register* functions).
  void Set(shlo::OpCode code, CompileOpFn fn) { ops_[static_cast<size_t>(code)] = fn; }
  // `fn` for every op of `group` in the op table but terminators (which the
  // interpreter reads itself): for groups whose one function switches on
  // the code.
  void SetGroup(shlo::OpGroup group, CompileOpFn fn);
  // A target registered twice is a programming error: the registry aborts
  // building (tests/cpu/op_registry_test.cc builds both registries).
  void SetCustomCall(std::string_view target, CompileCustomCallFn fn);

  // The compile function of `code`, or null when none is registered here.
  CompileOpFn Find(shlo::OpCode code) const { return ops_[static_cast<size_t>(code)]; }
  const kernels_abi::CustomCallRegistry<CompileCustomCallFn>& custom_calls() const {
    return custom_calls_;
  }

 private:
  std::array<CompileOpFn, shlo::kNumOpCodes> ops_{};
  kernels_abi::CustomCallRegistry<CompileCustomCallFn> custom_calls_;
};

// What each group registers (its file in parentheses).
void RegisterControlFlowOps(OpRegistry& registry);   // control_flow_ops.cc
void RegisterElementwiseOps(OpRegistry& registry);   // elementwise_ops.cc
void RegisterDataMovementOps(OpRegistry& registry);  // data_movement_ops.cc
void RegisterComputeOps(OpRegistry& registry);       // compute_ops.cc
void RegisterCollectiveOps(OpRegistry& registry);    // collective_ops.cc
void RegisterCustomCallOp(OpRegistry& registry);     // custom_calls.cc
void RegisterMathCustomCalls(OpRegistry& registry);  // math_custom_calls.cc
void RegisterLapackCustomCalls(OpRegistry& registry);  // ../custom_calls/lapack_custom_calls.cc
void RegisterHostTransferOps(OpRegistry& registry);  // host_callback_ops.cc
// The conformance harness only.
void RegisterCheckOps(OpRegistry& registry);         // check_ops.cc
void RegisterRunParallelOp(OpRegistry& registry);    // run_parallel.cc
void RegisterFeedOps(OpRegistry& registry);          // feed_ops.cc

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_OP_REGISTRY_H_
