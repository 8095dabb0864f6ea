#include "client/executable.h"

#include <cstring>
#include <utility>

#include "client/api_call.h"
#include "client/call_trace.h"
#include "client/client_handle.h"
#include "client/handle_list.h"
#include "client/named_value_c.h"
#include "common/small_array.h"

namespace plugrt {

using internal::Call;
using internal::NewArgs;
using internal::StringFromC;

namespace {
StatusOr<size_t> QueryNumOutputs(const PJRT_Api* api, PJRT_Executable* executable);
}  // namespace

LoadedExecutable::LoadedExecutable(std::shared_ptr<internal::ClientHandle> owner,
                                   const PJRT_Api* api, PJRT_LoadedExecutable* loaded,
                                   PJRT_Executable* executable)
    : owner_(std::move(owner)), api_(api), loaded_(loaded), executable_(executable) {
  // Asked on every execute: read once (a failure is left for num_outputs()
  // to report when asked).
  if (executable_ != nullptr) {
    StatusOr<size_t> n = QueryNumOutputs(api_, executable_);
    if (n.ok()) num_outputs_ = *n;
  }
}

LoadedExecutable::~LoadedExecutable() { Reset(); }

LoadedExecutable::LoadedExecutable(LoadedExecutable&& other) noexcept
    : owner_(std::move(other.owner_)),
      api_(other.api_),
      loaded_(std::exchange(other.loaded_, nullptr)),
      executable_(std::exchange(other.executable_, nullptr)),
      num_outputs_(std::exchange(other.num_outputs_, std::nullopt)) {}

LoadedExecutable& LoadedExecutable::operator=(LoadedExecutable&& other) noexcept {
  if (this != &other) {
    Reset();
    owner_ = std::move(other.owner_);
    api_ = other.api_;
    loaded_ = std::exchange(other.loaded_, nullptr);
    executable_ = std::exchange(other.executable_, nullptr);
    num_outputs_ = std::exchange(other.num_outputs_, std::nullopt);
  }
  return *this;
}

void LoadedExecutable::Reset() {
  // Destructors have nowhere to report a failed destroy.
  if (executable_ != nullptr) {
    auto args = NewArgs<PJRT_Executable_Destroy_Args>();
    args.executable = std::exchange(executable_, nullptr);
    Call(api_, args).IgnoreError();
  }
  if (loaded_ != nullptr) {
    auto args = NewArgs<PJRT_LoadedExecutable_Destroy_Args>();
    args.executable = std::exchange(loaded_, nullptr);
    Call(api_, args).IgnoreError();
  }
  // Last: the client may go with the handle.
  owner_.reset();
}

StatusOr<PJRT_Executable*> LoadedExecutable::executable() const {
  if (executable_ == nullptr) {
    return FailedPrecondition("LoadedExecutable is empty (moved from or never compiled)");
  }
  return executable_;
}

// The PJRT_Executable queries, shared by Executable and LoadedExecutable.
namespace {

StatusOr<std::string> QueryName(const PJRT_Api* api, PJRT_Executable* executable) {
  auto args = NewArgs<PJRT_Executable_Name_Args>();
  args.executable = executable;
  PLUGRT_RETURN_IF_ERROR(Call(api, args));
  return StringFromC(args.executable_name, args.executable_name_size);
}

StatusOr<int64_t> QueryNumReplicas(const PJRT_Api* api, PJRT_Executable* executable) {
  auto args = NewArgs<PJRT_Executable_NumReplicas_Args>();
  args.executable = executable;
  PLUGRT_RETURN_IF_ERROR(Call(api, args));
  return static_cast<int64_t>(args.num_replicas);
}

StatusOr<int64_t> QueryNumPartitions(const PJRT_Api* api, PJRT_Executable* executable) {
  auto args = NewArgs<PJRT_Executable_NumPartitions_Args>();
  args.executable = executable;
  PLUGRT_RETURN_IF_ERROR(Call(api, args));
  return static_cast<int64_t>(args.num_partitions);
}

StatusOr<size_t> QueryNumOutputs(const PJRT_Api* api, PJRT_Executable* executable) {
  auto args = NewArgs<PJRT_Executable_NumOutputs_Args>();
  args.executable = executable;
  PLUGRT_RETURN_IF_ERROR(Call(api, args));
  return args.num_outputs;
}

StatusOr<std::vector<PJRT_Buffer_Type>> QueryOutputElementTypes(const PJRT_Api* api,
                                                                PJRT_Executable* executable) {
  auto args = NewArgs<PJRT_Executable_OutputElementTypes_Args>();
  args.executable = executable;
  PLUGRT_RETURN_IF_ERROR(Call(api, args));
  if (args.num_output_types == 0) return std::vector<PJRT_Buffer_Type>();
  if (args.output_types == nullptr) return Internal("plugin returned null output element types");
  return std::vector<PJRT_Buffer_Type>(args.output_types,
                                       args.output_types + args.num_output_types);
}

StatusOr<std::vector<std::vector<int64_t>>> QueryOutputDimensions(const PJRT_Api* api,
                                                                  PJRT_Executable* executable) {
  auto args = NewArgs<PJRT_Executable_OutputDimensions_Args>();
  args.executable = executable;
  PLUGRT_RETURN_IF_ERROR(Call(api, args));
  std::vector<std::vector<int64_t>> shapes;
  if (args.num_outputs == 0) return shapes;
  if (args.dim_sizes == nullptr) return Internal("plugin returned null output dimension sizes");
  size_t total = 0;
  for (size_t i = 0; i < args.num_outputs; ++i) total += args.dim_sizes[i];
  if (total > 0 && args.dims == nullptr) return Internal("plugin returned null output dimensions");
  const int64_t* next = args.dims;
  for (size_t i = 0; i < args.num_outputs; ++i) {
    shapes.emplace_back(next, next + args.dim_sizes[i]);
    next += args.dim_sizes[i];
  }
  return shapes;
}

StatusOr<std::string> QueryFingerprint(const PJRT_Api* api, PJRT_Executable* executable) {
  auto args = NewArgs<PJRT_Executable_Fingerprint_Args>();
  args.executable = executable;
  PLUGRT_RETURN_IF_ERROR(Call(api, args));
  return StringFromC(args.executable_fingerprint, args.executable_fingerprint_size);
}

StatusOr<std::string> QuerySerialize(const PJRT_Api* api, PJRT_Executable* executable) {
  auto args = NewArgs<PJRT_Executable_Serialize_Args>();
  args.executable = executable;
  PLUGRT_RETURN_IF_ERROR(Call(api, args));
  std::string bytes;
  if (args.serialized_bytes_size > 0 && args.serialized_bytes == nullptr) {
    if (args.serialized_executable_deleter != nullptr && args.serialized_executable != nullptr) {
      args.serialized_executable_deleter(args.serialized_executable);
    }
    return Internal("plugin returned null serialized bytes");
  }
  bytes.assign(args.serialized_bytes == nullptr ? "" : args.serialized_bytes,
               args.serialized_bytes_size);
  if (args.serialized_executable_deleter != nullptr && args.serialized_executable != nullptr) {
    args.serialized_executable_deleter(args.serialized_executable);
  }
  return bytes;
}

}  // namespace

Executable::Executable(std::shared_ptr<const void> keep_alive, const PJRT_Api* api,
                       PJRT_Executable* executable)
    : keep_alive_(std::move(keep_alive)), api_(api), executable_(executable) {}

Executable::~Executable() { Reset(); }

Executable::Executable(Executable&& other) noexcept
    : keep_alive_(std::move(other.keep_alive_)),
      api_(other.api_),
      executable_(std::exchange(other.executable_, nullptr)) {}

Executable& Executable::operator=(Executable&& other) noexcept {
  if (this != &other) {
    Reset();
    keep_alive_ = std::move(other.keep_alive_);
    api_ = other.api_;
    executable_ = std::exchange(other.executable_, nullptr);
  }
  return *this;
}

void Executable::Reset() {
  if (executable_ != nullptr) {
    auto args = NewArgs<PJRT_Executable_Destroy_Args>();
    args.executable = std::exchange(executable_, nullptr);
    Call(api_, args).IgnoreError();
  }
  keep_alive_.reset();
}

StatusOr<PJRT_Executable*> Executable::checked() const {
  if (executable_ == nullptr) return FailedPrecondition("Executable is empty (moved from)");
  return executable_;
}

StatusOr<std::string> Executable::name() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, checked());
  return QueryName(api_, e);
}
StatusOr<int64_t> Executable::num_replicas() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, checked());
  return QueryNumReplicas(api_, e);
}
StatusOr<int64_t> Executable::num_partitions() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, checked());
  return QueryNumPartitions(api_, e);
}
StatusOr<size_t> Executable::num_outputs() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, checked());
  return QueryNumOutputs(api_, e);
}
StatusOr<std::vector<PJRT_Buffer_Type>> Executable::output_element_types() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, checked());
  return QueryOutputElementTypes(api_, e);
}
StatusOr<std::vector<std::vector<int64_t>>> Executable::output_dimensions() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, checked());
  return QueryOutputDimensions(api_, e);
}
StatusOr<std::string> Executable::fingerprint() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, checked());
  return QueryFingerprint(api_, e);
}
StatusOr<std::string> Executable::Serialize() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, checked());
  return QuerySerialize(api_, e);
}

StatusOr<std::vector<std::string>> Executable::output_memory_kinds() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, checked());
  auto args = NewArgs<PJRT_Executable_OutputMemoryKinds_Args>();
  args.executable = e;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  std::vector<std::string> kinds;
  if (args.num_outputs == 0) return kinds;
  if (args.memory_kinds == nullptr || args.memory_kind_sizes == nullptr) {
    return Internal("plugin returned null output memory kinds");
  }
  for (size_t i = 0; i < args.num_outputs; ++i) {
    kinds.push_back(StringFromC(args.memory_kinds[i], args.memory_kind_sizes[i]));
  }
  return kinds;
}

StatusOr<int64_t> Executable::size_of_generated_code_in_bytes() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, checked());
  auto args = NewArgs<PJRT_Executable_SizeOfGeneratedCodeInBytes_Args>();
  args.executable = e;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.size_in_bytes;
}

StatusOr<std::vector<NamedValue>> Executable::cost_analysis() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, checked());
  auto args = NewArgs<PJRT_Executable_GetCostAnalysis_Args>();
  args.executable = e;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return internal::NamedValuesFromC(args.properties, args.num_properties);
}

StatusOr<CompiledMemoryStats> Executable::compiled_memory_stats() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, checked());
  auto args = NewArgs<PJRT_Executable_GetCompiledMemoryStats_Args>();
  args.executable = e;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  CompiledMemoryStats stats;
  stats.generated_code_size_in_bytes = args.generated_code_size_in_bytes;
  stats.argument_size_in_bytes = args.argument_size_in_bytes;
  stats.output_size_in_bytes = args.output_size_in_bytes;
  stats.alias_size_in_bytes = args.alias_size_in_bytes;
  stats.temp_size_in_bytes = args.temp_size_in_bytes;
  stats.host_generated_code_size_in_bytes = args.host_generated_code_size_in_bytes;
  stats.host_argument_size_in_bytes = args.host_argument_size_in_bytes;
  stats.host_output_size_in_bytes = args.host_output_size_in_bytes;
  stats.host_alias_size_in_bytes = args.host_alias_size_in_bytes;
  stats.host_temp_size_in_bytes = args.host_temp_size_in_bytes;
  stats.peak_memory_in_bytes = args.peak_memory_in_bytes;
  stats.total_size_in_bytes = args.total_size_in_bytes;
  return stats;
}

StatusOr<std::string> Executable::optimized_program(std::string* format) const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, checked());
  // Two calls: the size first, then the bytes.
  PJRT_Program program;
  std::memset(&program, 0, sizeof(program));
  program.struct_size = PJRT_Program_STRUCT_SIZE;
  auto args = NewArgs<PJRT_Executable_OptimizedProgram_Args>();
  args.executable = e;
  args.program = &program;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  std::string code(program.code_size, '\0');
  program.code = code.data();
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  code.resize(program.code_size);
  if (format != nullptr) *format = StringFromC(program.format, program.format_size);
  return code;
}

StatusOr<std::string> Executable::serialized_compile_options() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, checked());
  auto args = NewArgs<PJRT_Executable_GetCompileOptions_Args>();
  args.executable = e;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  std::string bytes = StringFromC(args.serialized_bytes, args.serialized_bytes_size);
  if (args.serialized_compile_options_deleter != nullptr &&
      args.serialized_compile_options != nullptr) {
    args.serialized_compile_options_deleter(args.serialized_compile_options);
  }
  return bytes;
}

StatusOr<std::string> LoadedExecutable::name() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, executable());
  return QueryName(api_, e);
}
StatusOr<int64_t> LoadedExecutable::num_replicas() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, executable());
  return QueryNumReplicas(api_, e);
}
StatusOr<int64_t> LoadedExecutable::num_partitions() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, executable());
  return QueryNumPartitions(api_, e);
}
StatusOr<size_t> LoadedExecutable::num_outputs() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, executable());
  if (num_outputs_) return *num_outputs_;
  return QueryNumOutputs(api_, e);
}
StatusOr<std::vector<PJRT_Buffer_Type>> LoadedExecutable::output_element_types() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, executable());
  return QueryOutputElementTypes(api_, e);
}
StatusOr<std::vector<std::vector<int64_t>>> LoadedExecutable::output_dimensions() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, executable());
  return QueryOutputDimensions(api_, e);
}
StatusOr<std::string> LoadedExecutable::fingerprint() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, executable());
  return QueryFingerprint(api_, e);
}
StatusOr<std::string> LoadedExecutable::Serialize() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * e, executable());
  return QuerySerialize(api_, e);
}

StatusOr<Executable> LoadedExecutable::GetExecutable() const {
  if (loaded_ == nullptr) return FailedPrecondition("GetExecutable on an empty LoadedExecutable");
  auto args = NewArgs<PJRT_LoadedExecutable_GetExecutable_Args>();
  args.loaded_executable = loaded_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  if (args.executable == nullptr) return Internal("plugin's GetExecutable returned null");
  return Executable(owner_, api_, args.executable);
}

StatusOr<std::vector<Device>> LoadedExecutable::addressable_devices() const {
  auto args = NewArgs<PJRT_LoadedExecutable_AddressableDevices_Args>();
  args.executable = loaded_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return internal::WrapHandles<Device>(api_, args.addressable_devices,
                                       args.num_addressable_devices, "device");
}

Status LoadedExecutable::Delete() {
  auto args = NewArgs<PJRT_LoadedExecutable_Delete_Args>();
  args.executable = loaded_;
  return Call(api_, args);
}

StatusOr<bool> LoadedExecutable::is_deleted() const {
  auto args = NewArgs<PJRT_LoadedExecutable_IsDeleted_Args>();
  args.executable = loaded_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.is_deleted;
}

StatusOr<ExecuteResult> LoadedExecutable::ExecuteAsync(
    const std::vector<std::vector<Buffer*>>& argument_lists, const ExecuteOptions& options) const {
  if (loaded_ == nullptr) return FailedPrecondition("Execute on an empty LoadedExecutable");
  if (options.execute_device && options.execute_device->raw() == nullptr) {
    return InvalidArgument("Execute: options.execute_device is an empty Device");
  }

  // The raw [device][argument] and [device][output] tables the ABI takes,
  // inline for the common few devices and arguments (no heap allocation).
  size_t num_devices = argument_lists.size();
  if (argument_lists.empty() && !options.execute_device) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> addressable, addressable_devices());
    num_devices = addressable.size();
  } else if (argument_lists.empty()) {
    num_devices = 1;
  }
  const size_t num_args = argument_lists.empty() ? 0 : argument_lists[0].size();
  SmallArray<PJRT_Buffer*, 16> raw_args(num_devices * num_args);
  SmallArray<PJRT_Buffer* const*, 4> arg_rows(num_devices);
  for (size_t d = 0; d < num_devices; ++d) {
    arg_rows[d] = raw_args.data() + d * num_args;
    if (argument_lists.empty()) continue;
    if (argument_lists[d].size() != num_args) {
      return InvalidArgument("Execute: argument list ", d, " has ", argument_lists[d].size(),
                             " arguments but argument list 0 has ", num_args);
    }
    for (size_t a = 0; a < num_args; ++a) {
      const Buffer* buffer = argument_lists[d][a];
      if (buffer == nullptr || buffer->raw() == nullptr) {
        return InvalidArgument("Execute: argument ", a, " for device ", d,
                               " is null or an empty Buffer");
      }
      raw_args[d * num_args + a] = buffer->raw();
    }
  }

  PLUGRT_ASSIGN_OR_RETURN(size_t outputs_per_device, num_outputs());
  SmallArray<PJRT_Buffer*, 16> raw_outputs(num_devices * outputs_per_device);
  SmallArray<PJRT_Buffer**, 4> output_rows(num_devices);
  for (size_t d = 0; d < num_devices; ++d) {
    output_rows[d] = raw_outputs.data() + d * outputs_per_device;
  }
  SmallArray<PJRT_Event*, 4> events(num_devices);

  PLUGRT_ASSIGN_OR_RETURN(internal::CExecuteOptions c_options,
                          internal::CExecuteOptions::Build(options, num_devices, api_));

  CallTrace trace("execute");
  auto args = NewArgs<PJRT_LoadedExecutable_Execute_Args>();
  args.extension_start = trace.Chain(args.extension_start);
  args.executable = loaded_;
  args.options = c_options.get();
  args.argument_lists = arg_rows.data();
  args.num_devices = num_devices;
  args.num_args = num_args;
  args.output_lists = output_rows.data();
  args.device_complete_events = events.data();
  args.execute_device = options.execute_device ? options.execute_device->raw() : nullptr;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));

  // Take ownership of everything first so an error below leaks nothing.
  ExecuteResult result;
  result.outputs.reserve(num_devices);
  result.device_complete.reserve(num_devices);
  bool missing = false;
  for (size_t d = 0; d < num_devices; ++d) {
    OutputList& row = result.outputs.emplace_back();
    row.reserve(outputs_per_device);
    for (size_t j = 0; j < outputs_per_device; ++j) {
      PJRT_Buffer* raw = output_rows[d][j];
      missing |= raw == nullptr;
      row.emplace_back(owner_, api_, raw);
    }
    result.device_complete.emplace_back(api_, events[d]);
  }
  // Host callbacks may run until each device's work ends.
  c_options.KeepCallbacksAliveUntil(std::span<Future>(result.device_complete.data(), result.device_complete.size()));
  if (missing) return Internal("plugin's Execute left an output buffer unset");
  return result;
}

StatusOr<std::vector<std::vector<Buffer>>> LoadedExecutable::Execute(
    const std::vector<std::vector<Buffer*>>& argument_lists, const ExecuteOptions& options) const {
  PLUGRT_ASSIGN_OR_RETURN(ExecuteResult result, ExecuteAsync(argument_lists, options));
  Status first_error = OkStatus();
  for (Future& done : result.device_complete) {
    Status status = done.Await();
    if (first_error.ok() && !status.ok()) first_error = status;
  }
  if (!first_error.ok()) return first_error;
  std::vector<std::vector<Buffer>> outputs;
  outputs.reserve(result.outputs.size());
  for (OutputList& row : result.outputs) outputs.push_back(std::move(row).ToVector());
  return outputs;
}

}  // namespace plugrt
