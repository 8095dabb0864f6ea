#include "cpu/cpu_executable.h"

#include <optional>

#include "stablehlo/chlo_lowering.h"
#include "stablehlo/parser.h"
#include "stablehlo/verifier.h"

namespace plugrt::cpu {
namespace {

// MLIR bytecode files start with these four bytes.
constexpr std::string_view kBytecodeMagic = "ML\xEFR";

// A replica or partition count: the module's `attribute` and the compile
// options' `option` (named `option_name`) must agree when both give it; 1 when
// neither does.
StatusOr<int64_t> ResolveCount(const shlo::Module& module, std::string_view attribute,
                               std::optional<int64_t> option, std::string_view option_name) {
  std::optional<int64_t> from_module;
  if (const shlo::Attribute* attr = shlo::FindAttribute(module.attributes, attribute)) {
    StatusOr<int64_t> value = shlo::AttrToInt(*attr);
    if (!value.ok()) return InvalidArgument("module attribute ", attribute, " must be an integer");
    if (*value < 1) {
      return InvalidArgument("module attribute ", attribute, " must be positive, got ", *value);
    }
    from_module = *value;
  }
  if (from_module && option && *from_module != *option) {
    return InvalidArgument("the program's ", attribute, " is ", *from_module,
                           " but the compile options' ", option_name, " is ", *option);
  }
  if (from_module) return *from_module;
  return option.value_or(1);
}

bool IsRowMajorOrder(const std::vector<int64_t>& minor_to_major) {
  const int64_t rank = static_cast<int64_t>(minor_to_major.size());
  for (int64_t i = 0; i < rank; ++i) {
    if (minor_to_major[i] != rank - 1 - i) return false;
  }
  return true;
}

// Argument layouts from the compile options against the entry function's
// parameters: same element type and dimensions, row-major storage.
Status CheckArgumentLayouts(const std::vector<ArgumentLayout>& layouts,
                            const std::vector<shlo::Type>& inputs) {
  if (layouts.empty()) return OkStatus();
  if (layouts.size() != inputs.size()) {
    return InvalidArgument("the compile options give ", layouts.size(),
                           " argument layouts but the program takes ", inputs.size(),
                           " arguments");
  }
  for (size_t i = 0; i < layouts.size(); ++i) {
    const ArgumentLayout& layout = layouts[i];
    std::optional<shlo::ElementType> type = shlo::FromPjrtType(layout.type);
    if (!type || !inputs[i].is_tensor() || *type != inputs[i].element_type() ||
        layout.dims != inputs[i].dims()) {
      return InvalidArgument("argument ", i, ": the compile options' argument layout is ",
                             ArgumentLayoutString(layout), " but the program's parameter is ",
                             inputs[i].ToString());
    }
    if (layout.minor_to_major && !IsRowMajorOrder(*layout.minor_to_major)) {
      return Unimplemented("argument ", i, ": the compile options ask for layout ",
                           ArgumentLayoutString(layout),
                           "; the CPU backend takes arguments only in the row-major layout");
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::shared_ptr<CpuExecutable>> CpuExecutable::Compile(std::string_view code,
                                                                std::string_view file_name,
                                                                const CompileOptions& options) {
  if (options.parameter_is_tupled_arguments) {
    return Unimplemented("compile options: parameter_is_tupled_arguments is not supported; "
                         "pass arguments one by one");
  }
  if (options.use_auto_spmd_partitioning) {
    return Unimplemented("compile options: use_auto_spmd_partitioning is not supported; the CPU "
                         "backend runs programs that are already partitioned");
  }
  if (code.substr(0, kBytecodeMagic.size()) == kBytecodeMagic) {
    return Unimplemented("MLIR bytecode programs are not supported yet; send StableHLO as text");
  }
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> parsed, shlo::ParseModule(code, file_name));
  PLUGRT_RETURN_IF_ERROR(shlo::VerifyModule(*parsed));
  PLUGRT_RETURN_IF_ERROR(shlo::LowerChlo(*parsed));
  std::shared_ptr<const shlo::Module> module = std::move(parsed);
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const Program> program, Program::Compile(module));

  auto executable = std::shared_ptr<CpuExecutable>(new CpuExecutable());
  executable->name_ = module->name.empty() ? program->entry().name : module->name;
  // Without explicit counts, a device assignment's shape gives them (the
  // decoder has checked that the two agree when both are present).
  const std::optional<DeviceAssignment>& assignment = options.device_assignment;
  std::optional<int64_t> option_replicas = options.num_replicas;
  std::optional<int64_t> option_partitions = options.num_partitions;
  if (assignment && !option_replicas) option_replicas = assignment->replicas;
  if (assignment && !option_partitions) option_partitions = assignment->computations;
  PLUGRT_ASSIGN_OR_RETURN(executable->num_replicas_,
                          ResolveCount(*module, "mhlo.num_replicas", option_replicas,
                                       options.num_replicas ? "num_replicas"
                                                            : "device assignment's replica count"));
  PLUGRT_ASSIGN_OR_RETURN(
      executable->num_partitions_,
      ResolveCount(*module, "mhlo.num_partitions", option_partitions,
                   options.num_partitions ? "num_partitions"
                                          : "device assignment's computation count"));
  if (options.compile_portable_executable &&
      executable->num_replicas_ * executable->num_partitions_ != 1) {
    return InvalidArgument("compile options: a portable executable runs on one device, but the "
                           "program has ", executable->num_replicas_, " replicas x ",
                           executable->num_partitions_, " partitions");
  }
  PLUGRT_RETURN_IF_ERROR(CheckArgumentLayouts(options.argument_layouts,
                                              program->entry().input_types));
  executable->compile_options_ = options;
  for (const shlo::Type& type : program->entry().result_types) {
    if (!type.is_tensor() || !type.has_static_shape()) {
      return Unimplemented("entry function results must be tensors of static shape; ",
                           type.ToString(), " is not supported as a program output");
    }
  }
  executable->program_ = std::move(program);
  return executable;
}

size_t CpuExecutable::num_outputs() const { return program_->entry().result_types.size(); }

StatusOr<std::vector<PJRT_Buffer_Type>> CpuExecutable::output_element_types() const {
  std::vector<PJRT_Buffer_Type> types;
  for (const shlo::Type& type : program_->entry().result_types) {
    std::optional<PJRT_Buffer_Type> pjrt = shlo::ToPjrtType(type.element_type());
    types.push_back(pjrt ? *pjrt : PJRT_Buffer_Type_INVALID);
  }
  return types;
}

StatusOr<std::vector<std::vector<int64_t>>> CpuExecutable::output_dimensions() const {
  std::vector<std::vector<int64_t>> dims;
  for (const shlo::Type& type : program_->entry().result_types) dims.push_back(type.dims());
  return dims;
}

StatusOr<std::vector<std::string>> CpuExecutable::output_memory_kinds() const {
  return std::vector<std::string>(num_outputs(), "device");
}

}  // namespace plugrt::cpu
