// PJRT_Client_* entries: creation (with the caller's key-value store),
// queries, device assignment, compilation and buffer creation.
#include <algorithm>
#include <string>

#include "sdk/api_args.h"
#include "sdk/api_shapes.h"
#include "sdk/api_slots.h"

namespace plugrt::sdk {
namespace {

// Takes ownership of what a callback returned.
Status TakeCallbackStatus(PJRT_Error* error, std::string_view what) {
  if (error == nullptr) return OkStatus();
  Status status = error->status;
  delete error;
  return Status(status.code(), StrCat(what, ": ", status.message()));
}

// The key-value store the caller handed PJRT_Client_Create, as callbacks.
class CallbackKeyValueStore : public KeyValueStore {
 public:
  CallbackKeyValueStore(PJRT_KeyValueGetCallback get, void* get_arg,
                        PJRT_KeyValueTryGetCallback try_get, void* try_get_arg,
                        PJRT_KeyValuePutCallback put, void* put_arg)
      : get_(get), get_arg_(get_arg), try_get_(try_get), try_get_arg_(try_get_arg),
        put_(put), put_arg_(put_arg) {}

  StatusOr<std::string> Get(std::string_view key, int timeout_ms) override {
    if (get_ == nullptr) {
      return Unimplemented("PJRT_Client_Create was given no kv_get_callback");
    }
    PJRT_KeyValueGetCallback_Args args;
    std::memset(static_cast<void*>(&args), 0, sizeof(args));
    args.struct_size = PJRT_KeyValueGetCallback_Args_STRUCT_SIZE;
    args.key = key.data();
    args.key_size = key.size();
    args.timeout_in_ms = timeout_ms;
    args.callback_error = CallbackErrorFactory();
    args.user_arg = get_arg_;
    PLUGRT_RETURN_IF_ERROR(TakeCallbackStatus(get_(&args), "kv_get_callback"));
    return TakeValue(args.value, args.value_size, args.value_deleter_callback);
  }

  StatusOr<std::string> TryGet(std::string_view key) override {
    if (try_get_ == nullptr) {
      return Unimplemented("PJRT_Client_Create was given no kv_try_get_callback");
    }
    PJRT_KeyValueTryGetCallback_Args args;
    std::memset(static_cast<void*>(&args), 0, sizeof(args));
    args.struct_size = PJRT_KeyValueTryGetCallback_Args_STRUCT_SIZE;
    args.key = key.data();
    args.key_size = key.size();
    args.callback_error = CallbackErrorFactory();
    args.user_arg = try_get_arg_;
    PLUGRT_RETURN_IF_ERROR(TakeCallbackStatus(try_get_(&args), "kv_try_get_callback"));
    return TakeValue(args.value, args.value_size, args.value_deleter_callback);
  }

  Status Put(std::string_view key, std::string_view value) override {
    if (put_ == nullptr) {
      return Unimplemented("PJRT_Client_Create was given no kv_put_callback");
    }
    PJRT_KeyValuePutCallback_Args args;
    std::memset(static_cast<void*>(&args), 0, sizeof(args));
    args.struct_size = PJRT_KeyValuePutCallback_Args_STRUCT_SIZE;
    args.key = key.data();
    args.key_size = key.size();
    args.value = value.data();
    args.value_size = value.size();
    args.callback_error = CallbackErrorFactory();
    args.user_arg = put_arg_;
    return TakeCallbackStatus(put_(&args), "kv_put_callback");
  }

 private:
  // Copies the callback's value, then frees it with the callback's deleter.
  static StatusOr<std::string> TakeValue(char* value, size_t size, void (*deleter)(char*)) {
    if (value == nullptr && size > 0) {
      return Internal("the key-value callback returned a null value of size ", size);
    }
    std::string result = value ? std::string(value, size) : std::string();
    if (deleter != nullptr && value != nullptr) deleter(value);
    return result;
  }

  PJRT_KeyValueGetCallback get_;
  void* get_arg_;
  PJRT_KeyValueTryGetCallback try_get_;
  void* try_get_arg_;
  PJRT_KeyValuePutCallback put_;
  void* put_arg_;
};

PJRT_Error* ClientCreate(PJRT_Client_Create_Args* args) {
  return Run(args, [](PJRT_Client_Create_Args& a, const Call& call) -> Status {
    ClientOptions options;
    PLUGRT_ASSIGN_OR_RETURN(options.create_options,
                            AttributesFromC(a.create_options, a.num_options, call.fn(),
                                            "create_options"));
    if (a.kv_get_callback || a.kv_try_get_callback || a.kv_put_callback) {
      options.kv_store = std::make_shared<CallbackKeyValueStore>(
          a.kv_get_callback, a.kv_get_user_arg, a.kv_try_get_callback, a.kv_try_get_user_arg,
          a.kv_put_callback, a.kv_put_user_arg);
    }
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> backend,
                            CurrentPlugin().CreateClient(options));
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<PJRT_Client> client,
                            PJRT_Client::Create(std::move(backend)));
    a.client = client.release();
    return OkStatus();
  });
}

PJRT_Error* ClientDestroy(PJRT_Client_Destroy_Args* args) {
  return Run(args, [](PJRT_Client_Destroy_Args& a, const Call&) -> Status {
    delete a.client;  // never null: pjrt_functions.h lets Run answer null
    return OkStatus();
  });
}

PJRT_Error* ClientPlatformName(PJRT_Client_PlatformName_Args* args) {
  return Run(args, [](PJRT_Client_PlatformName_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Client * client, Handle(a.client, call, "client"));
    a.platform_name = client->platform_name.c_str();
    a.platform_name_size = client->platform_name.size();
    return OkStatus();
  });
}

PJRT_Error* ClientPlatformVersion(PJRT_Client_PlatformVersion_Args* args) {
  return Run(args, [](PJRT_Client_PlatformVersion_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Client * client, Handle(a.client, call, "client"));
    a.platform_version = client->platform_version.c_str();
    a.platform_version_size = client->platform_version.size();
    return OkStatus();
  });
}

PJRT_Error* ClientProcessIndex(PJRT_Client_ProcessIndex_Args* args) {
  return Run(args, [](PJRT_Client_ProcessIndex_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Client * client, Handle(a.client, call, "client"));
    a.process_index = client->client->process_index();
    return OkStatus();
  });
}

PJRT_Error* ClientDevices(PJRT_Client_Devices_Args* args) {
  return Run(args, [](PJRT_Client_Devices_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Client * client, Handle(a.client, call, "client"));
    a.devices = client->devices.data();
    a.num_devices = client->devices.size();
    return OkStatus();
  });
}

PJRT_Error* ClientAddressableDevices(PJRT_Client_AddressableDevices_Args* args) {
  return Run(args, [](PJRT_Client_AddressableDevices_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Client * client, Handle(a.client, call, "client"));
    a.addressable_devices = client->addressable_devices.data();
    a.num_addressable_devices = client->addressable_devices.size();
    return OkStatus();
  });
}

PJRT_Error* ClientAddressableMemories(PJRT_Client_AddressableMemories_Args* args) {
  return Run(args, [](PJRT_Client_AddressableMemories_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Client * client, Handle(a.client, call, "client"));
    a.addressable_memories = client->addressable_memories.data();
    a.num_addressable_memories = client->addressable_memories.size();
    return OkStatus();
  });
}

PJRT_Error* ClientLookupDevice(PJRT_Client_LookupDevice_Args* args) {
  return Run(args, [](PJRT_Client_LookupDevice_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Client * client, Handle(a.client, call, "client"));
    PLUGRT_ASSIGN_OR_RETURN(Device * device, client->client->LookupDevice(a.id));
    PLUGRT_ASSIGN_OR_RETURN(a.device, client->DeviceHandle(device));
    return OkStatus();
  });
}

PJRT_Error* ClientLookupAddressableDevice(PJRT_Client_LookupAddressableDevice_Args* args) {
  return Run(args, [](PJRT_Client_LookupAddressableDevice_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Client * client, Handle(a.client, call, "client"));
    PLUGRT_ASSIGN_OR_RETURN(Device * device,
                            client->client->LookupAddressableDevice(a.local_hardware_id));
    PLUGRT_ASSIGN_OR_RETURN(a.addressable_device, client->DeviceHandle(device));
    return OkStatus();
  });
}

PJRT_Error* ClientDefaultDeviceAssignment(PJRT_Client_DefaultDeviceAssignment_Args* args) {
  return Run(args, [](PJRT_Client_DefaultDeviceAssignment_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Client * client, Handle(a.client, call, "client"));
    if (a.num_replicas <= 0 || a.num_partitions <= 0) {
      return call.Invalid("num_replicas (", a.num_replicas, ") and num_partitions (",
                          a.num_partitions, ") must be positive");
    }
    const size_t needed = static_cast<size_t>(a.num_replicas) * static_cast<size_t>(a.num_partitions);
    if (a.default_assignment_size < needed) {
      return call.Invalid("default_assignment_size is ", a.default_assignment_size,
                          " but num_replicas * num_partitions is ", needed);
    }
    PLUGRT_RETURN_IF_ERROR(call.NotNull(a.default_assignment, "default_assignment"));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int> assignment,
                            client->client->DefaultDeviceAssignment(a.num_replicas,
                                                                    a.num_partitions));
    if (assignment.size() != needed) {
      return Internal(call.fn(), ": the backend returned ", assignment.size(),
                      " device ids for ", needed, " slots");
    }
    std::copy(assignment.begin(), assignment.end(), a.default_assignment);
    return OkStatus();
  });
}

PJRT_Error* ClientTopologyDescription(PJRT_Client_TopologyDescription_Args* args) {
  return Run(args, [](PJRT_Client_TopologyDescription_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Client * client, Handle(a.client, call, "client"));
    std::lock_guard<std::mutex> lock(client->topology_mu);
    if (client->topology == nullptr) {
      PLUGRT_ASSIGN_OR_RETURN(const TopologyDescription* topology, client->client->topology());
      PLUGRT_ASSIGN_OR_RETURN(client->topology, PJRT_TopologyDescription::Create(topology, nullptr));
    }
    a.topology = client->topology.get();
    return OkStatus();
  });
}

PJRT_Error* ClientCompile(PJRT_Client_Compile_Args* args) {
  return Run(args, [](PJRT_Client_Compile_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Client * client, Handle(a.client, call, "client"));
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Program program, ReadNested(a.program, call.fn(), "program"));
    PLUGRT_RETURN_IF_ERROR(call.Array(program.code, program.code_size, "program.code"));
    PLUGRT_RETURN_IF_ERROR(call.Array(program.format, program.format_size, "program.format"));
    PLUGRT_RETURN_IF_ERROR(call.Array(a.compile_options, a.compile_options_size, "compile_options"));
    Program sdk_program{std::string_view(program.format ? program.format : "", program.format_size),
                        std::string_view(program.code ? program.code : "", program.code_size)};
    std::string_view options(a.compile_options ? a.compile_options : "", a.compile_options_size);
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<LoadedExecutable> loaded,
                            client->client->Compile(sdk_program, options));
    PLUGRT_ASSIGN_OR_RETURN(a.executable, PJRT_LoadedExecutable::Create(std::move(loaded), client));
    return OkStatus();
  });
}

// The device or memory a new buffer goes to; checks that caller-given
// handles belong to `client`.
Status ResolvePlacement(PJRT_Client* client, PJRT_Device* device, PJRT_Memory* memory,
                        const Call& call, Device*& out_device, Memory*& out_memory) {
  if (device != nullptr && !client->Owns(device)) {
    return call.Invalid("device is not a device of this client");
  }
  if (memory != nullptr && !client->Owns(memory)) {
    return call.Invalid("memory is not a memory of this client");
  }
  out_device = nullptr;
  out_memory = nullptr;
  if (memory != nullptr) {
    if (device != nullptr &&
        std::find(memory->devices.begin(), memory->devices.end(), device) == memory->devices.end()) {
      return call.Invalid("memory '", memory->debug_string, "' is not addressable by device '",
                          device->description.debug_string, "'");
    }
    out_memory = memory->memory;
    return OkStatus();
  }
  if (device != nullptr) {
    out_device = device->device;
    return OkStatus();
  }
  if (client->addressable_devices.empty()) {
    return FailedPrecondition(call.fn(), ": the client has no addressable device");
  }
  out_device = client->addressable_devices.front()->device;
  return OkStatus();
}

PJRT_Error* ClientBufferFromHostBuffer(PJRT_Client_BufferFromHostBuffer_Args* args) {
  return Run(args, [](PJRT_Client_BufferFromHostBuffer_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Client * client, Handle(a.client, call, "client"));
    HostBufferArgs host;
    PLUGRT_RETURN_IF_ERROR(CheckArrayElementType(a.type, call, "type"));
    host.type = a.type;
    PLUGRT_ASSIGN_OR_RETURN(host.dims, DimsFromC(a.dims, a.num_dims, call, "dims"));
    const int64_t bytes = DenseByteSize(a.type, host.dims);
    if (bytes < 0) return call.Invalid("the array's byte size does not fit in 64 bits");
    if (bytes > 0) PLUGRT_RETURN_IF_ERROR(call.NotNull(a.data, "data"));
    host.data = a.data;
    if (a.byte_strides != nullptr || a.num_byte_strides > 0) {
      PLUGRT_RETURN_IF_ERROR(call.Array(a.byte_strides, a.num_byte_strides, "byte_strides"));
      if (a.num_byte_strides != a.num_dims) {
        return call.Invalid("num_byte_strides is ", a.num_byte_strides, " but num_dims is ",
                            a.num_dims);
      }
      host.byte_strides = std::vector<int64_t>(a.byte_strides, a.byte_strides + a.num_byte_strides);
    }
    const int64_t semantics = RawEnum(a.host_buffer_semantics);
    if (semantics < PJRT_HostBufferSemantics_kImmutableOnlyDuringCall ||
        semantics > PJRT_HostBufferSemantics_kMutableZeroCopy) {
      return call.Invalid("host_buffer_semantics has the unknown value ", semantics);
    }
    host.semantics = a.host_buffer_semantics;
    PLUGRT_RETURN_IF_ERROR(ResolvePlacement(client, a.device, a.memory, call, host.device,
                                            host.memory));
    if (a.device_layout != nullptr) {
      PLUGRT_ASSIGN_OR_RETURN(host.device_layout, LayoutFromC(a.device_layout, call, "device_layout"));
    }
    PLUGRT_ASSIGN_OR_RETURN(HostBufferResult result, client->client->BufferFromHostBuffer(host));
    if (result.buffer == nullptr || result.done_with_host_buffer == nullptr) {
      return Internal(call.fn(), ": the backend returned no buffer or no done_with_host_buffer event");
    }
    a.buffer = new PJRT_Buffer(std::move(result.buffer), client);
    a.done_with_host_buffer = ToPjrtEvent(std::move(result.done_with_host_buffer));
    return OkStatus();
  });
}

PJRT_Error* ClientCreateViewOfDeviceBuffer(PJRT_Client_CreateViewOfDeviceBuffer_Args* args) {
  return Run(args, [](PJRT_Client_CreateViewOfDeviceBuffer_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Client * client, Handle(a.client, call, "client"));
    ViewArgs view;
    PLUGRT_RETURN_IF_ERROR(call.NotNull(a.device_buffer_ptr, "device_buffer_ptr"));
    view.device_buffer_ptr = a.device_buffer_ptr;
    PLUGRT_RETURN_IF_ERROR(CheckArrayElementType(a.element_type, call, "element_type"));
    view.type = a.element_type;
    PLUGRT_ASSIGN_OR_RETURN(view.dims, DimsFromC(a.dims, a.num_dims, call, "dims"));
    if (a.layout != nullptr) {
      PLUGRT_ASSIGN_OR_RETURN(view.layout, LayoutFromC(a.layout, call, "layout"));
    }
    if (a.device == nullptr && a.memory == nullptr) {
      return call.Invalid("neither device nor memory is set");
    }
    // The ABI ignores `device` when `memory` is given.
    PLUGRT_RETURN_IF_ERROR(ResolvePlacement(client, a.memory ? nullptr : a.device, a.memory, call,
                                            view.device, view.memory));
    if (a.on_delete_callback != nullptr) {
      auto callback = a.on_delete_callback;
      void* ptr = a.device_buffer_ptr;
      void* user_arg = a.on_delete_callback_arg;
      view.on_delete = [callback, ptr, user_arg] { callback(ptr, user_arg); };
    }
    view.stream = a.stream;
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Buffer> buffer,
                            client->client->CreateViewOfDeviceBuffer(view));
    if (buffer == nullptr) return Internal(call.fn(), ": the backend returned no buffer");
    a.buffer = new PJRT_Buffer(std::move(buffer), client);
    return OkStatus();
  });
}

}  // namespace

void FillClientSlots(PJRT_Api& api) {
  api.PJRT_Client_Create = ClientCreate;
  api.PJRT_Client_Destroy = ClientDestroy;
  api.PJRT_Client_PlatformName = ClientPlatformName;
  api.PJRT_Client_ProcessIndex = ClientProcessIndex;
  api.PJRT_Client_PlatformVersion = ClientPlatformVersion;
  api.PJRT_Client_Devices = ClientDevices;
  api.PJRT_Client_AddressableDevices = ClientAddressableDevices;
  api.PJRT_Client_LookupDevice = ClientLookupDevice;
  api.PJRT_Client_LookupAddressableDevice = ClientLookupAddressableDevice;
  api.PJRT_Client_AddressableMemories = ClientAddressableMemories;
  api.PJRT_Client_Compile = ClientCompile;
  api.PJRT_Client_DefaultDeviceAssignment = ClientDefaultDeviceAssignment;
  api.PJRT_Client_BufferFromHostBuffer = ClientBufferFromHostBuffer;
  api.PJRT_Client_CreateViewOfDeviceBuffer = ClientCreateViewOfDeviceBuffer;
  api.PJRT_Client_TopologyDescription = ClientTopologyDescription;
}

}  // namespace plugrt::sdk
