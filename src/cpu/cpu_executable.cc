#include "cpu/cpu_executable.h"

#include <cstring>
#include <optional>
#include <thread>

#include "cpu/cpu_buffer.h"
#include "cpu/cpu_client.h"
#include "cpu/cpu_device.h"
#include "cpu/exec/collective_hub.h"
#include "cpu/exec/literal.h"
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

StatusOr<ElementFormat> FormatOf(shlo::ElementType type) {
  std::optional<PJRT_Buffer_Type> pjrt = shlo::ToPjrtType(type);
  if (!pjrt) {
    return Unimplemented("element type ", shlo::ElementTypeName(type),
                         " has no PJRT buffer type");
  }
  return GetElementFormat(*pjrt);
}

// The argument as a tensor in the executor's storage format: the device bytes
// themselves where they agree, an unpacked copy for sub-byte types.
StatusOr<Tensor> TensorFromBuffer(const CpuBuffer& buffer) {
  PLUGRT_ASSIGN_OR_RETURN(sdk::EventRef defined, buffer.definition_event());
  PLUGRT_RETURN_IF_ERROR(defined->Await());
  PLUGRT_ASSIGN_OR_RETURN(StorageRef storage, buffer.storage());
  const ElementFormat& format = buffer.format();
  std::optional<shlo::ElementType> type = shlo::FromPjrtType(format.type);
  if (!type) return InvalidArgument("buffer type has no StableHLO element type");
  if (!format.packed) {
    return Tensor(*type, buffer.dimensions(), storage, static_cast<std::byte*>(storage->data()));
  }
  Tensor tensor(*type, buffer.dimensions());
  CopyDeviceToHost(format, buffer.dimensions(), storage->data(), tensor.MutableData(),
                   DenseHostStrides(format, buffer.dimensions()));
  return tensor;
}

StatusOr<std::unique_ptr<sdk::Buffer>> BufferFromTensor(CpuClient* client, CpuDevice* device,
                                                        const Tensor& tensor) {
  PLUGRT_ASSIGN_OR_RETURN(ElementFormat format, FormatOf(tensor.type()));
  CpuMemory* memory = device->device_memory();
  const size_t bytes = DeviceByteSize(format, tensor.num_elements());
  PLUGRT_ASSIGN_OR_RETURN(StorageRef storage, BufferStorage::Allocate(bytes, memory->accounting()));
  if (tensor.num_elements() > 0) {
    CopyHostToDevice(format, tensor.dims(), tensor.data(), DenseHostStrides(format, tensor.dims()),
                     storage->data());
  }
  return std::unique_ptr<sdk::Buffer>(new CpuBuffer(client, memory, format, tensor.dims(),
                                                    std::move(storage), sdk::Event::MakeReady()));
}

std::string BufferTypeString(const CpuBuffer& buffer) {
  std::optional<shlo::ElementType> type = shlo::FromPjrtType(buffer.format().type);
  if (!type) return "an untyped buffer";
  return shlo::Type::Tensor(*type, buffer.dimensions()).ToString();
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

CpuLoadedExecutable::CpuLoadedExecutable(CpuClient* client,
                                         std::shared_ptr<CpuExecutable> executable,
                                         std::vector<CpuDevice*> devices)
    : client_(client), executable_(std::move(executable)), devices_(std::move(devices)) {}

std::vector<sdk::Device*> CpuLoadedExecutable::addressable_devices() const {
  return std::vector<sdk::Device*>(devices_.begin(), devices_.end());
}

StatusOr<sdk::ExecuteResult> CpuLoadedExecutable::Execute(
    const std::vector<std::vector<sdk::Buffer*>>& argument_lists, sdk::Device* execute_device,
    const sdk::ExecuteOptions& options) {
  (void)options;
  if (deleted_) return FailedPrecondition("the executable has been deleted");
  std::vector<CpuDevice*> devices = devices_;
  if (execute_device != nullptr) {
    CpuDevice* device = client_->FindDevice(execute_device);
    if (device == nullptr) return InvalidArgument("execute_device is not a device of this client");
    if (devices_.size() != 1) {
      return InvalidArgument("execute_device needs a single-device executable; this one runs on ",
                             devices_.size(), " devices");
    }
    devices = {device};
  }
  if (argument_lists.size() != devices.size()) {
    return InvalidArgument("the executable runs on ", devices.size(),
                           " devices and needs one argument list per device; got ",
                           argument_lists.size());
  }

  const Program& program = executable_->program();
  const std::vector<shlo::Type>& inputs = program.entry().input_types;
  std::vector<std::vector<RtValue>> arguments(devices.size());
  for (size_t d = 0; d < devices.size(); ++d) {
    const std::vector<sdk::Buffer*>& list = argument_lists[d];
    if (list.size() != inputs.size()) {
      return InvalidArgument("device ", d, ": the program takes ", inputs.size(),
                             " arguments, got ", list.size());
    }
    for (size_t i = 0; i < list.size(); ++i) {
      auto* buffer = dynamic_cast<CpuBuffer*>(list[i]);
      if (buffer == nullptr) {
        return InvalidArgument("argument ", i, ": not a buffer of the CPU plugin");
      }
      std::optional<shlo::ElementType> type = shlo::FromPjrtType(buffer->format().type);
      if (!type || !inputs[i].is_tensor() || *type != inputs[i].element_type() ||
          buffer->dimensions() != inputs[i].dims()) {
        return InvalidArgument("argument ", i, " (device ", d, "): expected ",
                               inputs[i].ToString(), ", got ", BufferTypeString(*buffer));
      }
      StatusOr<Tensor> tensor = TensorFromBuffer(*buffer);
      if (!tensor.ok()) {
        return Status(tensor.status().code(),
                      StrCat("argument ", i, ": ", tensor.status().message()));
      }
      arguments[d].push_back(RtValue::Of(std::move(*tensor)));
    }
  }

  std::vector<StatusOr<std::vector<RtValue>>> results(devices.size(),
                                                     Status(StatusCode::kUnknown, "not run"));
  const int64_t partitions = executable_->num_partitions();
  // One rendezvous for the collectives of this execution's devices.
  std::optional<CollectiveHub> hub;
  if (devices.size() > 1) hub.emplace(executable_->num_replicas(), partitions);
  auto run_one = [&](size_t d) {
    ExecContext context;
    context.num_replicas = executable_->num_replicas();
    context.num_partitions = partitions;
    context.replica_id = static_cast<int64_t>(d) / partitions;
    context.partition_id = static_cast<int64_t>(d) % partitions;
    context.collectives = hub ? &*hub : nullptr;
    results[d] = program.Run(std::move(arguments[d]), context);
    // A finished or failed device must not leave its peers waiting in a
    // collective.
    if (hub && !results[d].ok()) hub->Abort(results[d].status());
    if (hub) hub->Finished(static_cast<int64_t>(d));
  };
  if (devices.size() == 1) {
    run_one(0);
  } else {
    std::vector<std::thread> threads;
    for (size_t d = 0; d < devices.size(); ++d) threads.emplace_back(run_one, d);
    for (std::thread& thread : threads) thread.join();
  }

  sdk::ExecuteResult result;
  for (size_t d = 0; d < devices.size(); ++d) {
    if (!results[d].ok()) return results[d].status();
    std::vector<std::unique_ptr<sdk::Buffer>> outputs;
    for (const RtValue& value : *results[d]) {
      if (value.kind != RtValue::Kind::kTensor) {
        return Unimplemented("program outputs must be tensors");
      }
      PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<sdk::Buffer> buffer,
                              BufferFromTensor(client_, devices[d], value.tensor));
      outputs.push_back(std::move(buffer));
    }
    result.outputs.push_back(std::move(outputs));
    result.device_complete_events.push_back(sdk::Event::MakeReady());
  }
  return result;
}

}  // namespace plugrt::cpu
