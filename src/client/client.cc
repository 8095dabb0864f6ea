#include "client/client.h"

#include <cstring>
#include <utility>

#include "client/api_call.h"
#include "client/call_trace.h"
#include "client/client_handle.h"
#include "client/handle_list.h"
#include "client/key_value_callbacks.h"
#include "client/named_value_c.h"

namespace plugrt {

using internal::Call;
using internal::NewArgs;
using internal::StringFromC;

internal::ClientHandle::~ClientHandle() {
  if (client == nullptr) return;
  auto args = NewArgs<PJRT_Client_Destroy_Args>();
  args.client = client;
  // A destructor has nowhere to report a failed destroy.
  Call(api, args).IgnoreError();
}

Client::Client(std::shared_ptr<internal::ClientHandle> handle) : handle_(std::move(handle)) {}

Client::~Client() = default;

PJRT_Client* Client::raw() const { return handle_->client; }
const PJRT_Api* Client::api() const { return handle_->api; }
const std::shared_ptr<Plugin>& Client::plugin() const { return handle_->plugin; }

StatusOr<std::unique_ptr<Client>> Client::Create(std::shared_ptr<Plugin> plugin,
                                                 const ClientOptions& options) {
  if (plugin == nullptr) return InvalidArgument("Client::Create needs a plugin");
  auto handle = std::make_shared<internal::ClientHandle>();
  handle->plugin = plugin;
  handle->api = plugin->api();
  handle->kv_store = options.kv_store;

  internal::CNamedValues c_options(options.create_options);
  auto args = NewArgs<PJRT_Client_Create_Args>();
  args.create_options = c_options.data();
  args.num_options = c_options.size();
  if (handle->kv_store != nullptr) {
    void* store = handle->kv_store.get();
    args.kv_get_callback = &internal::KeyValueGetCallback;
    args.kv_get_user_arg = store;
    args.kv_try_get_callback = &internal::KeyValueTryGetCallback;
    args.kv_try_get_user_arg = store;
    args.kv_put_callback = &internal::KeyValuePutCallback;
    args.kv_put_user_arg = store;
  }
  PLUGRT_RETURN_IF_ERROR(Call(handle->api, args));
  if (args.client == nullptr) return Internal("plugin created a null client");
  handle->client = args.client;
  return std::unique_ptr<Client>(new Client(std::move(handle)));
}

StatusOr<std::string> Client::platform_name() const {
  auto args = NewArgs<PJRT_Client_PlatformName_Args>();
  args.client = raw();
  PLUGRT_RETURN_IF_ERROR(Call(api(), args));
  return StringFromC(args.platform_name, args.platform_name_size);
}

StatusOr<std::string> Client::platform_version() const {
  auto args = NewArgs<PJRT_Client_PlatformVersion_Args>();
  args.client = raw();
  PLUGRT_RETURN_IF_ERROR(Call(api(), args));
  return StringFromC(args.platform_version, args.platform_version_size);
}

StatusOr<int> Client::process_index() const {
  auto args = NewArgs<PJRT_Client_ProcessIndex_Args>();
  args.client = raw();
  PLUGRT_RETURN_IF_ERROR(Call(api(), args));
  return args.process_index;
}

StatusOr<std::vector<Device>> Client::devices() const {
  auto args = NewArgs<PJRT_Client_Devices_Args>();
  args.client = raw();
  PLUGRT_RETURN_IF_ERROR(Call(api(), args));
  return internal::WrapHandles<Device>(api(), args.devices, args.num_devices, "device");
}

StatusOr<std::vector<Device>> Client::addressable_devices() const {
  auto args = NewArgs<PJRT_Client_AddressableDevices_Args>();
  args.client = raw();
  PLUGRT_RETURN_IF_ERROR(Call(api(), args));
  return internal::WrapHandles<Device>(api(), args.addressable_devices,
                                       args.num_addressable_devices, "device");
}

StatusOr<Device> Client::LookupDevice(int id) const {
  auto args = NewArgs<PJRT_Client_LookupDevice_Args>();
  args.client = raw();
  args.id = id;
  PLUGRT_RETURN_IF_ERROR(Call(api(), args));
  if (args.device == nullptr) return Internal("plugin returned a null device for id ", id);
  return Device(api(), args.device);
}

StatusOr<Device> Client::LookupAddressableDevice(int local_hardware_id) const {
  auto args = NewArgs<PJRT_Client_LookupAddressableDevice_Args>();
  args.client = raw();
  args.local_hardware_id = local_hardware_id;
  PLUGRT_RETURN_IF_ERROR(Call(api(), args));
  if (args.addressable_device == nullptr) {
    return Internal("plugin returned a null device for local hardware id ", local_hardware_id);
  }
  return Device(api(), args.addressable_device);
}

StatusOr<std::vector<Memory>> Client::addressable_memories() const {
  auto args = NewArgs<PJRT_Client_AddressableMemories_Args>();
  args.client = raw();
  PLUGRT_RETURN_IF_ERROR(Call(api(), args));
  return internal::WrapHandles<Memory>(api(), args.addressable_memories,
                                       args.num_addressable_memories, "memory");
}

StatusOr<std::vector<int>> Client::DefaultDeviceAssignment(int num_replicas,
                                                           int num_partitions) const {
  if (num_replicas <= 0 || num_partitions <= 0) {
    return InvalidArgument("a device assignment needs positive replica and partition counts, got ",
                           num_replicas, " replicas and ", num_partitions, " partitions");
  }
  std::vector<int> assignment(static_cast<size_t>(num_replicas) * num_partitions, -1);
  auto args = NewArgs<PJRT_Client_DefaultDeviceAssignment_Args>();
  args.client = raw();
  args.num_replicas = num_replicas;
  args.num_partitions = num_partitions;
  args.default_assignment_size = assignment.size();
  args.default_assignment = assignment.data();
  PLUGRT_RETURN_IF_ERROR(Call(api(), args));
  return assignment;
}

StatusOr<TopologyDescription> Client::topology() const {
  auto args = NewArgs<PJRT_Client_TopologyDescription_Args>();
  args.client = raw();
  PLUGRT_RETURN_IF_ERROR(Call(api(), args));
  if (args.topology == nullptr) return Internal("plugin returned a null client topology");
  return TopologyDescription(api(), args.topology, /*owned=*/false, handle_);
}

StatusOr<std::pair<Buffer, Future>> Client::BufferFromHostBuffer(const HostBuffer& host,
                                                                 const Device& device) const {
  if (device.raw() == nullptr) return InvalidArgument("BufferFromHostBuffer needs a device");
  return FromHost(host, device.raw(), nullptr);
}

StatusOr<std::pair<Buffer, Future>> Client::BufferFromHostBuffer(const HostBuffer& host,
                                                                 const Memory& memory) const {
  if (memory.raw() == nullptr) return InvalidArgument("BufferFromHostBuffer needs a memory");
  return FromHost(host, nullptr, memory.raw());
}

StatusOr<std::pair<Buffer, Future>> Client::FromHost(const HostBuffer& host, PJRT_Device* device,
                                                     PJRT_Memory* memory) const {
  std::optional<CLayoutView> c_layout;
  if (host.device_layout) c_layout.emplace(*host.device_layout);
  auto args = NewArgs<PJRT_Client_BufferFromHostBuffer_Args>();
  args.client = raw();
  args.data = host.data;
  args.type = host.type;
  args.dims = host.dims.data();
  args.num_dims = host.dims.size();
  if (host.byte_strides) {
    args.byte_strides = host.byte_strides->data();
    args.num_byte_strides = host.byte_strides->size();
  }
  args.host_buffer_semantics = host.semantics;
  args.device = device;
  args.memory = memory;
  args.device_layout = c_layout ? c_layout->get() : nullptr;
  PLUGRT_RETURN_IF_ERROR(Call(api(), args));
  Future done(api(), args.done_with_host_buffer);
  if (args.buffer == nullptr) return Internal("plugin returned a null buffer from a host buffer");
  return std::make_pair(Buffer(handle_, api(), args.buffer), std::move(done));
}

namespace {

void RunOnDelete(void* /*device_buffer_ptr*/, void* user_arg) {
  std::unique_ptr<std::function<void()>> on_delete(static_cast<std::function<void()>*>(user_arg));
  // Exceptions must not unwind into the plugin's C frames.
  try {
    if (*on_delete) (*on_delete)();
  } catch (...) {
  }
}

}  // namespace

StatusOr<Buffer> Client::CreateViewOfDeviceBuffer(void* device_ptr, PJRT_Buffer_Type type,
                                                  const std::vector<int64_t>& dims,
                                                  const Device& device,
                                                  std::function<void()> on_delete,
                                                  const std::optional<Layout>& layout) const {
  std::optional<CLayoutView> c_layout;
  if (layout) c_layout.emplace(*layout);
  auto callback = std::make_unique<std::function<void()>>(std::move(on_delete));
  auto args = NewArgs<PJRT_Client_CreateViewOfDeviceBuffer_Args>();
  args.client = raw();
  args.device_buffer_ptr = device_ptr;
  args.dims = dims.data();
  args.num_dims = dims.size();
  args.element_type = type;
  args.layout = c_layout ? c_layout->get() : nullptr;
  args.device = device.raw();
  args.on_delete_callback = &RunOnDelete;
  args.on_delete_callback_arg = callback.get();
  PLUGRT_RETURN_IF_ERROR(Call(api(), args));
  // From here the plugin runs (and so frees) the callback.
  callback.release();
  if (args.buffer == nullptr) return Internal("plugin returned a null view buffer");
  return Buffer(handle_, api(), args.buffer);
}

StatusOr<LoadedExecutable> Client::Compile(std::string_view program_text, std::string_view format,
                                           std::string_view compile_options) const {
  PJRT_Program program = internal::ProgramFor(program_text, format);

  CallTrace trace("compile");
  auto args = NewArgs<PJRT_Client_Compile_Args>();
  args.extension_start = trace.Chain(args.extension_start);
  args.client = raw();
  args.program = &program;
  args.compile_options = compile_options.data();
  args.compile_options_size = compile_options.size();
  PLUGRT_RETURN_IF_ERROR(Call(api(), args));
  return AdoptLoaded(args.executable, "Compile");
}

StatusOr<LoadedExecutable> Client::AdoptLoaded(PJRT_LoadedExecutable* loaded,
                                               std::string_view operation) const {
  if (loaded == nullptr) return Internal("plugin's ", operation, " returned a null executable");
  auto get = NewArgs<PJRT_LoadedExecutable_GetExecutable_Args>();
  get.loaded_executable = loaded;
  Status status = Call(api(), get);
  if (status.ok() && get.executable == nullptr) {
    status = Internal("plugin returned a null PJRT_Executable for a loaded program");
  }
  if (!status.ok()) {
    // Frees the loaded executable on the way out.
    LoadedExecutable discard(handle_, api(), loaded, nullptr);
    return status;
  }
  return LoadedExecutable(handle_, api(), loaded, get.executable);
}

StatusOr<LoadedExecutable> Client::DeserializeAndLoad(std::string_view serialized,
                                                      std::string_view compile_options) const {
  auto args = NewArgs<PJRT_Executable_DeserializeAndLoad_Args>();
  args.client = raw();
  args.serialized_executable = serialized.data();
  args.serialized_executable_size = serialized.size();
  args.overridden_serialized_compile_options =
      compile_options.empty() ? nullptr : compile_options.data();
  args.overridden_serialized_compile_options_size = compile_options.size();
  PLUGRT_RETURN_IF_ERROR(Call(api(), args));
  return AdoptLoaded(args.loaded_executable, "DeserializeAndLoad");
}

StatusOr<LoadedExecutable> Client::Compile(std::string_view program_text,
                                           const CompileOptions& options,
                                           std::string_view format) const {
  const std::string encoded = EncodeCompileOptions(options);
  return Compile(program_text, format, encoded);
}

}  // namespace plugrt
