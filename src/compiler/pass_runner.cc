#include "compiler/pass_runner.h"

#include "profiler/recorder.h"

#include <chrono>
#include <cstdio>

#include "compiler/passes/algebraic_simplify.h"
#include "compiler/passes/cse.h"
#include "compiler/passes/dead_code.h"
#include "compiler/passes/inlining.h"
#include "compiler/passes/transpose_folding.h"
#include "compiler/passes/while_loop_hoisting.h"

namespace plugrt::passes {
namespace {

std::string_view KindName(PassRecord::Kind kind) {
  switch (kind) {
    case PassRecord::Kind::kRequired: return "required";
    case PassRecord::Kind::kBuiltin: return "built-in";
    case PassRecord::Kind::kPlugin: return "plugin";
    case PassRecord::Kind::kPlan: return "plan";
  }
  return "?";
}

}  // namespace

std::string PassReport::ToString() const {
  std::string out;
  for (const PassRecord& record : records) {
    char time[32];
    std::snprintf(time, sizeof(time), "%10.1f us", record.micros);
    char line[96];
    std::snprintf(line, sizeof(line), "%-28s %-9s ", record.name.c_str(),
                  std::string(KindName(record.kind)).c_str());
    out += line;
    if (!record.ran) {
      out += StrCat("   skipped: ", record.note, "\n");
      continue;
    }
    out += time;
    if (record.changed) out += "  changed";
    if (!record.note.empty()) out += StrCat("  (", record.note, ")");
    out += "\n";
  }
  for (const std::string& warning : warnings) out += StrCat("warning: ", warning, "\n");
  return out;
}

Status PassRunner::Run(std::string_view name, PassRecord::Kind kind, shlo::Module& module,
                       const std::function<StatusOr<bool>()>& pass) {
  profiler::ScopedEvent traced(profiler::category::kCompile, name);
  const auto start = std::chrono::steady_clock::now();
  StatusOr<bool> changed = pass();
  PassRecord record;
  record.name = std::string(name);
  record.kind = kind;
  record.micros =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  if (!changed.ok()) {
    record.note = StrCat("failed: ", changed.status().message());
    report_.records.push_back(std::move(record));
    return changed.status();
  }
  record.changed = *changed;
  report_.records.push_back(std::move(record));
  if (after_) after_(name, module);
  return OkStatus();
}

void PassRunner::Skip(std::string_view name, PassRecord::Kind kind, std::string why) {
  PassRecord record;
  record.name = std::string(name);
  record.kind = kind;
  record.ran = false;
  record.note = std::move(why);
  report_.records.push_back(std::move(record));
}

Status RunBuiltinModulePasses(shlo::Module& module, const PassConfig& config, PassRunner& runner) {
  struct ModulePass {
    BuiltinPass pass;
    bool (*run)(shlo::Module&);
  };
  static constexpr ModulePass kModulePasses[] = {
      {BuiltinPass::inlining, &InlineCalls},
      {BuiltinPass::algebraic_simplification, &SimplifyAlgebra},
      {BuiltinPass::while_loop_hoisting, &HoistWhileLoopInvariants},
      {BuiltinPass::transpose_folding, &FoldTransposesIntoDots},
      {BuiltinPass::common_subexpression_elimination, &EliminateCommonSubexpressions},
      {BuiltinPass::dead_code_elimination, &EliminateDeadCode},
  };
  for (const ModulePass& entry : kModulePasses) {
    const std::string_view name = BuiltinPassName(entry.pass);
    if (!config.on(entry.pass)) {
      runner.Skip(name, PassRecord::Kind::kBuiltin, "switched off");
      continue;
    }
    PLUGRT_RETURN_IF_ERROR(runner.Run(name, PassRecord::Kind::kBuiltin, module,
                                      [&]() -> StatusOr<bool> { return entry.run(module); }));
  }
  return OkStatus();
}

Status RunOptimizerPlugins(std::unique_ptr<shlo::Module>& module, const OptimizerPlugins& plugins,
                           const OptimizerItemInfo& info, PassRunner& runner) {
  for (const RegisteredOptimizer& optimizer : plugins.optimizers()) {
    PLUGRT_RETURN_IF_ERROR(runner.Run(
        StrCat("optimizer:", optimizer.name), PassRecord::Kind::kPlugin, *module,
        [&]() -> StatusOr<bool> {
          PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> rewritten,
                                  plugins.Run(optimizer, *module, info));
          if (rewritten == nullptr) return false;
          // In place: the runner shows this same module to its observer.
          *module = std::move(*rewritten);
          return true;
        }));
  }
  return OkStatus();
}

PassConfig ResolvePassConfig(const OptimizerPlugins* plugins, const PassSwitches& user) {
  std::vector<SwitchSource> sources;
  if (plugins != nullptr) {
    for (const RegisteredOptimizer& optimizer : plugins->optimizers()) {
      sources.push_back({optimizer.Describe(), optimizer.switches, false});
    }
  }
  sources.push_back({"the user (PLUGRT_PASSES / compile option plugrt_passes)", user, true});
  return MergePassSwitches(sources);
}

}  // namespace plugrt::passes
