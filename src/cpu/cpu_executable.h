// plugrt CPU backend: compiled StableHLO programs (sdk::Executable): the
// compile through the compiler's pipeline, specialisation, serialization
// and metadata. Their binding to a client's devices is
// cpu_loaded_executable.h.
#ifndef PLUGRT_CPU_CPU_EXECUTABLE_H_
#define PLUGRT_CPU_CPU_EXECUTABLE_H_

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "compile_options/compile_options.h"
#include "compiler/pipeline.h"
#include "cpu/exec/program.h"
#include "sdk/executable.h"
#include "stablehlo/donation.h"

namespace plugrt::cpu {

// Donation is read from the entry function's argument attributes.
using shlo::DonatableInputs;
using shlo::kDonatedOnly;
using shlo::kNotDonated;

class CpuClient;
class CpuDevice;

// Where a compile stands once the cheap checks passed: the counts the program
// runs with, and the options. A loading client checks placement here
// (devices for replicas x partitions, the device assignment) before the
// expensive part of the compile starts.
using PlacementCheck =
    std::function<Status(int64_t num_replicas, int64_t num_partitions, const CompileOptions&)>;

class CpuExecutable final : public sdk::Executable {
 public:
  // Parses, checks and compiles StableHLO text. `file_name` names the text
  // in error messages. `options` must agree with the program: replica and
  // partition counts with its mhlo.num_replicas / mhlo.num_partitions, argument
  // layouts with its entry function's parameters. Those checks, and
  // `placement` (the loading client's device assignment), run right after
  // parsing, before verification, lowering and the executor's compile.
  // `format` is PJRT's compile format: "mlir" (StableHLO text or bytecode),
  // "hlo" or "hlo_with_config" (XLA's serialized HloModuleProto).
  static StatusOr<std::shared_ptr<CpuExecutable>> Compile(
      std::string_view code, std::string_view file_name, const CompileOptions& options = {},
      const ProgramOptions& program_options = {}, const PlacementCheck& placement = nullptr,
      std::string_view format = "mlir");
  // What PJRT_Client_Compile and PJRT_Compile hand over: a program in format
  // "mlir", "hlo" or "hlo_with_config" and serialized compile options
  // (decoded into `decoded`).
  static StatusOr<std::shared_ptr<CpuExecutable>> CompileProgram(
      const sdk::Program& program, std::string_view compile_options, CompileOptions* decoded,
      const ProgramOptions& program_options = {}, const PlacementCheck& placement = nullptr);

  // Rebuilds an executable from Serialize()'s bytes without parsing text:
  // the stored module already passed the verifier and the CHLO lowering, so
  // only the executor's compile runs. INVALID_ARGUMENT for truncated,
  // corrupted or foreign bytes and for another format version (both named).
  static StatusOr<std::shared_ptr<CpuExecutable>> Deserialize(
      std::string_view bytes, const ProgramOptions& program_options = {});

  std::string_view name() const override { return name_; }
  int64_t num_replicas() const override { return num_replicas_; }
  int64_t num_partitions() const override { return num_partitions_; }
  size_t num_outputs() const override;
  StatusOr<std::vector<PJRT_Buffer_Type>> output_element_types() const override;
  StatusOr<std::vector<std::vector<int64_t>>> output_dimensions() const override;
  StatusOr<std::vector<std::string>> output_memory_kinds() const override;
  // The serialized lowered module: the plan the executor compiles, constants
  // included (the CPU backend generates no machine code).
  StatusOr<int64_t> size_of_generated_code_in_bytes() const override;
  // Format "mlir": the module after verification and CHLO lowering.
  StatusOr<std::string> optimized_program(std::string* format) const override;
  StatusOr<std::string> Serialize() const override;
  // ContentHash of the serialized module and the encoded compile options.
  StatusOr<std::string> fingerprint() const override;
  StatusOr<sdk::Attributes> cost_analysis() const override;
  // Whether one execution is small enough to run on the calling thread
  // (estimated work of a few microseconds) and has no host transfers or
  // custom calls that could wait on the caller.
  bool RunsInline() const { return runs_inline_; }
  StatusOr<CompiledMemoryStats> compiled_memory_stats() const override;
  StatusOr<std::string> serialized_compile_options() const override;

  // A shape-polymorphic program ('?' dims, dimension arguments) compiles to
  // no plan of its own: each set of argument types and dimension values
  // gets a static executable (Specialize). Only then do program() and the
  // executor exist.
  bool is_polymorphic() const { return program_ == nullptr; }
  // The entry function's dimension arguments (passes::DimensionArguments).
  const std::vector<size_t>& dimension_arguments() const { return dimension_arguments_; }
  // The static executable for these argument types and dimension-argument
  // values (per entry parameter; nullopt for the others): the program's
  // shapes refined (compiler/passes/refine_shapes.h), verified, lowered and compiled
  // once per distinct set, then served from a cache.
  StatusOr<std::shared_ptr<CpuExecutable>> Specialize(
      const std::vector<shlo::Type>& argument_types,
      const std::vector<std::optional<int64_t>>& dimension_values) const;

  const Program& program() const { return *program_; }
  const shlo::Module& module() const { return program_ ? program_->module() : *polymorphic_; }
  // The options it was compiled with, as decoded.
  const CompileOptions& compile_options() const { return compile_options_; }
  // Partitions run one copy of the program each (SPMD); the CPU backend
  // runs every partition that way, this records what was asked for.
  bool use_spmd_partitioning() const { return compile_options_.use_spmd_partitioning; }

 private:
  using Counts = compiler::DeviceCounts;
  // The checks that need only the parsed module and the options: replica and
  // partition counts, portability, argument layouts, output types, then
  // `placement`.
  static StatusOr<Counts> CheckOptions(const shlo::Module& module, const CompileOptions& options,
                                       const PlacementCheck& placement);
  // The executor's compile (the step "plan", recorded by `runner` when given)
  // for a module the pipeline has lowered, with the pass switches the
  // pipeline resolved (program_options.passes).
  static StatusOr<std::shared_ptr<CpuExecutable>> FromLoweredModule(
      std::shared_ptr<const shlo::Module> module, const CompileOptions& options, Counts counts,
      const ProgramOptions& program_options, passes::PassRunner* runner = nullptr);

  // A polymorphic program: verified, not lowered (see is_polymorphic).
  static StatusOr<std::shared_ptr<CpuExecutable>> FromPolymorphicModule(
      std::shared_ptr<const shlo::Module> module, const CompileOptions& options, Counts counts,
      const ProgramOptions& program_options);
  // The entry function: the program's, or the polymorphic module's.
  const shlo::Function& entry() const;

  std::shared_ptr<const shlo::Module> polymorphic_;  // set when is_polymorphic()
  std::vector<size_t> dimension_arguments_;
  ProgramOptions program_options_;
  mutable std::mutex specializations_mu_;
  mutable std::map<std::string, std::shared_ptr<CpuExecutable>> specializations_;

  std::string name_;
  int64_t num_replicas_ = 1;
  int64_t num_partitions_ = 1;
  CompileOptions compile_options_;
  std::shared_ptr<const Program> program_;
  std::string module_bytes_;   // shlo::SerializeModule(module())
  std::string options_bytes_;  // EncodeCompileOptions(compile_options_)
  bool runs_inline_ = false;  // decided once, at compile/load
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_EXECUTABLE_H_
