#include "client/executable.h"

#include <cstring>
#include <utility>

#include "client/api_call.h"
#include "client/client_handle.h"
#include "client/handle_list.h"

namespace plugrt {

using internal::Call;
using internal::NewArgs;
using internal::StringFromC;

LoadedExecutable::LoadedExecutable(std::shared_ptr<internal::ClientHandle> owner,
                                   const PJRT_Api* api, PJRT_LoadedExecutable* loaded,
                                   PJRT_Executable* executable)
    : owner_(std::move(owner)), api_(api), loaded_(loaded), executable_(executable) {}

LoadedExecutable::~LoadedExecutable() { Reset(); }

LoadedExecutable::LoadedExecutable(LoadedExecutable&& other) noexcept
    : owner_(std::move(other.owner_)),
      api_(other.api_),
      loaded_(std::exchange(other.loaded_, nullptr)),
      executable_(std::exchange(other.executable_, nullptr)) {}

LoadedExecutable& LoadedExecutable::operator=(LoadedExecutable&& other) noexcept {
  if (this != &other) {
    Reset();
    owner_ = std::move(other.owner_);
    api_ = other.api_;
    loaded_ = std::exchange(other.loaded_, nullptr);
    executable_ = std::exchange(other.executable_, nullptr);
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

StatusOr<std::string> LoadedExecutable::name() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * executable, executable());
  auto args = NewArgs<PJRT_Executable_Name_Args>();
  args.executable = executable;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return StringFromC(args.executable_name, args.executable_name_size);
}

StatusOr<int64_t> LoadedExecutable::num_replicas() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * executable, executable());
  auto args = NewArgs<PJRT_Executable_NumReplicas_Args>();
  args.executable = executable;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return static_cast<int64_t>(args.num_replicas);
}

StatusOr<int64_t> LoadedExecutable::num_partitions() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * executable, executable());
  auto args = NewArgs<PJRT_Executable_NumPartitions_Args>();
  args.executable = executable;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return static_cast<int64_t>(args.num_partitions);
}

StatusOr<size_t> LoadedExecutable::num_outputs() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * executable, executable());
  auto args = NewArgs<PJRT_Executable_NumOutputs_Args>();
  args.executable = executable;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.num_outputs;
}

StatusOr<std::vector<PJRT_Buffer_Type>> LoadedExecutable::output_element_types() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * executable, executable());
  auto args = NewArgs<PJRT_Executable_OutputElementTypes_Args>();
  args.executable = executable;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  if (args.num_output_types == 0) return std::vector<PJRT_Buffer_Type>();
  if (args.output_types == nullptr) return Internal("plugin returned null output element types");
  return std::vector<PJRT_Buffer_Type>(args.output_types,
                                       args.output_types + args.num_output_types);
}

StatusOr<std::vector<std::vector<int64_t>>> LoadedExecutable::output_dimensions() const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Executable * executable, executable());
  auto args = NewArgs<PJRT_Executable_OutputDimensions_Args>();
  args.executable = executable;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
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

  // The raw [device][argument] matrix the ABI takes.
  std::vector<std::vector<PJRT_Buffer*>> raw_args;
  if (argument_lists.empty()) {
    size_t devices = 1;
    if (!options.execute_device) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> addressable, addressable_devices());
      devices = addressable.size();
    }
    raw_args.resize(devices);
  } else {
    for (size_t d = 0; d < argument_lists.size(); ++d) {
      if (argument_lists[d].size() != argument_lists[0].size()) {
        return InvalidArgument("Execute: argument list ", d, " has ", argument_lists[d].size(),
                               " arguments but argument list 0 has ", argument_lists[0].size());
      }
      std::vector<PJRT_Buffer*>& row = raw_args.emplace_back();
      for (size_t a = 0; a < argument_lists[d].size(); ++a) {
        const Buffer* buffer = argument_lists[d][a];
        if (buffer == nullptr || buffer->raw() == nullptr) {
          return InvalidArgument("Execute: argument ", a, " for device ", d,
                                 " is null or an empty Buffer");
        }
        row.push_back(buffer->raw());
      }
    }
  }
  const size_t num_devices = raw_args.size();
  const size_t num_args = raw_args.empty() ? 0 : raw_args[0].size();
  std::vector<PJRT_Buffer* const*> arg_rows;
  for (const auto& row : raw_args) arg_rows.push_back(row.data());

  PLUGRT_ASSIGN_OR_RETURN(size_t outputs_per_device, num_outputs());
  std::vector<std::vector<PJRT_Buffer*>> raw_outputs(
      num_devices, std::vector<PJRT_Buffer*>(outputs_per_device, nullptr));
  std::vector<PJRT_Buffer**> output_rows;
  for (auto& row : raw_outputs) output_rows.push_back(row.data());
  std::vector<PJRT_Event*> events(num_devices, nullptr);

  PLUGRT_ASSIGN_OR_RETURN(internal::CExecuteOptions c_options,
                          internal::CExecuteOptions::Build(options, num_devices));

  auto args = NewArgs<PJRT_LoadedExecutable_Execute_Args>();
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
  bool missing = false;
  for (size_t d = 0; d < num_devices; ++d) {
    std::vector<Buffer>& row = result.outputs.emplace_back();
    for (PJRT_Buffer* raw : raw_outputs[d]) {
      missing |= raw == nullptr;
      row.emplace_back(owner_, api_, raw);
    }
    result.device_complete.emplace_back(api_, events[d]);
  }
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
  return std::move(result.outputs);
}

}  // namespace plugrt
