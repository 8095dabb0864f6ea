#include "compiler/pipeline.h"

#include <chrono>
#include <variant>

#include "compiler/importers/read_program.h"
#include "compiler/passes/approx_top_k.h"
#include "compiler/passes/lower_chlo.h"
#include "compiler/passes/lower_quantized.h"
#include "compiler/passes/flatten_entry_tuples.h"
#include "compiler/passes/lower_sharding.h"
#include "compiler/passes/lower_tensor_ops.h"
#include "compiler/passes/refine_shapes.h"
#include "profiler/recorder.h"
#include "stablehlo/donation.h"
#include "stablehlo/verifier.h"

namespace plugrt::compiler {
namespace {

using passes::PassRecord;
using passes::PassRunner;

// Runs `step` as a required pass (one that does not say whether it changed
// the module).
Status Required(PassRunner& runner, std::string_view name, shlo::Module& module,
                const std::function<Status()>& step) {
  return runner.Run(name, PassRecord::Kind::kRequired, module, [&]() -> StatusOr<bool> {
    PLUGRT_RETURN_IF_ERROR(step());
    return false;
  });
}

Status RunOptimizers(std::unique_ptr<shlo::Module>& module, const passes::OptimizerPlugins& plugins,
                     DeviceCounts counts, PassRunner& runner) {
  passes::OptimizerItemInfo info;
  info.num_replicas = counts.num_replicas;
  info.num_partitions = counts.num_partitions;
  if (const shlo::Function* entry = module->EntryFunction()) {
    const std::vector<int64_t> donation = shlo::DonatableInputs(*entry);
    for (size_t i = 0; i < donation.size(); ++i) {
      if (donation[i] != shlo::kNotDonated) info.donated_arguments.push_back(static_cast<int64_t>(i));
    }
  }
  return passes::RunOptimizerPlugins(module, plugins, info, runner);
}

// The steps after the shapes are known, in order: from a verified static
// program to what a backend plans.
Status Lower(std::unique_ptr<shlo::Module>& module, const PipelineOptions& pipeline,
             const passes::PassConfig& config, DeviceCounts counts, PassRunner& runner) {
  if (pipeline.optimizers != nullptr && !pipeline.optimizers->optimizers().empty()) {
    PLUGRT_RETURN_IF_ERROR(RunOptimizers(module, *pipeline.optimizers, counts, runner));
  }
  shlo::Module& m = *module;
  // Verified again after: the verifier checks quantized ops only for their
  // quantization rules, their shapes on what they became.
  if (passes::HasQuantizedTypes(m)) {
    PLUGRT_RETURN_IF_ERROR(runner.Run("lower-quantized", PassRecord::Kind::kRequired, m,
                                      [&]() -> StatusOr<bool> {
                                        PLUGRT_RETURN_IF_ERROR(passes::LowerQuantized(m));
                                        PLUGRT_RETURN_IF_ERROR(shlo::VerifyModule(m));
                                        return true;
                                      }));
  }
  PLUGRT_RETURN_IF_ERROR(Required(runner, "lower-chlo", m, [&] { return shlo::LowerChlo(m); }));
  PLUGRT_RETURN_IF_ERROR(
      Required(runner, "lower-approx-top-k", m, [&] { return passes::LowerApproxTopK(m); }));
  // algebraic-simplification, cse, dead-code-elimination, as switched.
  return passes::RunBuiltinModulePasses(m, config, runner);
}

// The argument types the compile options' layouts give, when every argument
// has one.
std::vector<shlo::Type> TypesFromLayouts(const CompileOptions& options) {
  std::vector<shlo::Type> types;
  for (const ArgumentLayout& layout : options.argument_layouts) {
    std::optional<shlo::ElementType> type = shlo::FromPjrtType(layout.type);
    if (type) types.push_back(shlo::Type::Tensor(*type, layout.dims));
  }
  if (types.size() != options.argument_layouts.size()) types.clear();
  return types;
}

}  // namespace

StatusOr<passes::PassConfig> ResolvePasses(const PipelineOptions& pipeline,
                                           const CompileOptions& options) {
  for (const auto& [name, value] : options.env_option_overrides) {
    if (name.rfind("plugrt_", 0) != 0) continue;  // another backend's
    const bool known = name == kPassesOverride || name == kDumpToOverride ||
                       name == kPrintAfterOverride || name == kFillElidedOverride;
    if (!known) {
      return InvalidArgument("compile options: env_option_overrides has no option '", name,
                             "'; the CPU plugin reads ", kPassesOverride, ", ", kDumpToOverride,
                             ", ", kPrintAfterOverride, " and ", kFillElidedOverride);
    }
    if (!std::holds_alternative<std::string>(value)) {
      return InvalidArgument("compile options: env_option_overrides[\"", name,
                             "\"] must be a string");
    }
  }
  passes::PassSwitches user = pipeline.user_passes;
  if (const std::string* text = TextOverride(options, kPassesOverride)) {
    PLUGRT_ASSIGN_OR_RETURN(
        passes::PassSwitches given,
        passes::ParsePassSwitches(*text, StrCat("compile option ", kPassesOverride)));
    for (int i = 0; i < passes::kNumBuiltinPasses; ++i) {
      if (given.values[i] != PLUGRT_PassSwitch_DEFAULT) user.values[i] = given.values[i];
    }
  }
  return passes::ResolvePassConfig(pipeline.optimizers.get(), user);
}

StatusOr<std::unique_ptr<Compilation>> Compilation::Start(const PipelineOptions& pipeline,
                                                          const CompileOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(passes::PassConfig config, ResolvePasses(pipeline, options));
  shlo::ReadOptions read;
  if (const std::string* fill = TextOverride(options, kFillElidedOverride)) {
    StatusOr<shlo::ElidedConstantFill> parsed = shlo::ElidedConstantFill::Parse(*fill);
    if (!parsed.ok()) {
      return InvalidArgument("compile option ", kFillElidedOverride, ": ",
                             parsed.status().message());
    }
    read.elided = *parsed;
  }
  return std::unique_ptr<Compilation>(
      new Compilation(pipeline, options, std::move(config), read));
}

Compilation::Compilation(const PipelineOptions& pipeline, const CompileOptions& options,
                         passes::PassConfig config, shlo::ReadOptions read_options)
    : pipeline_(pipeline),
      options_(options),
      config_(std::move(config)),
      read_options_(read_options),
      dump_(options),
      runner_(report_, dump_.Observer()) {
  report_.warnings = config_.warnings;
}

Compilation::~Compilation() { dump_.WriteReport(report_); }

StatusOr<PipelineResult> RunPipeline(std::string_view code, std::string_view file_name,
                                     const CheckProgram& check, Compilation& compilation,
                                     std::string_view format) {
  PassRunner& runner = compilation.runner();
  PipelineResult result;

  // read: text or bytecode (told apart by the content), or an HLO proto.
  {
    const auto start = std::chrono::steady_clock::now();
    profiler::ScopedEvent traced(profiler::category::kCompile, "read");
    PLUGRT_ASSIGN_OR_RETURN(result.module, shlo::ReadProgram(code, file_name, format, compilation.read_options()));
    PassRecord read;
    read.name = "read";
    read.micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() -
                                                            start).count();
    runner.Record(std::move(read));
  }
  shlo::Module& module = *result.module;

  // lower-tensor-ops: tensor.extract / tensor.from_elements exporters mix in.
  PLUGRT_RETURN_IF_ERROR(runner.Run("lower-tensor-ops", PassRecord::Kind::kRequired, module,
                                    [&] { return passes::LowerTensorOps(module); }));

  // flatten-entry-tuples: tuples in the entry's signature become their
  // leaves, the arguments and results a PJRT client sees (and checks).
  PLUGRT_RETURN_IF_ERROR(runner.Run("flatten-entry-tuples", PassRecord::Kind::kRequired, module,
                                    [&] { return passes::FlattenEntryTuples(module); }));

  // check: a program compiled for the wrong device count fails before
  // verification, lowering and planning are spent on it.
  if (check) {
    PLUGRT_ASSIGN_OR_RETURN(result.counts, check(module));
  }

  // lower-sharding: first, since the verifier knows StableHLO, not Shardy.
  PLUGRT_RETURN_IF_ERROR(Required(runner, "lower-sharding", module, [&] {
    return shlo::LowerShardingOps(module, result.counts.num_partitions);
  }));

  PLUGRT_RETURN_IF_ERROR(Required(runner, "verify", module, [&] { return shlo::VerifyModule(module); }));

  // refine-shapes: static argument layouts in the options give the shapes
  // now, unless the program also needs dimension values, which only
  // arguments carry.
  if (passes::IsShapePolymorphic(module)) {
    std::vector<shlo::Type> types = TypesFromLayouts(compilation.options());
    if (types.empty() || !passes::DimensionArguments(module).empty()) {
      runner.Skip("refine-shapes", PassRecord::Kind::kRequired,
                  "shape-polymorphic: the rest runs at the first call with concrete shapes");
      result.polymorphic = true;
      return result;
    }
    PLUGRT_RETURN_IF_ERROR(Required(runner, "refine-shapes", module, [&] {
      PLUGRT_RETURN_IF_ERROR(passes::RefineShapes(module, {std::move(types), {}}));
      return shlo::VerifyModule(module);
    }));
  }

  // optimizer plugins, lower-quantized, lower-chlo, lower-approx-top-k, the
  // built-in module passes.
  PLUGRT_RETURN_IF_ERROR(Lower(result.module, compilation.pipeline(), compilation.passes(),
                               result.counts, runner));
  return result;
}

Status LowerSpecialization(std::unique_ptr<shlo::Module>& module,
                           const passes::EntryRefinement& shapes,
                           const PipelineOptions& pipeline, const passes::PassConfig& config,
                           DeviceCounts counts) {
  // Errors end with what the arguments were, dimension values included.
  auto with_arguments = [&](const Status& status, std::string_view prefix) {
    std::string given;
    for (size_t i = 0; i < shapes.argument_types.size(); ++i) {
      given += (i == 0 ? "" : ", ") + shapes.argument_types[i].ToString();
      if (i < shapes.argument_values.size() && shapes.argument_values[i]) {
        given += " = " + std::to_string(*shapes.argument_values[i]);
      }
    }
    return Status(status.code(), StrCat(prefix, status.message(), " (arguments: ", given, ")"));
  };
  Status refined = passes::RefineShapes(*module, shapes);
  if (!refined.ok()) return with_arguments(refined, "");
  Status verified = shlo::VerifyModule(*module);
  if (!verified.ok()) {
    return with_arguments(verified, "the argument shapes contradict the program: ");
  }
  passes::PassReport report;  // specialisations are not reported
  PassRunner runner(report, nullptr);
  return Lower(module, pipeline, config, counts, runner);
}

}  // namespace plugrt::compiler
