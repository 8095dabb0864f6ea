// plugrt compiler: the one pipeline from program bytes to lowered IR.
//
// Every compile runs the same steps, in this order (pipeline.cc reads the
// same way, top to bottom):
//
//   read               bytes -> IR module (importers/read_program.h)
//   check              the backend's checks against the compile options
//                      (device counts, argument layouts, placement)
//   lower-sharding     Shardy / sharding wrappers -> plain StableHLO
//   verify             the IR verifier (stablehlo/verifier.h)
//   refine-shapes      '?' dims from the argument shapes, when known now;
//                      otherwise the program stays shape-polymorphic and the
//                      steps below run per call shape (LowerSpecialization)
//   optimizer:NAME     the client's optimizer plugins, each answer verified
//   lower-quantized    uniform quantized types -> storage integers
//   lower-chlo         CHLO -> StableHLO (and plugrt.math.* custom calls)
//   lower-approx-top-k approximate top-k -> exact
//   inlining, algebraic-simplification, while-loop-hoisting, transpose-folding,
//   cse, dead-code-elimination (switchable)
//
// What follows is the backend's: it plans the lowered module (the CPU
// backend's constant folding, elementwise fusion and buffer reuse happen in
// its planner, cpu/exec/plan_builder.h) and records that as the step "plan".
//
// The pass switches are resolved once per compile (Compilation) and the
// backend's planning reads the same resolved set. No step prints and parses
// a module: a polymorphic program is specialised on a clone of its IR.
#ifndef PLUGRT_COMPILER_PIPELINE_H_
#define PLUGRT_COMPILER_PIPELINE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "compile_options/compile_options.h"
#include "compiler/compile_dump.h"
#include "compiler/importers/read_options.h"
#include "compiler/pass_config.h"
#include "compiler/pass_runner.h"
#include "compiler/passes/optimizer_plugins.h"
#include "compiler/passes/refine_shapes.h"
#include "stablehlo/ir.h"

namespace plugrt::compiler {

// What a client adds to each of its compiles.
struct PipelineOptions {
  // Its optimizer plugins (null: none), run as passes of the pipeline.
  std::shared_ptr<passes::OptimizerPlugins> optimizers = nullptr;
  // The user's pass switches (the client's "passes" option).
  passes::PassSwitches user_passes = {};
};

struct DeviceCounts {
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
};

// The merged switches for a compile with `options`: the optimizer plugins'
// wishes, the user's switches, then the compile option override
// kPassesOverride; warnings included. INVALID_ARGUMENT for a malformed
// override or an unknown "plugrt_" override.
StatusOr<passes::PassConfig> ResolvePasses(const PipelineOptions& pipeline,
                                           const CompileOptions& options);

// One compile's record: its resolved pass switches, the report of every
// step (`plugrt compile --passes`), and the dump the compile options ask for
// (kDumpToOverride, kPrintAfterOverride). The report is written when the
// compilation ends, however it ends.
class Compilation {
 public:
  static StatusOr<std::unique_ptr<Compilation>> Start(const PipelineOptions& pipeline,
                                                      const CompileOptions& options);
  ~Compilation();
  Compilation(const Compilation&) = delete;
  Compilation& operator=(const Compilation&) = delete;

  const PipelineOptions& pipeline() const { return pipeline_; }
  const CompileOptions& options() const { return options_; }
  const passes::PassConfig& passes() const { return config_; }
  // How the program is read (kFillElidedOverride).
  const shlo::ReadOptions& read_options() const { return read_options_; }
  passes::PassRunner& runner() { return runner_; }
  const passes::PassReport& report() const { return report_; }

 private:
  Compilation(const PipelineOptions& pipeline, const CompileOptions& options,
              passes::PassConfig config, shlo::ReadOptions read_options);

  PipelineOptions pipeline_;
  CompileOptions options_;
  passes::PassConfig config_;
  shlo::ReadOptions read_options_;
  passes::PassReport report_;
  CompileDump dump_;
  passes::PassRunner runner_;
};

// The backend's checks of a program just read, against the compile options:
// the counts it runs with, or why it cannot run. They run before anything
// else is spent on the program.
using CheckProgram = std::function<StatusOr<DeviceCounts>(const shlo::Module&)>;

struct PipelineResult {
  std::unique_ptr<shlo::Module> module;
  DeviceCounts counts;
  // Verified but not lowered: its shapes come with each call
  // (LowerSpecialization on a clone).
  bool polymorphic = false;
};

// The whole pipeline for the program `code` in PJRT compile format `format`
// ("mlir": StableHLO text or bytecode; "hlo", "hlo_with_config": XLA's
// HloModuleProto; `file_name` names it in errors), as `compilation` records it.
StatusOr<PipelineResult> RunPipeline(std::string_view code, std::string_view file_name,
                                     const CheckProgram& check, Compilation& compilation,
                                     std::string_view format = "mlir");

// Refines `module` (a clone of a verified polymorphic module) to `shapes`
// (per entry parameter its type and, for dimension arguments, the value),
// verifies it and runs the lowering steps with the switches `config`. Errors
// name the arguments. Specialisations are not reported.
Status LowerSpecialization(std::unique_ptr<shlo::Module>& module,
                           const passes::EntryRefinement& shapes,
                           const PipelineOptions& pipeline, const passes::PassConfig& config,
                           DeviceCounts counts);

}  // namespace plugrt::compiler

#endif  // PLUGRT_COMPILER_PIPELINE_H_
