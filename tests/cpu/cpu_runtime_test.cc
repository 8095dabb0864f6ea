// The CPU plugin's runtime (client, devices, memories, buffers) driven
// through the C ABI exactly as a framework would: dlopen, GetPjrtApi, Args
// structs.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "pjrt_c_api.h"
#include "testutil/status_matchers.h"

namespace {

// Declares `var` of type T, zeroed, with struct_size set.
#define PJRT_ARGS(T, var) \
  T var{};                \
  var.struct_size = T##_STRUCT_SIZE

const PJRT_Api* LoadApi() {
  static const PJRT_Api* api = []() -> const PJRT_Api* {
    void* handle = dlopen(PLUGRT_CPU_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) return nullptr;
    using GetApiFn = const PJRT_Api* (*)();
    auto get_api = reinterpret_cast<GetApiFn>(dlsym(handle, "GetPjrtApi"));
    if (get_api == nullptr) return nullptr;
    const PJRT_Api* table = get_api();
    PJRT_ARGS(PJRT_Plugin_Initialize_Args, init);
    PJRT_Error* error = table->PJRT_Plugin_Initialize(&init);
    if (error != nullptr) {
      PJRT_ARGS(PJRT_Error_Destroy_Args, destroy);
      destroy.error = error;
      table->PJRT_Error_Destroy(&destroy);
      return nullptr;
    }
    return table;
  }();
  return api;
}

// The outcome of one call, the PJRT_Error already destroyed.
struct Result {
  PJRT_Error_Code code = PJRT_Error_Code_OK;
  std::string message;
  bool ok() const { return code == PJRT_Error_Code_OK; }
};

Result Take(const PJRT_Api* api, PJRT_Error* error) {
  Result result;
  if (error == nullptr) return result;
  PJRT_ARGS(PJRT_Error_GetCode_Args, code);
  code.error = error;
  PJRT_Error* code_error = api->PJRT_Error_GetCode(&code);
  result.code = code_error == nullptr ? code.code : PJRT_Error_Code_UNKNOWN;
  PJRT_ARGS(PJRT_Error_Message_Args, message);
  message.error = error;
  api->PJRT_Error_Message(&message);
  result.message.assign(message.message, message.message_size);
  PJRT_ARGS(PJRT_Error_Destroy_Args, destroy);
  destroy.error = error;
  api->PJRT_Error_Destroy(&destroy);
  return result;
}

std::ostream& operator<<(std::ostream& out, const Result& result) {
  return out << "code " << static_cast<int>(result.code) << ": " << result.message;
}

PJRT_NamedValue Int64Option(const char* name, int64_t value) {
  PJRT_ARGS(PJRT_NamedValue, option);
  option.name = name;
  option.name_size = std::strlen(name);
  option.type = PJRT_NamedValue_kInt64;
  option.int64_value = value;
  option.value_size = 1;
  return option;
}

PJRT_NamedValue StringOption(const char* name, const char* value) {
  PJRT_ARGS(PJRT_NamedValue, option);
  option.name = name;
  option.name_size = std::strlen(name);
  option.type = PJRT_NamedValue_kString;
  option.string_value = value;
  option.value_size = std::strlen(value);
  return option;
}

const PJRT_NamedValue* FindAttribute(const PJRT_NamedValue* values, size_t count,
                                     const std::string& name) {
  for (size_t i = 0; i < count; ++i) {
    if (std::string(values[i].name, values[i].name_size) == name) return &values[i];
  }
  return nullptr;
}

// Options of one BufferFromHostBuffer call.
struct HostArray {
  const void* data = nullptr;
  PJRT_Buffer_Type type = PJRT_Buffer_Type_F32;
  std::vector<int64_t> dims;
  std::optional<std::vector<int64_t>> byte_strides;
  PJRT_HostBufferSemantics semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
  PJRT_Device* device = nullptr;
  PJRT_Memory* memory = nullptr;
};

class CpuRuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    api_ = LoadApi();
    ASSERT_NE(api_, nullptr) << "cannot load " << PLUGRT_CPU_PLUGIN_PATH;
    PJRT_NamedValue count = Int64Option("cpu_device_count", 4);
    Result created = CreateClient(&count, 1, &client_);
    ASSERT_TRUE(created.ok()) << created;
    devices_ = Devices(client_);
    ASSERT_EQ(devices_.size(), 4u);
  }

  void TearDown() override {
    if (client_ != nullptr) DestroyClient(client_);
  }

  Result CreateClient(const PJRT_NamedValue* options, size_t num_options, PJRT_Client** out) {
    PJRT_ARGS(PJRT_Client_Create_Args, args);
    args.create_options = options;
    args.num_options = num_options;
    Result result = Take(api_, api_->PJRT_Client_Create(&args));
    *out = result.ok() ? args.client : nullptr;
    return result;
  }

  void DestroyClient(PJRT_Client* client) {
    PJRT_ARGS(PJRT_Client_Destroy_Args, args);
    args.client = client;
    EXPECT_PJRT_OK(api_, api_->PJRT_Client_Destroy(&args));
  }

  std::vector<PJRT_Device*> Devices(PJRT_Client* client) {
    PJRT_ARGS(PJRT_Client_Devices_Args, args);
    args.client = client;
    Result result = Take(api_, api_->PJRT_Client_Devices(&args));
    EXPECT_TRUE(result.ok()) << result;
    if (!result.ok()) return {};
    return {args.devices, args.devices + args.num_devices};
  }

  PJRT_DeviceDescription* Description(PJRT_Device* device) {
    PJRT_ARGS(PJRT_Device_GetDescription_Args, args);
    args.device = device;
    EXPECT_PJRT_OK(api_, api_->PJRT_Device_GetDescription(&args));
    return args.device_description;
  }

  int DeviceId(PJRT_Device* device) {
    PJRT_ARGS(PJRT_DeviceDescription_Id_Args, args);
    args.device_description = Description(device);
    EXPECT_PJRT_OK(api_, api_->PJRT_DeviceDescription_Id(&args));
    return args.id;
  }

  std::vector<PJRT_Memory*> Memories(PJRT_Device* device) {
    PJRT_ARGS(PJRT_Device_AddressableMemories_Args, args);
    args.device = device;
    EXPECT_PJRT_OK(api_, api_->PJRT_Device_AddressableMemories(&args));
    return {args.memories, args.memories + args.num_memories};
  }

  std::string MemoryKind(PJRT_Memory* memory) {
    PJRT_ARGS(PJRT_Memory_Kind_Args, args);
    args.memory = memory;
    EXPECT_PJRT_OK(api_, api_->PJRT_Memory_Kind(&args));
    return std::string(args.kind, args.kind_size);
  }

  PJRT_Memory* MemoryOfKind(PJRT_Device* device, const std::string& kind) {
    for (PJRT_Memory* memory : Memories(device)) {
      if (MemoryKind(memory) == kind) return memory;
    }
    ADD_FAILURE() << "no memory of kind " << kind;
    return nullptr;
  }

  Result FromHost(const HostArray& array, PJRT_Buffer** buffer, PJRT_Event** done = nullptr) {
    PJRT_ARGS(PJRT_Client_BufferFromHostBuffer_Args, args);
    args.client = client_;
    args.data = array.data;
    args.type = array.type;
    args.dims = array.dims.data();
    args.num_dims = array.dims.size();
    if (array.byte_strides.has_value()) {
      args.byte_strides = array.byte_strides->data();
      args.num_byte_strides = array.byte_strides->size();
    }
    args.host_buffer_semantics = array.semantics;
    args.device = array.memory == nullptr && array.device == nullptr ? devices_[0] : array.device;
    args.memory = array.memory;
    Result result = Take(api_, api_->PJRT_Client_BufferFromHostBuffer(&args));
    *buffer = result.ok() ? args.buffer : nullptr;
    if (result.ok()) {
      if (done != nullptr) {
        *done = args.done_with_host_buffer;
      } else {
        EXPECT_TRUE(Await(args.done_with_host_buffer).ok());
      }
    }
    return result;
  }

  // For tests that need the buffer: fails the test when the transfer fails.
  PJRT_Buffer* MustFromHost(const HostArray& array) {
    PJRT_Buffer* buffer = nullptr;
    Result result = FromHost(array, &buffer);
    EXPECT_TRUE(result.ok()) << result;
    return buffer;
  }

  // Waits for and destroys `event`.
  Result Await(PJRT_Event* event) {
    PJRT_ARGS(PJRT_Event_Await_Args, args);
    args.event = event;
    Result result = Take(api_, api_->PJRT_Event_Await(&args));
    DestroyEvent(event);
    return result;
  }

  bool IsReady(PJRT_Event* event) {
    PJRT_ARGS(PJRT_Event_IsReady_Args, args);
    args.event = event;
    EXPECT_PJRT_OK(api_, api_->PJRT_Event_IsReady(&args));
    return args.is_ready;
  }

  void DestroyEvent(PJRT_Event* event) {
    PJRT_ARGS(PJRT_Event_Destroy_Args, args);
    args.event = event;
    EXPECT_PJRT_OK(api_, api_->PJRT_Event_Destroy(&args));
  }

  Result ToHost(PJRT_Buffer* buffer, void* dst, size_t dst_size,
                PJRT_Buffer_MemoryLayout* layout = nullptr) {
    PJRT_ARGS(PJRT_Buffer_ToHostBuffer_Args, args);
    args.src = buffer;
    args.dst = dst;
    args.dst_size = dst_size;
    args.host_layout = layout;
    Result result = Take(api_, api_->PJRT_Buffer_ToHostBuffer(&args));
    if (!result.ok()) return result;
    return Await(args.event);
  }

  template <typename T>
  std::vector<T> Read(PJRT_Buffer* buffer, size_t count) {
    std::vector<T> out(count);
    Result result = ToHost(buffer, out.data(), count * sizeof(T));
    EXPECT_TRUE(result.ok()) << result;
    return out;
  }

  size_t OnDeviceSize(PJRT_Buffer* buffer) {
    PJRT_ARGS(PJRT_Buffer_OnDeviceSizeInBytes_Args, args);
    args.buffer = buffer;
    EXPECT_PJRT_OK(api_, api_->PJRT_Buffer_OnDeviceSizeInBytes(&args));
    return args.on_device_size_in_bytes;
  }

  Result RawToHost(PJRT_Buffer* buffer, void* dst, int64_t offset, int64_t size) {
    PJRT_ARGS(PJRT_Buffer_CopyRawToHost_Args, args);
    args.buffer = buffer;
    args.dst = dst;
    args.offset = offset;
    args.transfer_size = size;
    Result result = Take(api_, api_->PJRT_Buffer_CopyRawToHost(&args));
    if (!result.ok()) return result;
    return Await(args.event);
  }

  Result UnsafePointer(PJRT_Buffer* buffer, uintptr_t* out) {
    PJRT_ARGS(PJRT_Buffer_UnsafePointer_Args, args);
    args.buffer = buffer;
    Result result = Take(api_, api_->PJRT_Buffer_UnsafePointer(&args));
    *out = args.buffer_pointer;
    return result;
  }

  void DeleteBuffer(PJRT_Buffer* buffer) {
    PJRT_ARGS(PJRT_Buffer_Delete_Args, args);
    args.buffer = buffer;
    EXPECT_PJRT_OK(api_, api_->PJRT_Buffer_Delete(&args));
  }

  void DestroyBuffer(PJRT_Buffer* buffer) {
    PJRT_ARGS(PJRT_Buffer_Destroy_Args, args);
    args.buffer = buffer;
    EXPECT_PJRT_OK(api_, api_->PJRT_Buffer_Destroy(&args));
  }

  Result CopyToDevice(PJRT_Buffer* buffer, PJRT_Device* device, PJRT_Buffer** out) {
    PJRT_ARGS(PJRT_Buffer_CopyToDevice_Args, args);
    args.buffer = buffer;
    args.dst_device = device;
    Result result = Take(api_, api_->PJRT_Buffer_CopyToDevice(&args));
    *out = result.ok() ? args.dst_buffer : nullptr;
    return result;
  }

  Result CopyToMemory(PJRT_Buffer* buffer, PJRT_Memory* memory, PJRT_Buffer** out) {
    PJRT_ARGS(PJRT_Buffer_CopyToMemory_Args, args);
    args.buffer = buffer;
    args.dst_memory = memory;
    Result result = Take(api_, api_->PJRT_Buffer_CopyToMemory(&args));
    *out = result.ok() ? args.dst_buffer : nullptr;
    return result;
  }

  PJRT_Device* BufferDevice(PJRT_Buffer* buffer) {
    PJRT_ARGS(PJRT_Buffer_Device_Args, args);
    args.buffer = buffer;
    EXPECT_PJRT_OK(api_, api_->PJRT_Buffer_Device(&args));
    return args.device;
  }

  PJRT_Memory* BufferMemory(PJRT_Buffer* buffer) {
    PJRT_ARGS(PJRT_Buffer_Memory_Args, args);
    args.buffer = buffer;
    EXPECT_PJRT_OK(api_, api_->PJRT_Buffer_Memory(&args));
    return args.memory;
  }

  std::vector<int64_t> Dimensions(PJRT_Buffer* buffer) {
    PJRT_ARGS(PJRT_Buffer_Dimensions_Args, args);
    args.buffer = buffer;
    EXPECT_PJRT_OK(api_, api_->PJRT_Buffer_Dimensions(&args));
    return {args.dims, args.dims + args.num_dims};
  }

  PJRT_Device_MemoryStats_Args Stats(PJRT_Device* device) {
    PJRT_ARGS(PJRT_Device_MemoryStats_Args, args);
    args.device = device;
    EXPECT_PJRT_OK(api_, api_->PJRT_Device_MemoryStats(&args));
    return args;
  }

  Result ExternalReference(PJRT_Buffer* buffer, bool increase) {
    if (increase) {
      PJRT_ARGS(PJRT_Buffer_IncreaseExternalReferenceCount_Args, args);
      args.buffer = buffer;
      return Take(api_, api_->PJRT_Buffer_IncreaseExternalReferenceCount(&args));
    }
    PJRT_ARGS(PJRT_Buffer_DecreaseExternalReferenceCount_Args, args);
    args.buffer = buffer;
    return Take(api_, api_->PJRT_Buffer_DecreaseExternalReferenceCount(&args));
  }

  const PJRT_Api* api_ = nullptr;
  PJRT_Client* client_ = nullptr;
  std::vector<PJRT_Device*> devices_;
};

// A tiled host layout with the given dimension order and optional tiles.
struct TiledLayout {
  std::vector<int64_t> minor_to_major;
  std::vector<int64_t> tile_dims;
  std::vector<size_t> tile_dim_sizes;
  PJRT_Buffer_MemoryLayout layout{};

  PJRT_Buffer_MemoryLayout* get() {
    layout = PJRT_Buffer_MemoryLayout{};
    layout.struct_size = PJRT_Buffer_MemoryLayout_STRUCT_SIZE;
    layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
    layout.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
    layout.tiled.minor_to_major = minor_to_major.data();
    layout.tiled.minor_to_major_size = minor_to_major.size();
    layout.tiled.tile_dims = tile_dims.data();
    layout.tiled.tile_dim_sizes = tile_dim_sizes.data();
    layout.tiled.num_tiles = tile_dim_sizes.size();
    return &layout;
  }
};

TEST_F(CpuRuntimeTest, PluginAttributes) {
  PJRT_ARGS(PJRT_Plugin_Attributes_Args, args);
  ASSERT_PJRT_OK(api_, api_->PJRT_Plugin_Attributes(&args));
  const PJRT_NamedValue* xla = FindAttribute(args.attributes, args.num_attributes, "xla_version");
  ASSERT_NE(xla, nullptr);
  EXPECT_EQ(xla->type, PJRT_NamedValue_kInt64);
  EXPECT_GE(xla->int64_value, 1);
  std::vector<int64_t> versions[2];
  const char* names[2] = {"stablehlo_current_version", "stablehlo_minimum_version"};
  for (int i = 0; i < 2; ++i) {
    const PJRT_NamedValue* value = FindAttribute(args.attributes, args.num_attributes, names[i]);
    ASSERT_NE(value, nullptr) << names[i];
    ASSERT_EQ(value->type, PJRT_NamedValue_kInt64List) << names[i];
    ASSERT_EQ(value->value_size, 3u) << names[i];
    versions[i].assign(value->int64_array_value, value->int64_array_value + 3);
  }
  EXPECT_GE(versions[0], versions[1]) << "current StableHLO version below the minimum";
}

TEST_F(CpuRuntimeTest, ClientDescribesItsDevices) {
  PJRT_ARGS(PJRT_Client_PlatformName_Args, name);
  name.client = client_;
  ASSERT_PJRT_OK(api_, api_->PJRT_Client_PlatformName(&name));
  EXPECT_EQ(std::string(name.platform_name, name.platform_name_size), "cpu");
  PJRT_ARGS(PJRT_Client_PlatformVersion_Args, version);
  version.client = client_;
  ASSERT_PJRT_OK(api_, api_->PJRT_Client_PlatformVersion(&version));
  EXPECT_NE(std::string(version.platform_version, version.platform_version_size).find("plugrt"),
            std::string::npos);
  PJRT_ARGS(PJRT_Client_ProcessIndex_Args, process);
  process.client = client_;
  ASSERT_PJRT_OK(api_, api_->PJRT_Client_ProcessIndex(&process));
  EXPECT_EQ(process.process_index, 0);

  PJRT_ARGS(PJRT_Client_AddressableDevices_Args, addressable);
  addressable.client = client_;
  ASSERT_PJRT_OK(api_, api_->PJRT_Client_AddressableDevices(&addressable));
  ASSERT_EQ(addressable.num_addressable_devices, 4u);

  for (int i = 0; i < 4; ++i) {
    PJRT_Device* device = devices_[i];
    EXPECT_EQ(addressable.addressable_devices[i], device);
    EXPECT_EQ(DeviceId(device), i);
    PJRT_DeviceDescription* description = Description(device);
    PJRT_ARGS(PJRT_DeviceDescription_Kind_Args, kind);
    kind.device_description = description;
    ASSERT_PJRT_OK(api_, api_->PJRT_DeviceDescription_Kind(&kind));
    EXPECT_EQ(std::string(kind.device_kind, kind.device_kind_size), "cpu");
    PJRT_ARGS(PJRT_DeviceDescription_DebugString_Args, debug);
    debug.device_description = description;
    ASSERT_PJRT_OK(api_, api_->PJRT_DeviceDescription_DebugString(&debug));
    EXPECT_EQ(std::string(debug.debug_string, debug.debug_string_size), "cpu:" + std::to_string(i));
    PJRT_ARGS(PJRT_DeviceDescription_ToString_Args, to_string);
    to_string.device_description = description;
    ASSERT_PJRT_OK(api_, api_->PJRT_DeviceDescription_ToString(&to_string));
    EXPECT_EQ(std::string(to_string.to_string, to_string.to_string_size),
              "CpuDevice(id=" + std::to_string(i) + ")");
    PJRT_ARGS(PJRT_DeviceDescription_ProcessIndex_Args, device_process);
    device_process.device_description = description;
    ASSERT_PJRT_OK(api_, api_->PJRT_DeviceDescription_ProcessIndex(&device_process));
    EXPECT_EQ(device_process.process_index, 0);
    PJRT_ARGS(PJRT_DeviceDescription_Attributes_Args, attributes);
    attributes.device_description = description;
    ASSERT_PJRT_OK(api_, api_->PJRT_DeviceDescription_Attributes(&attributes));
    const PJRT_NamedValue* cores =
        FindAttribute(attributes.attributes, attributes.num_attributes, "core_count");
    ASSERT_NE(cores, nullptr);
    EXPECT_GE(cores->int64_value, 1);

    PJRT_ARGS(PJRT_Device_IsAddressable_Args, is_addressable);
    is_addressable.device = device;
    ASSERT_PJRT_OK(api_, api_->PJRT_Device_IsAddressable(&is_addressable));
    EXPECT_TRUE(is_addressable.is_addressable);
    PJRT_ARGS(PJRT_Device_LocalHardwareId_Args, hardware_id);
    hardware_id.device = device;
    ASSERT_PJRT_OK(api_, api_->PJRT_Device_LocalHardwareId(&hardware_id));
    EXPECT_EQ(hardware_id.local_hardware_id, i);

    PJRT_ARGS(PJRT_Client_LookupDevice_Args, lookup);
    lookup.client = client_;
    lookup.id = i;
    ASSERT_PJRT_OK(api_, api_->PJRT_Client_LookupDevice(&lookup));
    EXPECT_EQ(lookup.device, device);
    PJRT_ARGS(PJRT_Client_LookupAddressableDevice_Args, lookup_local);
    lookup_local.client = client_;
    lookup_local.local_hardware_id = i;
    ASSERT_PJRT_OK(api_, api_->PJRT_Client_LookupAddressableDevice(&lookup_local));
    EXPECT_EQ(lookup_local.addressable_device, device);
  }

  PJRT_ARGS(PJRT_Client_LookupDevice_Args, missing);
  missing.client = client_;
  missing.id = 9;
  Result result = Take(api_, api_->PJRT_Client_LookupDevice(&missing));
  EXPECT_FALSE(result.ok());
  EXPECT_NE(result.message.find("9"), std::string::npos) << result;
  PJRT_ARGS(PJRT_Client_LookupAddressableDevice_Args, missing_local);
  missing_local.client = client_;
  missing_local.local_hardware_id = -1;
  EXPECT_FALSE(Take(api_, api_->PJRT_Client_LookupAddressableDevice(&missing_local)).ok());
}

TEST_F(CpuRuntimeTest, DefaultDeviceAssignmentAndTopology) {
  int assignment[4] = {-1, -1, -1, -1};
  PJRT_ARGS(PJRT_Client_DefaultDeviceAssignment_Args, args);
  args.client = client_;
  args.num_replicas = 2;
  args.num_partitions = 2;
  args.default_assignment_size = 4;
  args.default_assignment = assignment;
  ASSERT_PJRT_OK(api_, api_->PJRT_Client_DefaultDeviceAssignment(&args));
  std::set<int> ids(assignment, assignment + 4);
  EXPECT_EQ(ids, (std::set<int>{0, 1, 2, 3}));

  int too_many[6];
  args.num_replicas = 3;
  args.default_assignment_size = 6;
  args.default_assignment = too_many;
  Result result = Take(api_, api_->PJRT_Client_DefaultDeviceAssignment(&args));
  EXPECT_EQ(result.code, PJRT_Error_Code_INVALID_ARGUMENT) << result;

  PJRT_ARGS(PJRT_Client_TopologyDescription_Args, topology);
  topology.client = client_;
  ASSERT_PJRT_OK(api_, api_->PJRT_Client_TopologyDescription(&topology));
  PJRT_ARGS(PJRT_TopologyDescription_PlatformName_Args, platform);
  platform.topology = topology.topology;
  ASSERT_PJRT_OK(api_, api_->PJRT_TopologyDescription_PlatformName(&platform));
  EXPECT_EQ(std::string(platform.platform_name, platform.platform_name_size), "cpu");
  PJRT_ARGS(PJRT_TopologyDescription_GetDeviceDescriptions_Args, descriptions);
  descriptions.topology = topology.topology;
  ASSERT_PJRT_OK(api_, api_->PJRT_TopologyDescription_GetDeviceDescriptions(&descriptions));
  ASSERT_EQ(descriptions.num_descriptions, 4u);
  for (size_t i = 0; i < 4; ++i) {
    PJRT_ARGS(PJRT_DeviceDescription_Id_Args, id);
    id.device_description = descriptions.descriptions[i];
    ASSERT_PJRT_OK(api_, api_->PJRT_DeviceDescription_Id(&id));
    EXPECT_EQ(id.id, static_cast<int>(i));
  }
  PJRT_ARGS(PJRT_TopologyDescription_Attributes_Args, attributes);
  attributes.topology = topology.topology;
  ASSERT_PJRT_OK(api_, api_->PJRT_TopologyDescription_Attributes(&attributes));
  const PJRT_NamedValue* count =
      FindAttribute(attributes.attributes, attributes.num_attributes, "cpu_device_count");
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(count->int64_value, 4);
}

TEST_F(CpuRuntimeTest, StandaloneTopologyTakesTheDeviceCount) {
  PJRT_NamedValue count = Int64Option("cpu_device_count", 3);
  PJRT_ARGS(PJRT_TopologyDescription_Create_Args, args);
  args.topology_name = "cpu";
  args.topology_name_size = 3;
  args.create_options = &count;
  args.num_options = 1;
  ASSERT_PJRT_OK(api_, api_->PJRT_TopologyDescription_Create(&args));
  PJRT_ARGS(PJRT_TopologyDescription_GetDeviceDescriptions_Args, descriptions);
  descriptions.topology = args.topology;
  ASSERT_PJRT_OK(api_, api_->PJRT_TopologyDescription_GetDeviceDescriptions(&descriptions));
  EXPECT_EQ(descriptions.num_descriptions, 3u);
  PJRT_ARGS(PJRT_TopologyDescription_Destroy_Args, destroy);
  destroy.topology = args.topology;
  EXPECT_PJRT_OK(api_, api_->PJRT_TopologyDescription_Destroy(&destroy));

  PJRT_NamedValue bad = StringOption("cpu_device_count", "three");
  args.create_options = &bad;
  Result result = Take(api_, api_->PJRT_TopologyDescription_Create(&args));
  EXPECT_EQ(result.code, PJRT_Error_Code_INVALID_ARGUMENT) << result;
}

TEST_F(CpuRuntimeTest, EveryDeviceHasThreeMemoryKinds) {
  std::set<int> memory_ids;
  std::map<std::string, std::set<int>> kind_ids;
  for (PJRT_Device* device : devices_) {
    std::vector<PJRT_Memory*> memories = Memories(device);
    ASSERT_EQ(memories.size(), 3u);
    std::set<std::string> kinds;
    for (PJRT_Memory* memory : memories) {
      const std::string kind = MemoryKind(memory);
      kinds.insert(kind);
      PJRT_ARGS(PJRT_Memory_Id_Args, id);
      id.memory = memory;
      ASSERT_PJRT_OK(api_, api_->PJRT_Memory_Id(&id));
      EXPECT_TRUE(memory_ids.insert(id.id).second) << "memory id " << id.id << " repeats";
      PJRT_ARGS(PJRT_Memory_Kind_Id_Args, kind_id);
      kind_id.memory = memory;
      ASSERT_PJRT_OK(api_, api_->PJRT_Memory_Kind_Id(&kind_id));
      kind_ids[kind].insert(kind_id.kind_id);
      PJRT_ARGS(PJRT_Memory_DebugString_Args, debug);
      debug.memory = memory;
      ASSERT_PJRT_OK(api_, api_->PJRT_Memory_DebugString(&debug));
      EXPECT_NE(std::string(debug.debug_string, debug.debug_string_size).find(kind),
                std::string::npos);
      PJRT_ARGS(PJRT_Memory_ToString_Args, to_string);
      to_string.memory = memory;
      ASSERT_PJRT_OK(api_, api_->PJRT_Memory_ToString(&to_string));
      EXPECT_GT(to_string.to_string_size, 0u);
      PJRT_ARGS(PJRT_Memory_AddressableByDevices_Args, by);
      by.memory = memory;
      ASSERT_PJRT_OK(api_, api_->PJRT_Memory_AddressableByDevices(&by));
      ASSERT_EQ(by.num_devices, 1u);
      EXPECT_EQ(by.devices[0], device);
    }
    EXPECT_EQ(kinds, (std::set<std::string>{"device", "pinned_host", "unpinned_host"}));
    PJRT_ARGS(PJRT_Device_DefaultMemory_Args, default_memory);
    default_memory.device = device;
    ASSERT_PJRT_OK(api_, api_->PJRT_Device_DefaultMemory(&default_memory));
    EXPECT_EQ(MemoryKind(default_memory.memory), "device");
  }
  // A kind has one kind id on every device, and kinds differ.
  std::set<int> distinct;
  for (const auto& [kind, ids] : kind_ids) {
    EXPECT_EQ(ids.size(), 1u) << kind;
    distinct.insert(*ids.begin());
  }
  EXPECT_EQ(distinct.size(), 3u);

  PJRT_ARGS(PJRT_Client_AddressableMemories_Args, all);
  all.client = client_;
  ASSERT_PJRT_OK(api_, api_->PJRT_Client_AddressableMemories(&all));
  EXPECT_EQ(all.num_addressable_memories, 12u);
}

TEST_F(CpuRuntimeTest, CreateOptionsAreChecked) {
  PJRT_Client* client = nullptr;
  PJRT_NamedValue unknown = Int64Option("cpu_turbo_mode", 1);
  Result result = CreateClient(&unknown, 1, &client);
  EXPECT_EQ(result.code, PJRT_Error_Code_INVALID_ARGUMENT) << result;
  EXPECT_NE(result.message.find("cpu_turbo_mode"), std::string::npos) << result;

  PJRT_NamedValue ill_typed = StringOption("cpu_device_count", "4");
  result = CreateClient(&ill_typed, 1, &client);
  EXPECT_EQ(result.code, PJRT_Error_Code_INVALID_ARGUMENT) << result;
  EXPECT_NE(result.message.find("cpu_device_count"), std::string::npos) << result;

  for (int64_t bad : {int64_t{0}, int64_t{-3}, int64_t{100000}}) {
    PJRT_NamedValue out_of_range = Int64Option("cpu_device_count", bad);
    result = CreateClient(&out_of_range, 1, &client);
    EXPECT_EQ(result.code, PJRT_Error_Code_INVALID_ARGUMENT) << bad << ": " << result;
  }

  ASSERT_TRUE(CreateClient(nullptr, 0, &client).ok());
  EXPECT_EQ(Devices(client).size(), 1u);
  DestroyClient(client);
}

struct TypeCase {
  PJRT_Buffer_Type type;
  const char* name;
  int bits;  // on the device
  bool is_signed;
};

const TypeCase kTypeCases[] = {
    {PJRT_Buffer_Type_PRED, "pred", 8, false},
    {PJRT_Buffer_Type_S1, "s1", 1, true},
    {PJRT_Buffer_Type_S2, "s2", 2, true},
    {PJRT_Buffer_Type_S4, "s4", 4, true},
    {PJRT_Buffer_Type_S8, "s8", 8, true},
    {PJRT_Buffer_Type_S16, "s16", 16, true},
    {PJRT_Buffer_Type_S32, "s32", 32, true},
    {PJRT_Buffer_Type_S64, "s64", 64, true},
    {PJRT_Buffer_Type_U1, "u1", 1, false},
    {PJRT_Buffer_Type_U2, "u2", 2, false},
    {PJRT_Buffer_Type_U4, "u4", 4, false},
    {PJRT_Buffer_Type_U8, "u8", 8, false},
    {PJRT_Buffer_Type_U16, "u16", 16, false},
    {PJRT_Buffer_Type_U32, "u32", 32, false},
    {PJRT_Buffer_Type_U64, "u64", 64, false},
    {PJRT_Buffer_Type_F16, "f16", 16, false},
    {PJRT_Buffer_Type_BF16, "bf16", 16, false},
    {PJRT_Buffer_Type_F32, "f32", 32, false},
    {PJRT_Buffer_Type_F64, "f64", 64, false},
    {PJRT_Buffer_Type_F8E5M2, "f8e5m2", 8, false},
    {PJRT_Buffer_Type_F8E4M3FN, "f8e4m3fn", 8, false},
    {PJRT_Buffer_Type_F8E4M3B11FNUZ, "f8e4m3b11fnuz", 8, false},
    {PJRT_Buffer_Type_F8E5M2FNUZ, "f8e5m2fnuz", 8, false},
    {PJRT_Buffer_Type_F8E4M3FNUZ, "f8e4m3fnuz", 8, false},
    {PJRT_Buffer_Type_F8E4M3, "f8e4m3", 8, false},
    {PJRT_Buffer_Type_F8E3M4, "f8e3m4", 8, false},
    {PJRT_Buffer_Type_F8E8M0FNU, "f8e8m0fnu", 8, false},
    {PJRT_Buffer_Type_C64, "c64", 64, false},
    {PJRT_Buffer_Type_C128, "c128", 128, false},
};

// Host bytes of `count` elements: sub-byte types take one byte each, with
// values in their range (sign-extended when signed).
std::vector<uint8_t> SampleHostData(const TypeCase& type, int count) {
  const int host_bytes = type.bits < 8 ? 1 : type.bits / 8;
  std::vector<uint8_t> data(static_cast<size_t>(count * host_bytes));
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 37 + 11);
  if (type.type == PJRT_Buffer_Type_PRED) {
    for (size_t i = 0; i < data.size(); ++i) data[i] = i % 3 == 0;
  } else if (type.bits < 8) {
    const int range = 1 << type.bits;
    for (int i = 0; i < count; ++i) {
      int value = (i * 5 + 1) % range;
      if (type.is_signed && value >= range / 2) value -= range;
      data[i] = static_cast<uint8_t>(static_cast<int8_t>(value));
    }
  }
  return data;
}

TEST_F(CpuRuntimeTest, EveryElementTypeRoundTrips) {
  const int kCount = 2 * 7;
  for (const TypeCase& type : kTypeCases) {
    SCOPED_TRACE(type.name);
    const std::vector<uint8_t> host = SampleHostData(type, kCount);
    HostArray array;
    array.data = host.data();
    array.type = type.type;
    array.dims = {2, 7};
    PJRT_Buffer* buffer = MustFromHost(array);
    ASSERT_NE(buffer, nullptr);
    EXPECT_EQ(OnDeviceSize(buffer), static_cast<size_t>((kCount * type.bits + 7) / 8));
    PJRT_ARGS(PJRT_Buffer_ElementType_Args, element_type);
    element_type.buffer = buffer;
    EXPECT_PJRT_OK(api_, api_->PJRT_Buffer_ElementType(&element_type));
    EXPECT_EQ(element_type.type, type.type);
    EXPECT_EQ(Dimensions(buffer), (std::vector<int64_t>{2, 7}));
    std::vector<uint8_t> back(host.size(), 0xAB);
    Result result = ToHost(buffer, back.data(), back.size());
    EXPECT_TRUE(result.ok()) << result;
    EXPECT_EQ(back, host);
    DestroyBuffer(buffer);
  }
}

TEST_F(CpuRuntimeTest, SubByteTypesArePackedLowBitsFirst) {
  const int8_t s4[] = {1, 2, 3, -1, -8};
  HostArray array;
  array.data = s4;
  array.type = PJRT_Buffer_Type_S4;
  array.dims = {5};
  PJRT_Buffer* buffer = MustFromHost(array);
  ASSERT_NE(buffer, nullptr);
  ASSERT_EQ(OnDeviceSize(buffer), 3u);
  uint8_t raw[3] = {};
  ASSERT_TRUE(RawToHost(buffer, raw, 0, 3).ok());
  EXPECT_EQ(raw[0], 0x21);
  EXPECT_EQ(raw[1], 0xF3);
  EXPECT_EQ(raw[2], 0x08);
  int8_t back[5] = {};
  ASSERT_TRUE(ToHost(buffer, back, sizeof(back)).ok());
  EXPECT_EQ(std::vector<int8_t>(back, back + 5), std::vector<int8_t>(s4, s4 + 5));
  DestroyBuffer(buffer);

  const uint8_t u2[] = {0, 1, 2, 3, 3};
  array.data = u2;
  array.type = PJRT_Buffer_Type_U2;
  buffer = MustFromHost(array);
  ASSERT_NE(buffer, nullptr);
  ASSERT_EQ(OnDeviceSize(buffer), 2u);
  ASSERT_TRUE(RawToHost(buffer, raw, 0, 2).ok());
  EXPECT_EQ(raw[0], 0xE4);
  EXPECT_EQ(raw[1], 0x03);
  DestroyBuffer(buffer);
}

TEST_F(CpuRuntimeTest, TokenAndInvalidTypesAreRejected) {
  const uint8_t data[4] = {};
  for (PJRT_Buffer_Type type : {PJRT_Buffer_Type_TOKEN, PJRT_Buffer_Type_INVALID}) {
    HostArray array;
    array.data = data;
    array.type = type;
    array.dims = {4};
    PJRT_Buffer* buffer = nullptr;
    Result result = FromHost(array, &buffer);
    EXPECT_EQ(result.code, PJRT_Error_Code_INVALID_ARGUMENT) << result;
    EXPECT_EQ(buffer, nullptr);
  }
}

TEST_F(CpuRuntimeTest, StridedHostInput) {
  // A 3x2 row-major host array.
  const float host[6] = {1, 2, 3, 4, 5, 6};
  HostArray array;
  array.type = PJRT_Buffer_Type_F32;

  // Its transpose (2x3) read through swapped strides.
  array.data = host;
  array.dims = {2, 3};
  array.byte_strides = std::vector<int64_t>{4, 8};
  PJRT_Buffer* buffer = MustFromHost(array);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(Read<float>(buffer, 6), (std::vector<float>{1, 3, 5, 2, 4, 6}));
  DestroyBuffer(buffer);

  // Both dimensions reversed: start at the last element, negative strides.
  array.data = host + 5;
  array.dims = {3, 2};
  array.byte_strides = std::vector<int64_t>{-8, -4};
  buffer = MustFromHost(array);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(Read<float>(buffer, 6), (std::vector<float>{6, 5, 4, 3, 2, 1}));
  DestroyBuffer(buffer);

  // Zero stride: one row broadcast three times.
  array.data = host;
  array.dims = {3, 2};
  array.byte_strides = std::vector<int64_t>{0, 4};
  buffer = MustFromHost(array);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(Read<float>(buffer, 6), (std::vector<float>{1, 2, 1, 2, 1, 2}));
  DestroyBuffer(buffer);

  // Sub-byte types take strides in host bytes (one per element).
  const int8_t s4[6] = {1, -2, 3, -4, 5, -6};
  array.data = s4;
  array.type = PJRT_Buffer_Type_S4;
  array.dims = {2, 3};
  array.byte_strides = std::vector<int64_t>{1, 2};
  buffer = MustFromHost(array);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(OnDeviceSize(buffer), 3u);
  EXPECT_EQ(Read<int8_t>(buffer, 6), (std::vector<int8_t>{1, 3, 5, -2, -4, -6}));
  DestroyBuffer(buffer);

  // The stride count must match the rank.
  array.data = host;
  array.type = PJRT_Buffer_Type_F32;
  array.dims = {3, 2};
  array.byte_strides = std::vector<int64_t>{4};
  Result result = FromHost(array, &buffer);
  EXPECT_EQ(result.code, PJRT_Error_Code_INVALID_ARGUMENT) << result;
}

TEST_F(CpuRuntimeTest, HostLayoutOnOutput) {
  const int32_t host[6] = {1, 2, 3, 4, 5, 6};  // 2x3
  HostArray array;
  array.data = host;
  array.type = PJRT_Buffer_Type_S32;
  array.dims = {2, 3};
  PJRT_Buffer* buffer = MustFromHost(array);
  ASSERT_NE(buffer, nullptr);

  TiledLayout column_major{{0, 1}, {}, {}};
  int32_t out[6] = {};
  ASSERT_TRUE(ToHost(buffer, out, sizeof(out), column_major.get()).ok());
  EXPECT_EQ(std::vector<int32_t>(out, out + 6), (std::vector<int32_t>{1, 4, 2, 5, 3, 6}));

  PJRT_ARGS(PJRT_Buffer_ToHostBuffer_Args, size_query);
  size_query.src = buffer;
  size_query.host_layout = column_major.get();
  ASSERT_PJRT_OK(api_, api_->PJRT_Buffer_ToHostBuffer(&size_query));
  EXPECT_EQ(size_query.dst_size, sizeof(out));

  TiledLayout tiled{{1, 0}, {2, 2}, {2}};
  Result result = ToHost(buffer, out, sizeof(out), tiled.get());
  EXPECT_EQ(result.code, PJRT_Error_Code_UNIMPLEMENTED) << result;
  EXPECT_NE(result.message.find("tile"), std::string::npos) << result;

  TiledLayout not_a_permutation{{0, 0}, {}, {}};
  result = ToHost(buffer, out, sizeof(out), not_a_permutation.get());
  EXPECT_EQ(result.code, PJRT_Error_Code_INVALID_ARGUMENT) << result;

  result = ToHost(buffer, out, 20);
  EXPECT_EQ(result.code, PJRT_Error_Code_INVALID_ARGUMENT) << result;
  EXPECT_NE(result.message.find("20"), std::string::npos) << result;
  EXPECT_NE(result.message.find("24"), std::string::npos) << result;
  DestroyBuffer(buffer);
}

TEST_F(CpuRuntimeTest, OnlyTheRowMajorDeviceLayoutIsSupported) {
  const float host[6] = {1, 2, 3, 4, 5, 6};
  const int64_t dims[2] = {2, 3};
  for (bool row_major : {true, false}) {
    TiledLayout layout{row_major ? std::vector<int64_t>{1, 0} : std::vector<int64_t>{0, 1}, {}, {}};
    PJRT_ARGS(PJRT_Client_BufferFromHostBuffer_Args, args);
    args.client = client_;
    args.data = host;
    args.type = PJRT_Buffer_Type_F32;
    args.dims = dims;
    args.num_dims = 2;
    args.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
    args.device = devices_[0];
    args.device_layout = layout.get();
    Result result = Take(api_, api_->PJRT_Client_BufferFromHostBuffer(&args));
    if (row_major) {
      ASSERT_TRUE(result.ok()) << result;
      EXPECT_TRUE(Await(args.done_with_host_buffer).ok());
      EXPECT_EQ(Read<float>(args.buffer, 6), std::vector<float>(host, host + 6));
      DestroyBuffer(args.buffer);
    } else {
      EXPECT_EQ(result.code, PJRT_Error_Code_UNIMPLEMENTED) << result;
    }
  }
}

TEST_F(CpuRuntimeTest, ClientDestructionFinishesPendingTransfers) {
  PJRT_Client* client = nullptr;
  ASSERT_TRUE(CreateClient(nullptr, 0, &client).ok());
  std::vector<PJRT_Device*> devices = Devices(client);
  ASSERT_EQ(devices.size(), 1u);
  std::vector<float> host(1 << 20, 3.0f);  // 4 MiB
  const int64_t dims[1] = {static_cast<int64_t>(host.size())};
  std::vector<PJRT_Event*> done_events;
  for (int i = 0; i < 4; ++i) {
    PJRT_ARGS(PJRT_Client_BufferFromHostBuffer_Args, args);
    args.client = client;
    args.data = host.data();
    args.type = PJRT_Buffer_Type_F32;
    args.dims = dims;
    args.num_dims = 1;
    args.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes;
    args.device = devices[0];
    ASSERT_PJRT_OK(api_, api_->PJRT_Client_BufferFromHostBuffer(&args));
    done_events.push_back(args.done_with_host_buffer);
    DestroyBuffer(args.buffer);  // the queued copy keeps the storage alive
  }
  DestroyClient(client);  // waits for the queued copies
  for (PJRT_Event* done : done_events) {
    EXPECT_TRUE(IsReady(done));
    EXPECT_TRUE(Await(done).ok());
  }
}

TEST_F(CpuRuntimeTest, ImmutableOnlyDuringCallCopiesAtOnce) {
  std::vector<float> host = {1, 2, 3, 4};
  HostArray array;
  array.data = host.data();
  array.dims = {4};
  PJRT_Buffer* buffer = nullptr;
  PJRT_Event* done = nullptr;
  ASSERT_TRUE(FromHost(array, &buffer, &done).ok());
  EXPECT_TRUE(IsReady(done));
  EXPECT_TRUE(Await(done).ok());
  host[0] = 100;  // the buffer holds its own copy
  EXPECT_EQ(Read<float>(buffer, 4), (std::vector<float>{1, 2, 3, 4}));
  DestroyBuffer(buffer);
}

TEST_F(CpuRuntimeTest, ImmutableUntilTransferCompletesFiresAfterTheCopy) {
  std::vector<double> host(1 << 17);
  std::iota(host.begin(), host.end(), 0.0);
  HostArray array;
  array.data = host.data();
  array.type = PJRT_Buffer_Type_F64;
  array.dims = {512, 256};
  array.semantics = PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes;
  PJRT_Buffer* buffer = nullptr;
  PJRT_Event* done = nullptr;
  ASSERT_TRUE(FromHost(array, &buffer, &done).ok());
  ASSERT_TRUE(Await(done).ok());
  host.assign(host.size(), -1.0);  // the caller may now reuse its memory
  std::vector<double> back = Read<double>(buffer, host.size());
  for (size_t i = 0; i < back.size(); ++i) {
    ASSERT_EQ(back[i], static_cast<double>(i)) << "element " << i;
  }
  DestroyBuffer(buffer);
}

TEST_F(CpuRuntimeTest, MutableZeroCopyAliasesHostMemory) {
  alignas(64) float host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  HostArray array;
  array.data = host;
  array.dims = {2, 4};
  array.semantics = PJRT_HostBufferSemantics_kMutableZeroCopy;
  PJRT_Buffer* buffer = nullptr;
  PJRT_Event* done = nullptr;
  ASSERT_TRUE(FromHost(array, &buffer, &done).ok());
  uintptr_t pointer = 0;
  ASSERT_TRUE(UnsafePointer(buffer, &pointer).ok());
  EXPECT_EQ(pointer, reinterpret_cast<uintptr_t>(host));
  host[3] = 40;  // visible through the buffer: it is the same memory
  EXPECT_EQ(Read<float>(buffer, 8), (std::vector<float>{1, 2, 3, 40, 5, 6, 7, 8}));
  EXPECT_FALSE(IsReady(done)) << "zero-copy buffer released the host memory while in use";
  DestroyBuffer(buffer);
  EXPECT_TRUE(IsReady(done));
  EXPECT_TRUE(Await(done).ok());
}

TEST_F(CpuRuntimeTest, ImmutableZeroCopyReleasesOnDelete) {
  alignas(64) int64_t host[16];
  std::iota(host, host + 16, 0);
  HostArray array;
  array.data = host;
  array.type = PJRT_Buffer_Type_S64;
  array.dims = {16};
  array.semantics = PJRT_HostBufferSemantics_kImmutableZeroCopy;
  PJRT_Buffer* buffer = nullptr;
  PJRT_Event* done = nullptr;
  ASSERT_TRUE(FromHost(array, &buffer, &done).ok());
  uintptr_t pointer = 0;
  ASSERT_TRUE(UnsafePointer(buffer, &pointer).ok());
  EXPECT_EQ(pointer, reinterpret_cast<uintptr_t>(host));
  EXPECT_FALSE(IsReady(done));
  DeleteBuffer(buffer);
  EXPECT_TRUE(IsReady(done));
  EXPECT_TRUE(Await(done).ok());
  DestroyBuffer(buffer);
}

TEST_F(CpuRuntimeTest, ZeroCopyFallsBackToACopyWhenItCannotAlias) {
  alignas(64) uint8_t bytes[64];
  for (int i = 0; i < 64; ++i) bytes[i] = static_cast<uint8_t>(i);
  struct Case {
    const char* why;
    const void* data;
    PJRT_Buffer_Type type;
    std::vector<int64_t> dims;
    std::optional<std::vector<int64_t>> strides;
  };
  const Case cases[] = {
      {"misaligned", bytes + 1, PJRT_Buffer_Type_U8, {8}, std::nullopt},
      {"sub-byte", bytes, PJRT_Buffer_Type_U4, {8}, std::nullopt},
      {"strided", bytes, PJRT_Buffer_Type_U8, {4}, std::vector<int64_t>{2}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.why);
    for (PJRT_HostBufferSemantics semantics : {PJRT_HostBufferSemantics_kImmutableZeroCopy,
                                                PJRT_HostBufferSemantics_kMutableZeroCopy}) {
      HostArray array;
      array.data = c.data;
      array.type = c.type;
      array.dims = c.dims;
      array.byte_strides = c.strides;
      array.semantics = semantics;
      PJRT_Buffer* buffer = nullptr;
      PJRT_Event* done = nullptr;
      ASSERT_TRUE(FromHost(array, &buffer, &done).ok());
      EXPECT_TRUE(IsReady(done)) << "a copy is done with the host memory at once";
      EXPECT_TRUE(Await(done).ok());
      uintptr_t pointer = 0;
      ASSERT_TRUE(UnsafePointer(buffer, &pointer).ok());
      EXPECT_NE(pointer, reinterpret_cast<uintptr_t>(c.data));
      DestroyBuffer(buffer);
    }
  }
}

TEST_F(CpuRuntimeTest, MemoryStatsRiseAndFall) {
  PJRT_Device* device = devices_[2];
  const PJRT_Device_MemoryStats_Args before = Stats(device);
  ASSERT_TRUE(before.peak_bytes_in_use_is_set);
  ASSERT_TRUE(before.num_allocs_is_set);
  ASSERT_TRUE(before.largest_alloc_size_is_set);

  std::vector<float> host(1 << 18, 1.0f);  // 1 MiB
  HostArray array;
  array.data = host.data();
  array.dims = {static_cast<int64_t>(host.size())};
  array.device = device;
  PJRT_Buffer* buffer = MustFromHost(array);
  ASSERT_NE(buffer, nullptr);

  const PJRT_Device_MemoryStats_Args during = Stats(device);
  EXPECT_EQ(during.bytes_in_use, before.bytes_in_use + (1 << 20));
  EXPECT_GE(during.peak_bytes_in_use, during.bytes_in_use);
  EXPECT_EQ(during.num_allocs, before.num_allocs + 1);
  EXPECT_GE(during.largest_alloc_size, 1 << 20);
  // Other devices are not charged.
  EXPECT_EQ(Stats(devices_[3]).bytes_in_use, 0);

  DeleteBuffer(buffer);
  const PJRT_Device_MemoryStats_Args after = Stats(device);
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  EXPECT_EQ(after.peak_bytes_in_use, during.peak_bytes_in_use);
  DestroyBuffer(buffer);
}

TEST_F(CpuRuntimeTest, CopiesToDevicesAndMemories) {
  const float host[4] = {1.5f, -2.5f, 3.5f, 4.5f};
  HostArray array;
  array.data = host;
  array.dims = {4};
  PJRT_Buffer* buffer = MustFromHost(array);
  ASSERT_NE(buffer, nullptr);

  PJRT_Buffer* on_two = nullptr;
  ASSERT_TRUE(CopyToDevice(buffer, devices_[2], &on_two).ok());
  EXPECT_EQ(BufferDevice(on_two), devices_[2]);
  EXPECT_EQ(MemoryKind(BufferMemory(on_two)), "device");
  EXPECT_EQ(Read<float>(on_two, 4), std::vector<float>(host, host + 4));

  for (const char* kind : {"pinned_host", "unpinned_host", "device"}) {
    SCOPED_TRACE(kind);
    PJRT_Memory* memory = MemoryOfKind(devices_[3], kind);
    PJRT_Buffer* copy = nullptr;
    ASSERT_TRUE(CopyToMemory(on_two, memory, &copy).ok());
    EXPECT_EQ(BufferMemory(copy), memory);
    EXPECT_EQ(BufferDevice(copy), devices_[3]);
    EXPECT_EQ(Read<float>(copy, 4), std::vector<float>(host, host + 4));
    uintptr_t a = 0, b = 0;
    ASSERT_TRUE(UnsafePointer(on_two, &a).ok());
    ASSERT_TRUE(UnsafePointer(copy, &b).ok());
    EXPECT_NE(a, b) << "a copy must not share storage";
    DestroyBuffer(copy);
  }

  // Transfers straight into a host-kind memory.
  array.memory = MemoryOfKind(devices_[1], "pinned_host");
  PJRT_Buffer* pinned = MustFromHost(array);
  ASSERT_NE(pinned, nullptr);
  EXPECT_EQ(BufferDevice(pinned), devices_[1]);
  EXPECT_EQ(BufferMemory(pinned), array.memory);
  EXPECT_EQ(Read<float>(pinned, 4), std::vector<float>(host, host + 4));
  DestroyBuffer(pinned);
  DestroyBuffer(on_two);
  DestroyBuffer(buffer);
}

TEST_F(CpuRuntimeTest, BufferMetadata) {
  const uint16_t host[6] = {1, 2, 3, 4, 5, 6};
  HostArray array;
  array.data = host;
  array.type = PJRT_Buffer_Type_BF16;
  array.dims = {3, 2};
  array.device = devices_[1];
  PJRT_Buffer* buffer = MustFromHost(array);
  ASSERT_NE(buffer, nullptr);

  PJRT_ARGS(PJRT_Buffer_UnpaddedDimensions_Args, unpadded);
  unpadded.buffer = buffer;
  ASSERT_PJRT_OK(api_, api_->PJRT_Buffer_UnpaddedDimensions(&unpadded));
  EXPECT_EQ(std::vector<int64_t>(unpadded.unpadded_dims, unpadded.unpadded_dims + unpadded.num_dims),
            (std::vector<int64_t>{3, 2}));
  PJRT_ARGS(PJRT_Buffer_DynamicDimensionIndices_Args, dynamic);
  dynamic.buffer = buffer;
  ASSERT_PJRT_OK(api_, api_->PJRT_Buffer_DynamicDimensionIndices(&dynamic));
  EXPECT_EQ(dynamic.num_dynamic_dims, 0u);
  PJRT_ARGS(PJRT_Buffer_GetMemoryLayout_Args, layout);
  layout.buffer = buffer;
  ASSERT_PJRT_OK(api_, api_->PJRT_Buffer_GetMemoryLayout(&layout));
  ASSERT_EQ(layout.layout.type, PJRT_Buffer_MemoryLayout_Type_Tiled);
  ASSERT_EQ(layout.layout.tiled.minor_to_major_size, 2u);
  EXPECT_EQ(layout.layout.tiled.minor_to_major[0], 1);
  EXPECT_EQ(layout.layout.tiled.minor_to_major[1], 0);
  PJRT_ARGS(PJRT_Buffer_IsOnCpu_Args, on_cpu);
  on_cpu.buffer = buffer;
  ASSERT_PJRT_OK(api_, api_->PJRT_Buffer_IsOnCpu(&on_cpu));
  EXPECT_TRUE(on_cpu.is_on_cpu);
  EXPECT_EQ(BufferDevice(buffer), devices_[1]);
  EXPECT_EQ(MemoryKind(BufferMemory(buffer)), "device");
  EXPECT_EQ(OnDeviceSize(buffer), 12u);
  PJRT_ARGS(PJRT_Buffer_ReadyEvent_Args, ready);
  ready.buffer = buffer;
  ASSERT_PJRT_OK(api_, api_->PJRT_Buffer_ReadyEvent(&ready));
  EXPECT_TRUE(Await(ready.event).ok());
  PJRT_ARGS(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args, opaque);
  opaque.buffer = buffer;
  ASSERT_PJRT_OK(api_, api_->PJRT_Buffer_OpaqueDeviceMemoryDataPointer(&opaque));
  uintptr_t pointer = 0;
  ASSERT_TRUE(UnsafePointer(buffer, &pointer).ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(opaque.device_memory_ptr), pointer);
  EXPECT_EQ(pointer % 64, 0u) << "device allocations are 64-byte aligned";
  DestroyBuffer(buffer);
}

TEST_F(CpuRuntimeTest, DeletedBufferRefusesDataAccess) {
  const float host[4] = {1, 2, 3, 4};
  HostArray array;
  array.data = host;
  array.dims = {2, 2};
  PJRT_Buffer* buffer = MustFromHost(array);
  ASSERT_NE(buffer, nullptr);
  DeleteBuffer(buffer);
  DeleteBuffer(buffer);  // deleting twice is harmless

  PJRT_ARGS(PJRT_Buffer_IsDeleted_Args, deleted);
  deleted.buffer = buffer;
  ASSERT_PJRT_OK(api_, api_->PJRT_Buffer_IsDeleted(&deleted));
  EXPECT_TRUE(deleted.is_deleted);
  EXPECT_EQ(Dimensions(buffer), (std::vector<int64_t>{2, 2})) << "metadata still answers";

  auto expect_deleted_error = [](const Result& result, const char* what) {
    EXPECT_FALSE(result.ok()) << what;
    EXPECT_TRUE(result.code == PJRT_Error_Code_FAILED_PRECONDITION ||
                result.code == PJRT_Error_Code_INVALID_ARGUMENT)
        << what << ": " << result;
    EXPECT_NE(result.message.find("deleted"), std::string::npos) << what << ": " << result;
  };
  float out[4];
  expect_deleted_error(ToHost(buffer, out, sizeof(out)), "ToHostBuffer");
  expect_deleted_error(RawToHost(buffer, out, 0, 4), "CopyRawToHost");
  PJRT_Buffer* copy = nullptr;
  expect_deleted_error(CopyToDevice(buffer, devices_[1], &copy), "CopyToDevice");
  expect_deleted_error(CopyToMemory(buffer, MemoryOfKind(devices_[1], "pinned_host"), &copy),
                       "CopyToMemory");
  uintptr_t pointer;
  expect_deleted_error(UnsafePointer(buffer, &pointer), "UnsafePointer");
  expect_deleted_error(ExternalReference(buffer, true), "IncreaseExternalReferenceCount");
  PJRT_ARGS(PJRT_Buffer_ReadyEvent_Args, ready);
  ready.buffer = buffer;
  expect_deleted_error(Take(api_, api_->PJRT_Buffer_ReadyEvent(&ready)), "ReadyEvent");
  DestroyBuffer(buffer);
}

TEST_F(CpuRuntimeTest, ExternalReferencesKeepMemoryAlive) {
  std::vector<float> host(1024, 2.0f);
  HostArray array;
  array.data = host.data();
  array.dims = {1024};
  array.device = devices_[1];
  const int64_t base = Stats(devices_[1]).bytes_in_use;
  PJRT_Buffer* buffer = MustFromHost(array);
  ASSERT_NE(buffer, nullptr);
  uintptr_t pointer = 0;
  ASSERT_TRUE(UnsafePointer(buffer, &pointer).ok());

  EXPECT_TRUE(ExternalReference(buffer, true).ok());
  EXPECT_TRUE(ExternalReference(buffer, true).ok());
  DeleteBuffer(buffer);
  // Still allocated, and still holding the data, for the external holder.
  EXPECT_EQ(Stats(devices_[1]).bytes_in_use, base + 4096);
  EXPECT_EQ(reinterpret_cast<const float*>(pointer)[1023], 2.0f);
  EXPECT_TRUE(ExternalReference(buffer, false).ok());
  EXPECT_EQ(Stats(devices_[1]).bytes_in_use, base + 4096);
  EXPECT_TRUE(ExternalReference(buffer, false).ok());
  EXPECT_EQ(Stats(devices_[1]).bytes_in_use, base);
  Result below_zero = ExternalReference(buffer, false);
  EXPECT_FALSE(below_zero.ok());
  DestroyBuffer(buffer);

  // A zero-copy buffer with an external reference keeps the caller's memory
  // until the reference goes.
  alignas(64) float aliased[16] = {};
  array.data = aliased;
  array.dims = {16};
  array.semantics = PJRT_HostBufferSemantics_kMutableZeroCopy;
  PJRT_Event* done = nullptr;
  ASSERT_TRUE(FromHost(array, &buffer, &done).ok());
  EXPECT_TRUE(ExternalReference(buffer, true).ok());
  DeleteBuffer(buffer);
  EXPECT_FALSE(IsReady(done));
  EXPECT_TRUE(ExternalReference(buffer, false).ok());
  EXPECT_TRUE(IsReady(done));
  EXPECT_TRUE(Await(done).ok());
  DestroyBuffer(buffer);
}

TEST_F(CpuRuntimeTest, RawCopyChecksItsRange) {
  const uint8_t host[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  HostArray array;
  array.data = host;
  array.type = PJRT_Buffer_Type_U8;
  array.dims = {10};
  PJRT_Buffer* buffer = MustFromHost(array);
  ASSERT_NE(buffer, nullptr);
  uint8_t out[4] = {};
  ASSERT_TRUE(RawToHost(buffer, out, 6, 4).ok());
  EXPECT_EQ(std::vector<uint8_t>(out, out + 4), (std::vector<uint8_t>{6, 7, 8, 9}));
  for (auto [offset, size] : {std::pair<int64_t, int64_t>{7, 4}, {-1, 2}, {0, 11}, {3, -1}}) {
    Result result = RawToHost(buffer, out, offset, size);
    EXPECT_EQ(result.code, PJRT_Error_Code_INVALID_ARGUMENT)
        << offset << "+" << size << ": " << result;
  }
  DestroyBuffer(buffer);
}

void CountDeletes(void* device_buffer_ptr, void* user_arg) {
  (void)device_buffer_ptr;
  static_cast<std::atomic<int>*>(user_arg)->fetch_add(1);
}

TEST_F(CpuRuntimeTest, ViewOfDeviceBufferCallsOnDeleteOnce) {
  alignas(64) int32_t memory[6] = {10, 20, 30, 40, 50, 60};
  std::atomic<int> deletes{0};
  const int64_t dims[2] = {2, 3};
  auto make_view = [&](PJRT_Buffer** out) {
    PJRT_ARGS(PJRT_Client_CreateViewOfDeviceBuffer_Args, args);
    args.client = client_;
    args.device_buffer_ptr = memory;
    args.dims = dims;
    args.num_dims = 2;
    args.element_type = PJRT_Buffer_Type_S32;
    args.device = devices_[2];
    args.on_delete_callback = &CountDeletes;
    args.on_delete_callback_arg = &deletes;
    Result result = Take(api_, api_->PJRT_Client_CreateViewOfDeviceBuffer(&args));
    *out = args.buffer;
    return result;
  };
  PJRT_Buffer* view = nullptr;
  ASSERT_TRUE(make_view(&view).ok());
  EXPECT_EQ(BufferDevice(view), devices_[2]);
  uintptr_t pointer = 0;
  ASSERT_TRUE(UnsafePointer(view, &pointer).ok());
  EXPECT_EQ(pointer, reinterpret_cast<uintptr_t>(memory));
  memory[4] = 55;
  EXPECT_EQ(Read<int32_t>(view, 6), (std::vector<int32_t>{10, 20, 30, 40, 55, 60}));
  EXPECT_EQ(deletes.load(), 0);
  DeleteBuffer(view);
  EXPECT_EQ(deletes.load(), 1);
  DestroyBuffer(view);
  EXPECT_EQ(deletes.load(), 1);

  ASSERT_TRUE(make_view(&view).ok());
  DestroyBuffer(view);  // destroyed without Delete
  EXPECT_EQ(deletes.load(), 2);
}

TEST_F(CpuRuntimeTest, ConcurrentTransfersFromEightThreads) {
  constexpr int kThreads = 8;
  constexpr int kRounds = 40;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const PJRT_HostBufferSemantics semantics[] = {
          PJRT_HostBufferSemantics_kImmutableOnlyDuringCall,
          PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes,
          PJRT_HostBufferSemantics_kImmutableZeroCopy,
      };
      std::vector<int32_t> host(4096 * 8);  // 128 KiB: large enough for the worker queue
      for (int round = 0; round < kRounds; ++round) {
        for (size_t i = 0; i < host.size(); ++i) host[i] = t * 100000 + round * 1000 + int(i % 997);
        HostArray array;
        array.data = host.data();
        array.type = PJRT_Buffer_Type_S32;
        array.dims = {static_cast<int64_t>(host.size())};
        array.semantics = semantics[round % 3];
        array.device = devices_[(t + round) % 4];
        PJRT_Buffer* buffer = nullptr;
        PJRT_Event* done = nullptr;
        if (!FromHost(array, &buffer, &done).ok()) {
          ++failures;
          continue;
        }
        std::vector<int32_t> back(host.size());
        if (!ToHost(buffer, back.data(), back.size() * sizeof(int32_t)).ok() || back != host) {
          ++failures;
        }
        DestroyBuffer(buffer);
        if (!Await(done).ok()) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  for (PJRT_Device* device : devices_) EXPECT_EQ(Stats(device).bytes_in_use, 0);
}

}  // namespace
