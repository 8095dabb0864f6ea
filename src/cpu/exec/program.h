// plugrt CPU executor: a compiled module, ready to run many times.
#ifndef PLUGRT_CPU_EXEC_PROGRAM_H_
#define PLUGRT_CPU_EXEC_PROGRAM_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "cpu/exec/compiled_op.h"
#include "stablehlo/ir.h"

namespace plugrt::cpu {

class Program {
 public:
  // Compiles the module's entry function (@main, or its only public
  // function) and everything it calls.
  static StatusOr<std::shared_ptr<const Program>> Compile(
      std::shared_ptr<const shlo::Module> module, const ProgramOptions& options = {});

  const shlo::Module& module() const { return *module_; }
  const shlo::Function& entry() const { return *entry_; }

  // Runs the entry function. Arguments must match its input types (the
  // caller checks and reports mismatches by argument).
  StatusOr<std::vector<RtValue>> Run(std::vector<RtValue> arguments, ExecContext& context) const;
  // Set when the entry function is one op over its arguments that writes
  // its one result into a given tensor (compiled_op.h): callers may run
  // that op on the argument and output memory directly.
  const SingleOpRegion* single_op() const { return body_->single_op(); }
  // The module's name, else the entry function's.
  const std::string& name() const;

 private:
  // Run under a profiler session: one execute event, its steps as kernels.
  StatusOr<std::vector<RtValue>> TracedRun(std::vector<RtValue> arguments,
                                           ExecContext& context) const;
  StatusOr<std::vector<RtValue>> RunBody(std::vector<RtValue> arguments,
                                         ExecContext& context) const;

  std::shared_ptr<const shlo::Module> module_;
  const shlo::Function* entry_ = nullptr;
  std::shared_ptr<const CompiledRegion> body_;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_PROGRAM_H_
