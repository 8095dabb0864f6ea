// plugrt passes: the compile pipeline as a list of named passes.
//
// A backend's compile runs its steps through a PassRunner: each step is a
// named pass (a required lowering, a switchable built-in pass, an optimizer
// plugin, or the backend's planning) that the runner times and records in a
// PassReport, and after which it can hand the module to an observer
// (`plugrt compile --print-after`). RunBuiltinModulePasses runs the built-in
// module passes in their order, each as its switch says.
#ifndef PLUGRT_COMPILER_PASS_RUNNER_H_
#define PLUGRT_COMPILER_PASS_RUNNER_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "compiler/passes/optimizer_plugins.h"
#include "compiler/pass_config.h"
#include "stablehlo/ir.h"

namespace plugrt::passes {

struct PassRecord {
  enum class Kind { kRequired, kBuiltin, kPlugin, kPlan };
  std::string name;
  Kind kind = Kind::kRequired;
  bool ran = true;
  bool changed = false;  // the module changed (module passes that tell)
  double micros = 0;
  std::string note;  // why it did not run; for the plan, what it did
};

struct PassReport {
  std::vector<PassRecord> records;
  std::vector<std::string> warnings;

  // One line per pass: name, kind, time or why it was skipped; then the
  // warnings. What `plugrt compile --passes` prints.
  std::string ToString() const;
};

class PassRunner {
 public:
  // `after(name, module)`: called after each pass that ran (may be empty).
  using Observer = std::function<void(std::string_view, const shlo::Module&)>;
  PassRunner(PassReport& report, Observer after) : report_(report), after_(std::move(after)) {}

  // Runs `pass` (true: it changed the module) as `name`, records it, and
  // shows the module to the observer. Its error is returned unchanged.
  Status Run(std::string_view name, PassRecord::Kind kind, shlo::Module& module,
             const std::function<StatusOr<bool>()>& pass);
  // Records a pass that did not run, and why.
  void Skip(std::string_view name, PassRecord::Kind kind, std::string why);
  // Records a step that is not a module pass (the backend's planning).
  void Record(PassRecord record) { report_.records.push_back(std::move(record)); }

 private:
  PassReport& report_;
  Observer after_;
};

// algebraic-simplification, cse, dead-code-elimination, each when `config`
// has it on.
Status RunBuiltinModulePasses(shlo::Module& module, const PassConfig& config, PassRunner& runner);

// Runs `plugins`' optimizers in order (each a pass named "optimizer:NAME"),
// replacing `module` with each one's verified answer.
Status RunOptimizerPlugins(std::unique_ptr<shlo::Module>& module, const OptimizerPlugins& plugins,
                           const OptimizerItemInfo& info, PassRunner& runner);

// The merged switches of `plugins` (may be null) and the user's.
PassConfig ResolvePassConfig(const OptimizerPlugins* plugins, const PassSwitches& user);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASS_RUNNER_H_
