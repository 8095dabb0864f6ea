// plugrt CPU executor: compiles IR regions into slot-based step lists and
// runs them. One ProgramCompiler compiles one module; the CompiledRegions it
// returns are immutable and may run concurrently (each run has its own frame).
#ifndef PLUGRT_CPU_EXEC_PROGRAM_COMPILER_H_
#define PLUGRT_CPU_EXEC_PROGRAM_COMPILER_H_

#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "cpu/exec/compiled_op.h"
#include "cpu/exec/op_registry.h"

namespace plugrt::cpu {

class ProgramCompiler final : public CompileContext {
 public:
  ProgramCompiler(const shlo::Module& module, const ProgramOptions& options)
      : module_(module), options_(options) {}

  StatusOr<std::shared_ptr<const CompiledRegion>> CompileRegion(const shlo::Region& region) override;
  StatusOr<std::shared_ptr<const CompiledRegion>> CompileFunction(std::string_view name) override;
  const shlo::Function* FindFunction(std::string_view name) const override {
    return module_.FindFunction(name);
  }
  const ProgramOptions& options() const override { return options_; }
  // OpRegistry::Programs(), or ConformanceHarness() with
  // options.conformance_harness.
  const OpRegistry& registry() const override {
    return OpRegistry::Get(options_.conformance_harness);
  }

 private:
  // Values visible while compiling one region: its own slots, and through
  // the enclosing scopes, values it captures.
  struct Scope {
    std::unordered_map<const shlo::Value*, int> slots;
    int next_slot = 0;
    std::vector<bool> captured;  // slot read by a nested region
    bool isolated = false;       // a function body: no captures past it
  };
  StatusOr<std::shared_ptr<const CompiledRegion>> CompileBlock(const shlo::Block& block,
                                                               bool isolated);

  const shlo::Module& module_;
  const ProgramOptions options_;
  std::vector<Scope*> scopes_;
  std::map<std::string, std::shared_ptr<const CompiledRegion>, std::less<>> functions_;
  std::set<std::string, std::less<>> in_progress_;
};

// Compiles one op of any kind: the compile function `context.registry()`
// has for its code (an error naming the op when there is none).
StatusOr<std::unique_ptr<CompiledOp>> CompileAnyOp(const shlo::Operation& op,
                                                   CompileContext& context);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_PROGRAM_COMPILER_H_
