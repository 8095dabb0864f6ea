// The SDK's PJRT_Api table over an in-test fake backend: slot coverage,
// argument checks, the struct-size rule, events, errors, and the main
// client/device/buffer/executable paths.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "pjrt_c_api.h"
#include "sdk/plugin.h"
#include "testutil/capi_helpers.h"
#include "testutil/status_matchers.h"

namespace {

using plugrt::InvalidArgument;
using plugrt::OkStatus;
using plugrt::Status;
using plugrt::StatusOr;
using plugrt::Unimplemented;
namespace sdk = plugrt::sdk;

// ----------------------------------------------------------- fake backend

class FakeDescription : public sdk::DeviceDescription {
 public:
  explicit FakeDescription(int id)
      : id_(id), debug_("fake:" + std::to_string(id)), str_("FakeDevice(" + std::to_string(id) + ")") {
    attributes_.push_back({"cores", int64_t{4}});
    attributes_.push_back({"vendor", std::string("plugrt-test")});
  }
  int id() const override { return id_; }
  int process_index() const override { return 0; }
  std::string_view kind() const override { return "fake"; }
  std::string_view debug_string() const override { return debug_; }
  std::string_view to_string() const override { return str_; }
  const sdk::Attributes& attributes() const override { return attributes_; }

 private:
  int id_;
  std::string debug_, str_;
  sdk::Attributes attributes_;
};

class FakeMemory : public sdk::Memory {
 public:
  FakeMemory(int id, sdk::Device* device) : id_(id), device_(device) {}
  int id() const override { return id_; }
  std::string_view kind() const override { return "device"; }
  int kind_id() const override { return 7; }
  std::string_view debug_string() const override { return "fake_memory"; }
  std::string_view to_string() const override { return "FakeMemory"; }
  std::vector<sdk::Device*> addressable_by_devices() const override { return {device_}; }

 private:
  int id_;
  sdk::Device* device_;
};

class FakeDevice : public sdk::Device {
 public:
  explicit FakeDevice(int id) : description_(id), memory_(id, this) {}
  const sdk::DeviceDescription& description() const override { return description_; }
  bool is_addressable() const override { return true; }
  int local_hardware_id() const override { return description_.id(); }
  std::vector<sdk::Memory*> memories() const override {
    return {const_cast<FakeMemory*>(&memory_)};
  }
  StatusOr<sdk::Memory*> default_memory() const override {
    return const_cast<FakeMemory*>(&memory_);
  }
  StatusOr<sdk::MemoryStats> memory_stats() const override {
    sdk::MemoryStats stats;
    stats.bytes_in_use = 123;
    stats.peak_bytes_in_use = 456;
    return stats;
  }
  FakeMemory* memory() { return &memory_; }

 private:
  FakeDescription description_;
  FakeMemory memory_;
};

// Dense row-major bytes in a vector.
class FakeBuffer : public sdk::Buffer {
 public:
  FakeBuffer(PJRT_Buffer_Type type, std::vector<int64_t> dims, std::vector<char> data,
             FakeDevice* device)
      : type_(type), dims_(std::move(dims)), data_(std::move(data)), device_(device) {}
  PJRT_Buffer_Type element_type() const override { return type_; }
  const std::vector<int64_t>& dimensions() const override { return dims_; }
  StatusOr<size_t> on_device_size() const override {
    if (deleted_) return plugrt::FailedPrecondition("buffer deleted");
    return data_.size();
  }
  sdk::Device* device() const override { return device_; }
  sdk::Memory* memory() const override { return device_->memory(); }
  void Delete() override {
    deleted_ = true;
    data_.clear();
  }
  bool is_deleted() const override { return deleted_; }
  bool is_on_cpu() const override { return true; }
  StatusOr<sdk::EventRef> ready_event() override { return sdk::Event::MakeReady(); }
  StatusOr<std::unique_ptr<sdk::Buffer>> CopyToDevice(sdk::Device* device) override {
    if (deleted_) return plugrt::FailedPrecondition("buffer deleted");
    return std::unique_ptr<sdk::Buffer>(
        new FakeBuffer(type_, dims_, data_, static_cast<FakeDevice*>(device)));
  }
  StatusOr<std::unique_ptr<sdk::Buffer>> CopyToMemory(sdk::Memory* memory) override {
    return CopyToDevice(memory->addressable_by_devices()[0]);
  }
  StatusOr<size_t> HostSize(const sdk::Layout* layout) const override {
    if (layout != nullptr && !layout->IsRowMajor()) return Unimplemented("fake: row-major only");
    return static_cast<size_t>(sdk::DenseByteSize(type_, dims_));
  }
  StatusOr<sdk::EventRef> ToHost(void* dst, size_t dst_size, const sdk::Layout*) override {
    if (deleted_) return plugrt::FailedPrecondition("fake: buffer deleted");
    if (dst_size < data_.size()) return InvalidArgument("fake: too small");
    std::memcpy(dst, data_.data(), data_.size());
    return sdk::Event::MakeReady();
  }
  const std::vector<char>& data() const { return data_; }

 private:
  PJRT_Buffer_Type type_;
  std::vector<int64_t> dims_;
  std::vector<char> data_;
  FakeDevice* device_;
  bool deleted_ = false;
};

class FakeTopology : public sdk::TopologyDescription {
 public:
  explicit FakeTopology(std::vector<const sdk::DeviceDescription*> d) : descriptions_(std::move(d)) {}
  std::string_view platform_name() const override { return "fake"; }
  std::string_view platform_version() const override { return "fake 1.0"; }
  std::vector<const sdk::DeviceDescription*> device_descriptions() const override {
    return descriptions_;
  }
  const sdk::Attributes& attributes() const override { return attributes_; }

 private:
  std::vector<const sdk::DeviceDescription*> descriptions_;
  sdk::Attributes attributes_ = {{"slices", int64_t{1}}};
};

// "Program" that returns its first argument unchanged.
class FakeExecutable : public sdk::Executable {
 public:
  std::string_view name() const override { return "identity"; }
  int64_t num_replicas() const override { return 1; }
  int64_t num_partitions() const override { return 1; }
  size_t num_outputs() const override { return 1; }
  StatusOr<std::vector<PJRT_Buffer_Type>> output_element_types() const override {
    return std::vector<PJRT_Buffer_Type>{PJRT_Buffer_Type_F32};
  }
  StatusOr<std::vector<std::vector<int64_t>>> output_dimensions() const override {
    return std::vector<std::vector<int64_t>>{{2, 3}};
  }
};

class FakeLoaded : public sdk::LoadedExecutable {
 public:
  explicit FakeLoaded(FakeDevice* device)
      : device_(device), executable_(std::make_shared<FakeExecutable>()) {}
  std::shared_ptr<sdk::Executable> executable() const override { return executable_; }
  std::vector<sdk::Device*> addressable_devices() const override { return {device_}; }
  void Delete() override { deleted_ = true; }
  bool is_deleted() const override { return deleted_; }
  StatusOr<sdk::ExecuteResult> Execute(const std::vector<std::vector<sdk::Buffer*>>& lists,
                                       sdk::Device*, const sdk::ExecuteOptions&) override {
    sdk::ExecuteResult result;
    for (const auto& list : lists) {
      if (list.size() != 1) return InvalidArgument("fake: identity takes 1 argument");
      auto* in = static_cast<FakeBuffer*>(list[0]);
      std::vector<std::unique_ptr<sdk::Buffer>> outputs;
      outputs.push_back(std::make_unique<FakeBuffer>(in->element_type(), in->dimensions(),
                                                     in->data(), device_));
      result.outputs.push_back(std::move(outputs));
      result.device_complete_events.push_back(sdk::Event::MakeReady());
    }
    return result;
  }

 private:
  FakeDevice* device_;
  std::shared_ptr<sdk::Executable> executable_;
  bool deleted_ = false;
};

class FakeClient : public sdk::Client {
 public:
  FakeClient() {
    for (int i = 0; i < 2; ++i) owned_.push_back(std::make_unique<FakeDevice>(i));
    for (auto& d : owned_) {
      devices_.push_back(d.get());
      memories_.push_back(d->memory());
    }
    topology_ = std::make_unique<FakeTopology>(std::vector<const sdk::DeviceDescription*>{
        &owned_[0]->description(), &owned_[1]->description()});
  }
  std::string_view platform_name() const override { return "fake"; }
  std::string_view platform_version() const override { return "fake 1.0"; }
  int process_index() const override { return 0; }
  const std::vector<sdk::Device*>& devices() const override { return devices_; }
  const std::vector<sdk::Device*>& addressable_devices() const override { return devices_; }
  const std::vector<sdk::Memory*>& addressable_memories() const override { return memories_; }
  StatusOr<sdk::Device*> LookupDevice(int id) const override {
    if (id == -42) throw std::runtime_error("fake backend exploded");
    if (id < 0 || id >= 2) return plugrt::NotFound("no device ", id);
    return devices_[id];
  }
  StatusOr<sdk::Device*> LookupAddressableDevice(int id) const override { return LookupDevice(id); }
  StatusOr<std::vector<int>> DefaultDeviceAssignment(int r, int p) const override {
    if (r * p > 2) return InvalidArgument("fake: only 2 devices");
    std::vector<int> ids;
    for (int i = 0; i < r * p; ++i) ids.push_back(i);
    return ids;
  }
  StatusOr<const sdk::TopologyDescription*> topology() const override { return topology_.get(); }
  StatusOr<sdk::HostBufferResult> BufferFromHostBuffer(const sdk::HostBufferArgs& args) override {
    if (args.byte_strides) return Unimplemented("fake: no strides");
    last_args_device = args.device;
    last_args_memory = args.memory;
    FakeDevice* device = static_cast<FakeDevice*>(
        args.device ? args.device : args.memory->addressable_by_devices()[0]);
    const int64_t size = sdk::DenseByteSize(args.type, args.dims);
    const char* p = static_cast<const char*>(args.data);
    sdk::HostBufferResult result;
    result.buffer = std::make_unique<FakeBuffer>(args.type, args.dims,
                                                 std::vector<char>(p, p + size), device);
    result.done_with_host_buffer = sdk::Event::MakeReady();
    return result;
  }
  StatusOr<std::unique_ptr<sdk::Buffer>> CreateViewOfDeviceBuffer(const sdk::ViewArgs& args) override {
    last_args_device = args.device;
    last_args_memory = args.memory;
    if (args.on_delete) args.on_delete();  // the fake view owns nothing: done at once
    return std::unique_ptr<sdk::Buffer>(new FakeBuffer(
        args.type, args.dims, {}, static_cast<FakeDevice*>(args.device ? args.device : devices_[0])));
  }
  StatusOr<std::unique_ptr<sdk::LoadedExecutable>> Compile(const sdk::Program& program,
                                                           std::string_view) override {
    if (program.format != "fake") return InvalidArgument("fake: unknown format ", program.format);
    return std::unique_ptr<sdk::LoadedExecutable>(new FakeLoaded(owned_[0].get()));
  }

  sdk::Device* last_args_device = nullptr;
  sdk::Memory* last_args_memory = nullptr;

 private:
  std::vector<std::unique_ptr<FakeDevice>> owned_;
  std::vector<sdk::Device*> devices_;
  std::vector<sdk::Memory*> memories_;
  std::unique_ptr<FakeTopology> topology_;
};

int g_initialize_calls = 0;
std::shared_ptr<sdk::KeyValueStore> g_last_kv_store;
FakeClient* g_last_client = nullptr;

class FakePlugin : public sdk::Plugin {
 public:
  Status Initialize() override {
    ++g_initialize_calls;
    return OkStatus();
  }
  const sdk::Attributes& attributes() const override { return attributes_; }
  StatusOr<std::unique_ptr<sdk::Client>> CreateClient(const sdk::ClientOptions& options) override {
    g_last_kv_store = options.kv_store;
    if (plugrt::FindNamedValue(options.create_options, "fail") != nullptr) {
      return InvalidArgument("fake: asked to fail");
    }
    auto client = std::make_unique<FakeClient>();
    g_last_client = client.get();
    return std::unique_ptr<sdk::Client>(std::move(client));
  }

 private:
  sdk::Attributes attributes_ = {{"fake_version", int64_t{3}},
                                 {"dims", std::vector<int64_t>{1, 2}}};
};

// ------------------------------------------------------------- helpers

const PJRT_Api* Api() {
  static const PJRT_Api* api = sdk::BuildApi(std::make_unique<FakePlugin>());
  return api;
}

template <typename T>
T Make(size_t struct_size) {
  return plugrt::testing::MakeCStruct<T>(struct_size);
}
#define ARGS(fn) PLUGRT_C_ARGS(fn)
using ErrorInfo = plugrt::testing::CErrorInfo;
ErrorInfo Take(PJRT_Error* error) { return plugrt::testing::TakeCError(Api(), error); }

void ExpectError(PJRT_Error* error, PJRT_Error_Code code, const std::string& part1,
                 const std::string& part2 = "") {
  plugrt::testing::ExpectCError(Api(), error, code, part1, part2);
}

class SdkApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(Api(), nullptr);
    auto create = ARGS(PJRT_Client_Create);
    ASSERT_PJRT_OK(Api(), Api()->PJRT_Client_Create(&create));
    client_ = create.client;
    fake_ = g_last_client;
    auto devices = ARGS(PJRT_Client_AddressableDevices);
    devices.client = client_;
    ASSERT_PJRT_OK(Api(), Api()->PJRT_Client_AddressableDevices(&devices));
    devices_.assign(devices.addressable_devices,
                    devices.addressable_devices + devices.num_addressable_devices);
    ASSERT_EQ(devices_.size(), 2u);
  }
  void TearDown() override {
    auto destroy = ARGS(PJRT_Client_Destroy);
    destroy.client = client_;
    EXPECT_PJRT_OK(Api(), Api()->PJRT_Client_Destroy(&destroy));
  }

  PJRT_Buffer* MakeBuffer(const std::vector<float>& values, std::vector<int64_t> dims,
                          PJRT_Device* device = nullptr) {
    auto args = ARGS(PJRT_Client_BufferFromHostBuffer);
    args.client = client_;
    args.data = values.data();
    args.type = PJRT_Buffer_Type_F32;
    args.dims = dims.data();
    args.num_dims = dims.size();
    args.device = device;
    ErrorInfo info = Take(Api()->PJRT_Client_BufferFromHostBuffer(&args));
    EXPECT_TRUE(info.ok) << info.message;
    DestroyEvent(args.done_with_host_buffer);
    return args.buffer;
  }
  void DestroyBuffer(PJRT_Buffer* buffer) {
    auto args = ARGS(PJRT_Buffer_Destroy);
    args.buffer = buffer;
    EXPECT_PJRT_OK(Api(), Api()->PJRT_Buffer_Destroy(&args));
  }
  void DestroyEvent(PJRT_Event* event) {
    auto args = ARGS(PJRT_Event_Destroy);
    args.event = event;
    EXPECT_PJRT_OK(Api(), Api()->PJRT_Event_Destroy(&args));
  }
  std::vector<float> ReadBack(PJRT_Buffer* buffer) {
    auto args = ARGS(PJRT_Buffer_ToHostBuffer);
    args.src = buffer;
    EXPECT_PJRT_OK(Api(), Api()->PJRT_Buffer_ToHostBuffer(&args));
    std::vector<float> out(args.dst_size / sizeof(float));
    args.dst = out.data();
    EXPECT_PJRT_OK(Api(), Api()->PJRT_Buffer_ToHostBuffer(&args));
    auto await = ARGS(PJRT_Event_Await);
    await.event = args.event;
    EXPECT_PJRT_OK(Api(), Api()->PJRT_Event_Await(&await));
    DestroyEvent(args.event);
    return out;
  }

  PJRT_Client* client_ = nullptr;
  FakeClient* fake_ = nullptr;
  std::vector<PJRT_Device*> devices_;
};

// ------------------------------------------------------------- the table

TEST(SdkApiTableTest, HeaderAndEverySlotFilled) {
  const PJRT_Api* api = Api();
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->struct_size, PJRT_Api_STRUCT_SIZE);
  EXPECT_EQ(api->extension_start, nullptr);
  EXPECT_EQ(api->pjrt_api_version.major_version, PJRT_API_MAJOR);
  EXPECT_EQ(api->pjrt_api_version.minor_version, PJRT_API_MINOR);
  EXPECT_EQ(api->pjrt_api_version.struct_size, PJRT_Api_Version_STRUCT_SIZE);
  const size_t first = offsetof(PJRT_Api, PJRT_Error_Destroy);
  const size_t count = (PJRT_Api_STRUCT_SIZE - first) / sizeof(void*);
  EXPECT_EQ(count, 129u);
  for (size_t i = 0; i < count; ++i) {
    void* slot;
    std::memcpy(&slot, reinterpret_cast<const char*>(api) + first + i * sizeof(void*), sizeof(slot));
    EXPECT_NE(slot, nullptr) << "slot " << i << " is empty";
  }
}

TEST(SdkApiTableTest, BuildApiKeepsTheFirstTable) {
  const PJRT_Api* first = Api();
  EXPECT_EQ(sdk::BuildApi(std::make_unique<FakePlugin>()), first);
}

TEST(SdkApiTableTest, PluginInitializeRunsOnce) {
  auto args = ARGS(PJRT_Plugin_Initialize);
  EXPECT_PJRT_OK(Api(), Api()->PJRT_Plugin_Initialize(&args));
  EXPECT_PJRT_OK(Api(), Api()->PJRT_Plugin_Initialize(&args));
  EXPECT_EQ(g_initialize_calls, 1);
}

TEST(SdkApiTableTest, PluginAttributes) {
  auto args = ARGS(PJRT_Plugin_Attributes);
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Plugin_Attributes(&args));
  ASSERT_EQ(args.num_attributes, 2u);
  EXPECT_EQ(std::string(args.attributes[0].name, args.attributes[0].name_size), "fake_version");
  EXPECT_EQ(args.attributes[0].type, PJRT_NamedValue_kInt64);
  EXPECT_EQ(args.attributes[0].int64_value, 3);
  EXPECT_EQ(args.attributes[1].type, PJRT_NamedValue_kInt64List);
  ASSERT_EQ(args.attributes[1].value_size, 2u);
  EXPECT_EQ(args.attributes[1].int64_array_value[1], 2);
  // Same array every time: process lifetime.
  auto again = ARGS(PJRT_Plugin_Attributes);
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Plugin_Attributes(&again));
  EXPECT_EQ(again.attributes, args.attributes);
}

TEST(SdkApiTableTest, UnimplementedSlotsNameTheFunction) {
  auto a1 = ARGS(PJRT_Client_CreateUninitializedBuffer);
  ExpectError(Api()->PJRT_Client_CreateUninitializedBuffer(&a1), PJRT_Error_Code_UNIMPLEMENTED,
              "PJRT_Client_CreateUninitializedBuffer is not implemented by this plugin");
  auto a2 = ARGS(PJRT_Client_DmaMap);
  ExpectError(Api()->PJRT_Client_DmaMap(&a2), PJRT_Error_Code_UNIMPLEMENTED, "PJRT_Client_DmaMap");
  // Execute contexts are the SDK's own (user data for XLA FFI handlers).
  auto a3 = ARGS(PJRT_ExecuteContext_Create);
  ASSERT_PJRT_OK(Api(), Api()->PJRT_ExecuteContext_Create(&a3));
  EXPECT_NE(a3.context, nullptr);
  auto a3_destroy = ARGS(PJRT_ExecuteContext_Destroy);
  a3_destroy.context = a3.context;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_ExecuteContext_Destroy(&a3_destroy));
  // Streams are implemented by the SDK itself: a null one is a bad argument.
  auto a4 = ARGS(PJRT_CopyToDeviceStream_TotalBytes);
  ExpectError(Api()->PJRT_CopyToDeviceStream_TotalBytes(&a4), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_CopyToDeviceStream_TotalBytes: stream is null");
  auto a5 = ARGS(PJRT_TopologyDescription_Deserialize);
  ExpectError(Api()->PJRT_TopologyDescription_Deserialize(&a5), PJRT_Error_Code_UNIMPLEMENTED,
              "PJRT_TopologyDescription_Deserialize");
  auto a6 = ARGS(PJRT_AsyncHostToDeviceTransferManager_TransferData);
  ExpectError(Api()->PJRT_AsyncHostToDeviceTransferManager_TransferData(&a6),
              PJRT_Error_Code_UNIMPLEMENTED, "PJRT_AsyncHostToDeviceTransferManager_TransferData");
}

TEST(SdkApiTableTest, NullArgsAreInvalidArgument) {
  ExpectError(Api()->PJRT_Client_Create(nullptr), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Client_Create", "args is null");
  ExpectError(Api()->PJRT_Buffer_ToHostBuffer(nullptr), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Buffer_ToHostBuffer");
  ExpectError(Api()->PJRT_LoadedExecutable_Execute(nullptr), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_LoadedExecutable_Execute");
  ExpectError(Api()->PJRT_Event_OnReady(nullptr), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Event_OnReady");
  ExpectError(Api()->PJRT_Client_DmaMap(nullptr), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Client_DmaMap");
  // The void entries must simply survive.
  Api()->PJRT_Error_Destroy(nullptr);
  Api()->PJRT_Error_Message(nullptr);
}

TEST(SdkApiTableTest, NullHandlesAreInvalidArgument) {
  auto name = ARGS(PJRT_Client_PlatformName);
  ExpectError(Api()->PJRT_Client_PlatformName(&name), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Client_PlatformName: client is null");
  auto dims = ARGS(PJRT_Buffer_Dimensions);
  ExpectError(Api()->PJRT_Buffer_Dimensions(&dims), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Buffer_Dimensions: buffer is null");
  auto host = ARGS(PJRT_Buffer_ToHostBuffer);
  ExpectError(Api()->PJRT_Buffer_ToHostBuffer(&host), PJRT_Error_Code_INVALID_ARGUMENT,
              "src is null");
  auto id = ARGS(PJRT_DeviceDescription_Id);
  ExpectError(Api()->PJRT_DeviceDescription_Id(&id), PJRT_Error_Code_INVALID_ARGUMENT,
              "device_description is null");
  auto kind = ARGS(PJRT_Memory_Kind);
  ExpectError(Api()->PJRT_Memory_Kind(&kind), PJRT_Error_Code_INVALID_ARGUMENT, "memory is null");
  auto exec = ARGS(PJRT_LoadedExecutable_Execute);
  ExpectError(Api()->PJRT_LoadedExecutable_Execute(&exec), PJRT_Error_Code_INVALID_ARGUMENT,
              "executable is null");
  auto ready = ARGS(PJRT_Event_IsReady);
  ExpectError(Api()->PJRT_Event_IsReady(&ready), PJRT_Error_Code_INVALID_ARGUMENT, "event is null");
  auto code = ARGS(PJRT_Error_GetCode);
  ExpectError(Api()->PJRT_Error_GetCode(&code), PJRT_Error_Code_INVALID_ARGUMENT, "error is null");
}

TEST(SdkApiTableTest, StructSizeTooSmallNamesTheStruct) {
  auto args = Make<PJRT_Client_Create_Args>(16);
  ExpectError(Api()->PJRT_Client_Create(&args), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Client_Create_Args.struct_size is 16, smaller than the 72 bytes of its "
              "original fields");
  auto name = Make<PJRT_Client_PlatformName_Args>(PJRT_Client_PlatformName_Args_STRUCT_SIZE - 8);
  ExpectError(Api()->PJRT_Client_PlatformName(&name), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Client_PlatformName_Args.struct_size is " +
                  std::to_string(PJRT_Client_PlatformName_Args_STRUCT_SIZE - 8));
}

TEST(SdkApiTableTest, ErrorRoundTrip) {
  auto lookup = ARGS(PJRT_Client_Create);
  PJRT_NamedValue option = Make<PJRT_NamedValue>(PJRT_NamedValue_STRUCT_SIZE);
  option.name = "fail";
  option.name_size = 4;
  option.type = PJRT_NamedValue_kBool;
  option.bool_value = true;
  option.value_size = 1;
  lookup.create_options = &option;
  lookup.num_options = 1;
  PJRT_Error* error = Api()->PJRT_Client_Create(&lookup);
  ASSERT_NE(error, nullptr);
  auto code = ARGS(PJRT_Error_GetCode);
  code.error = error;
  EXPECT_EQ(Api()->PJRT_Error_GetCode(&code), nullptr);
  EXPECT_EQ(code.code, PJRT_Error_Code_INVALID_ARGUMENT);
  auto message = ARGS(PJRT_Error_Message);
  message.error = error;
  Api()->PJRT_Error_Message(&message);
  EXPECT_EQ(std::string(message.message, message.message_size), "fake: asked to fail");
  auto destroy = ARGS(PJRT_Error_Destroy);
  destroy.error = error;
  Api()->PJRT_Error_Destroy(&destroy);
  destroy.error = nullptr;
  Api()->PJRT_Error_Destroy(&destroy);  // null error is fine
}

TEST(SdkApiTableTest, BadNamedValueIsRejected) {
  auto create = ARGS(PJRT_Client_Create);
  PJRT_NamedValue option = Make<PJRT_NamedValue>(8);  // too small
  create.create_options = &option;
  create.num_options = 1;
  ExpectError(Api()->PJRT_Client_Create(&create), PJRT_Error_Code_INVALID_ARGUMENT,
              "create_options[0]", "PJRT_NamedValue.struct_size is 8");
  option.struct_size = PJRT_NamedValue_STRUCT_SIZE;
  option.name = "x";
  option.name_size = 1;
  option.type = PJRT_NamedValue_kString;
  option.string_value = nullptr;
  option.value_size = 3;
  ExpectError(Api()->PJRT_Client_Create(&create), PJRT_Error_Code_INVALID_ARGUMENT,
              "create_options[0].string_value is null");
}

// ---------------------------------------------------- struct-size compatibility

TEST_F(SdkApiTest, NewerLargerStructIsServed) {
  struct Newer {
    PJRT_Client_PlatformName_Args args;
    unsigned char future[64];
  } newer;
  std::memset(&newer, 0xAB, sizeof(newer));
  newer.args.struct_size = sizeof(newer);
  newer.args.extension_start = nullptr;
  newer.args.client = client_;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Client_PlatformName(&newer.args));
  EXPECT_EQ(std::string(newer.args.platform_name, newer.args.platform_name_size), "fake");
  for (unsigned char byte : newer.future) ASSERT_EQ(byte, 0xAB);
}

struct KvFake {
  std::map<std::string, std::string> values;
  int gets = 0;
};

PJRT_Error* KvGet(PJRT_KeyValueGetCallback_Args* args) {
  auto* kv = static_cast<KvFake*>(args->user_arg);
  ++kv->gets;
  auto it = kv->values.find(std::string(args->key, args->key_size));
  if (it == kv->values.end()) {
    const char msg[] = "no such key";
    return (*args->callback_error)(PJRT_Error_Code_NOT_FOUND, msg, sizeof(msg) - 1);
  }
  char* copy = new char[it->second.size()];
  std::memcpy(copy, it->second.data(), it->second.size());
  args->value = copy;
  args->value_size = it->second.size();
  args->value_deleter_callback = [](char* p) { delete[] p; };
  return nullptr;
}

PJRT_Error* KvPut(PJRT_KeyValuePutCallback_Args* args) {
  auto* kv = static_cast<KvFake*>(args->user_arg);
  kv->values[std::string(args->key, args->key_size)] = std::string(args->value, args->value_size);
  return nullptr;
}

TEST(SdkApiCompatTest, OlderClientCreateIgnoresAndKeepsBytesPastItsEnd) {
  KvFake kv;
  auto args = Make<PJRT_Client_Create_Args>(offsetof(PJRT_Client_Create_Args, kv_try_get_callback));
  args.kv_get_callback = KvGet;
  args.kv_get_user_arg = &kv;
  args.kv_put_callback = KvPut;
  args.kv_put_user_arg = &kv;
  // An older caller's memory past its struct: garbage that must be neither
  // read (it would be called) nor written.
  std::memset(static_cast<void*>(&args.kv_try_get_callback), 0xCD,
              sizeof(args) - offsetof(PJRT_Client_Create_Args, kv_try_get_callback));
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Client_Create(&args));
  ASSERT_NE(args.client, nullptr);
  const unsigned char* tail = reinterpret_cast<const unsigned char*>(&args.kv_try_get_callback);
  for (size_t i = 0; i < sizeof(args) - offsetof(PJRT_Client_Create_Args, kv_try_get_callback); ++i) {
    ASSERT_EQ(tail[i], 0xCD) << "byte " << i << " past the declared size was written";
  }
  // The store works through the caller's callbacks; the absent try-get is
  // UNIMPLEMENTED instead of a call through garbage.
  ASSERT_NE(g_last_kv_store, nullptr);
  EXPECT_TRUE(g_last_kv_store->Put("k", "v").ok());
  StatusOr<std::string> value = g_last_kv_store->Get("k", 100);
  ASSERT_TRUE(value.ok()) << value.status().ToString();
  EXPECT_EQ(*value, "v");
  EXPECT_EQ(g_last_kv_store->Get("missing", 100).status().code(), plugrt::StatusCode::kNotFound);
  EXPECT_EQ(g_last_kv_store->TryGet("k").status().code(), plugrt::StatusCode::kUnimplemented);
  g_last_kv_store.reset();
  auto destroy = ARGS(PJRT_Client_Destroy);
  destroy.client = args.client;
  EXPECT_PJRT_OK(Api(), Api()->PJRT_Client_Destroy(&destroy));
}

TEST(SdkApiCompatTest, NoKeyValueCallbacksMeansNoStore) {
  auto args = ARGS(PJRT_Client_Create);
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Client_Create(&args));
  EXPECT_EQ(g_last_kv_store, nullptr);
  auto destroy = ARGS(PJRT_Client_Destroy);
  destroy.client = args.client;
  EXPECT_PJRT_OK(Api(), Api()->PJRT_Client_Destroy(&destroy));
}

TEST_F(SdkApiTest, OlderViewOfDeviceBufferIgnoresGarbageMemory) {
  auto args = Make<PJRT_Client_CreateViewOfDeviceBuffer_Args>(
      offsetof(PJRT_Client_CreateViewOfDeviceBuffer_Args, memory));
  float storage[4] = {};
  int64_t dims[] = {4};
  args.client = client_;
  args.device_buffer_ptr = storage;
  args.dims = dims;
  args.num_dims = 1;
  args.element_type = PJRT_Buffer_Type_F32;
  args.device = devices_[1];
  int deleted = 0;
  args.on_delete_callback = [](void* ptr, void* user_arg) {
    EXPECT_NE(ptr, nullptr);
    ++*static_cast<int*>(user_arg);
  };
  args.on_delete_callback_arg = &deleted;
  std::memset(static_cast<void*>(&args.memory), 0xEE, sizeof(args.memory));
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Client_CreateViewOfDeviceBuffer(&args));
  EXPECT_EQ(fake_->last_args_memory, nullptr);
  EXPECT_EQ(fake_->last_args_device, devices_[1] == nullptr ? nullptr : fake_->devices()[1]);
  EXPECT_EQ(deleted, 1);
  unsigned char garbage[sizeof(args.memory)];
  std::memcpy(garbage, &args.memory, sizeof(garbage));
  for (unsigned char byte : garbage) EXPECT_EQ(byte, 0xEE);
  DestroyBuffer(args.buffer);
}

// memory and device_layout sit before the outputs in BufferFromHostBuffer_Args,
// so an older (smaller) struct cannot be served by size: it is rejected.
TEST_F(SdkApiTest, BufferFromHostBufferNeedsItsFullSize) {
  std::vector<float> values = {1, 2};
  int64_t dims[] = {2};
  auto args = Make<PJRT_Client_BufferFromHostBuffer_Args>(
      offsetof(PJRT_Client_BufferFromHostBuffer_Args, memory));
  args.client = client_;
  args.data = values.data();
  args.type = PJRT_Buffer_Type_F32;
  args.dims = dims;
  args.num_dims = 1;
  std::memset(static_cast<void*>(&args.memory), 0x77,
              sizeof(args) - offsetof(PJRT_Client_BufferFromHostBuffer_Args, memory));
  ExpectError(Api()->PJRT_Client_BufferFromHostBuffer(&args), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Client_BufferFromHostBuffer_Args.struct_size is");
  const unsigned char* tail = reinterpret_cast<const unsigned char*>(&args.memory);
  for (size_t i = 0; i < sizeof(args) - offsetof(PJRT_Client_BufferFromHostBuffer_Args, memory); ++i) {
    ASSERT_EQ(tail[i], 0x77) << "output written past the declared size";
  }
}

// -------------------------------------------------------------------- events

struct Fired {
  int count = 0;
  bool had_error = false;
  PJRT_Error_Code code = PJRT_Error_Code_OK;
  std::string message;
};

void OnReadyCallback(PJRT_Error* error, void* user_arg) {
  auto* fired = static_cast<Fired*>(user_arg);
  ++fired->count;
  fired->had_error = error != nullptr;
  if (error != nullptr) {
    ErrorInfo info = Take(error);
    fired->code = info.code;
    fired->message = info.message;
  }
}

PJRT_Event* CreateEvent() {
  auto args = ARGS(PJRT_Event_Create);
  EXPECT_EQ(Api()->PJRT_Event_Create(&args), nullptr);
  return args.event;
}

void Register(PJRT_Event* event, Fired* fired) {
  auto args = ARGS(PJRT_Event_OnReady);
  args.event = event;
  args.callback = OnReadyCallback;
  args.user_arg = fired;
  EXPECT_PJRT_OK(Api(), Api()->PJRT_Event_OnReady(&args));
}

PJRT_Error* SetEvent(PJRT_Event* event, PJRT_Error_Code code, const std::string& message) {
  auto args = ARGS(PJRT_Event_Set);
  args.event = event;
  args.error_code = code;
  args.error_message = message.c_str();
  args.error_message_size = message.size();
  return Api()->PJRT_Event_Set(&args);
}

void Destroy(PJRT_Event* event) {
  auto args = ARGS(PJRT_Event_Destroy);
  args.event = event;
  EXPECT_PJRT_OK(Api(), Api()->PJRT_Event_Destroy(&args));
}

TEST(SdkEventTest, OnReadyBeforeAndAfterCompletionFiresOnce) {
  PJRT_Event* event = CreateEvent();
  Fired before, after;
  Register(event, &before);
  EXPECT_EQ(before.count, 0);
  auto ready = ARGS(PJRT_Event_IsReady);
  ready.event = event;
  EXPECT_PJRT_OK(Api(), Api()->PJRT_Event_IsReady(&ready));
  EXPECT_FALSE(ready.is_ready);
  auto error = ARGS(PJRT_Event_Error);
  error.event = event;
  ExpectError(Api()->PJRT_Event_Error(&error), PJRT_Error_Code_FAILED_PRECONDITION, "not ready");

  EXPECT_PJRT_OK(Api(), SetEvent(event, PJRT_Error_Code_OK, ""));
  EXPECT_EQ(before.count, 1);
  EXPECT_FALSE(before.had_error);
  Register(event, &after);
  EXPECT_EQ(after.count, 1);
  EXPECT_FALSE(after.had_error);
  EXPECT_PJRT_OK(Api(), Api()->PJRT_Event_IsReady(&ready));
  EXPECT_TRUE(ready.is_ready);
  EXPECT_PJRT_OK(Api(), Api()->PJRT_Event_Error(&error));

  // A second Set is refused and fires nothing again.
  ExpectError(SetEvent(event, PJRT_Error_Code_INTERNAL, "late"), PJRT_Error_Code_FAILED_PRECONDITION,
              "already set");
  EXPECT_EQ(before.count, 1);
  EXPECT_EQ(after.count, 1);
  Destroy(event);
}

TEST(SdkEventTest, ErrorReachesCallbackAwaitAndError) {
  PJRT_Event* event = CreateEvent();
  Fired fired;
  Register(event, &fired);
  EXPECT_PJRT_OK(Api(), SetEvent(event, PJRT_Error_Code_DATA_LOSS, "disk gone"));
  EXPECT_EQ(fired.count, 1);
  EXPECT_TRUE(fired.had_error);
  EXPECT_EQ(fired.code, PJRT_Error_Code_DATA_LOSS);
  EXPECT_EQ(fired.message, "disk gone");
  auto await = ARGS(PJRT_Event_Await);
  await.event = event;
  ExpectError(Api()->PJRT_Event_Await(&await), PJRT_Error_Code_DATA_LOSS, "disk gone");
  auto error = ARGS(PJRT_Event_Error);
  error.event = event;
  ExpectError(Api()->PJRT_Event_Error(&error), PJRT_Error_Code_DATA_LOSS, "disk gone");
  Destroy(event);
}

TEST(SdkEventTest, BadSetArguments) {
  PJRT_Event* event = CreateEvent();
  auto args = ARGS(PJRT_Event_Set);
  args.event = event;
  const int bad_code = 99;  // stored as raw bits, as a C caller could
  std::memcpy(&args.error_code, &bad_code, sizeof(bad_code));
  ExpectError(Api()->PJRT_Event_Set(&args), PJRT_Error_Code_INVALID_ARGUMENT,
              "error_code has the unknown value 99");
  args.event = event;
  args.error_code = PJRT_Error_Code_INTERNAL;
  args.error_message = nullptr;
  args.error_message_size = 5;
  ExpectError(Api()->PJRT_Event_Set(&args), PJRT_Error_Code_INVALID_ARGUMENT, "error_message");
  auto on_ready = ARGS(PJRT_Event_OnReady);
  on_ready.event = event;
  ExpectError(Api()->PJRT_Event_OnReady(&on_ready), PJRT_Error_Code_INVALID_ARGUMENT,
              "callback is null");
  Destroy(event);
  Destroy(nullptr);  // allowed by the ABI
}

TEST_F(SdkApiTest, PluginEventsCannotBeSetByTheCaller) {
  PJRT_Buffer* buffer = MakeBuffer({1, 2}, {2});
  auto ready = ARGS(PJRT_Buffer_ReadyEvent);
  ready.buffer = buffer;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Buffer_ReadyEvent(&ready));
  ExpectError(SetEvent(ready.event, PJRT_Error_Code_OK, ""), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Event_Create");
  Destroy(ready.event);
  DestroyBuffer(buffer);
}

// ---------------------------------------------------------- backend failures

TEST_F(SdkApiTest, BackendExceptionBecomesInternal) {
  auto args = ARGS(PJRT_Client_LookupDevice);
  args.client = client_;
  args.id = -42;
  ExpectError(Api()->PJRT_Client_LookupDevice(&args), PJRT_Error_Code_INTERNAL,
              "PJRT_Client_LookupDevice", "fake backend exploded");
  args.id = 5;
  ExpectError(Api()->PJRT_Client_LookupDevice(&args), PJRT_Error_Code_NOT_FOUND, "no device 5");
  args.id = 1;
  EXPECT_PJRT_OK(Api(), Api()->PJRT_Client_LookupDevice(&args));
  EXPECT_EQ(args.device, devices_[1]);
}

// ------------------------------------------------------- client and devices

TEST_F(SdkApiTest, ClientQueries) {
  auto version = ARGS(PJRT_Client_PlatformVersion);
  version.client = client_;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Client_PlatformVersion(&version));
  EXPECT_EQ(std::string(version.platform_version, version.platform_version_size), "fake 1.0");
  auto memories = ARGS(PJRT_Client_AddressableMemories);
  memories.client = client_;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Client_AddressableMemories(&memories));
  EXPECT_EQ(memories.num_addressable_memories, 2u);

  auto assignment = ARGS(PJRT_Client_DefaultDeviceAssignment);
  int ids[2] = {-1, -1};
  assignment.client = client_;
  assignment.num_replicas = 2;
  assignment.num_partitions = 1;
  assignment.default_assignment = ids;
  assignment.default_assignment_size = 1;
  ExpectError(Api()->PJRT_Client_DefaultDeviceAssignment(&assignment),
              PJRT_Error_Code_INVALID_ARGUMENT, "default_assignment_size is 1");
  assignment.default_assignment_size = 2;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Client_DefaultDeviceAssignment(&assignment));
  EXPECT_EQ(ids[0], 0);
  EXPECT_EQ(ids[1], 1);
}

TEST_F(SdkApiTest, DeviceAndMemoryQueries) {
  PJRT_Device* device = devices_[1];
  auto description = ARGS(PJRT_Device_GetDescription);
  description.device = device;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Device_GetDescription(&description));
  auto id = ARGS(PJRT_DeviceDescription_Id);
  id.device_description = description.device_description;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_DeviceDescription_Id(&id));
  EXPECT_EQ(id.id, 1);
  auto attributes = ARGS(PJRT_DeviceDescription_Attributes);
  attributes.device_description = description.device_description;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_DeviceDescription_Attributes(&attributes));
  ASSERT_EQ(attributes.num_attributes, 2u);
  EXPECT_EQ(std::string(attributes.attributes[1].string_value, attributes.attributes[1].value_size),
            "plugrt-test");
  auto debug = ARGS(PJRT_DeviceDescription_DebugString);
  debug.device_description = description.device_description;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_DeviceDescription_DebugString(&debug));
  EXPECT_EQ(std::string(debug.debug_string, debug.debug_string_size), "fake:1");

  auto stats = ARGS(PJRT_Device_MemoryStats);
  stats.device = device;
  stats.num_allocs_is_set = true;  // must be cleared: the fake does not track it
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Device_MemoryStats(&stats));
  EXPECT_EQ(stats.bytes_in_use, 123);
  EXPECT_TRUE(stats.peak_bytes_in_use_is_set);
  EXPECT_EQ(stats.peak_bytes_in_use, 456);
  EXPECT_FALSE(stats.num_allocs_is_set);
  EXPECT_FALSE(stats.peak_pool_bytes_is_set);

  auto default_memory = ARGS(PJRT_Device_DefaultMemory);
  default_memory.device = device;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Device_DefaultMemory(&default_memory));
  auto memories = ARGS(PJRT_Device_AddressableMemories);
  memories.device = device;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Device_AddressableMemories(&memories));
  ASSERT_EQ(memories.num_memories, 1u);
  EXPECT_EQ(memories.memories[0], default_memory.memory);
  auto by_devices = ARGS(PJRT_Memory_AddressableByDevices);
  by_devices.memory = default_memory.memory;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Memory_AddressableByDevices(&by_devices));
  ASSERT_EQ(by_devices.num_devices, 1u);
  EXPECT_EQ(by_devices.devices[0], device);
  auto kind_id = ARGS(PJRT_Memory_Kind_Id);
  kind_id.memory = default_memory.memory;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Memory_Kind_Id(&kind_id));
  EXPECT_EQ(kind_id.kind_id, 7);

  auto get_attributes = ARGS(PJRT_Device_GetAttributes);
  get_attributes.device = device;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Device_GetAttributes(&get_attributes));
  ASSERT_EQ(get_attributes.num_attributes, 2u);
  EXPECT_EQ(get_attributes.attributes[0].int64_value, 4);
  ASSERT_NE(get_attributes.attributes_deleter, nullptr);
  get_attributes.attributes_deleter(get_attributes.device_attributes);
}

TEST_F(SdkApiTest, TopologyOwnedByClient) {
  auto topology = ARGS(PJRT_Client_TopologyDescription);
  topology.client = client_;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Client_TopologyDescription(&topology));
  auto descriptions = ARGS(PJRT_TopologyDescription_GetDeviceDescriptions);
  descriptions.topology = topology.topology;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_TopologyDescription_GetDeviceDescriptions(&descriptions));
  EXPECT_EQ(descriptions.num_descriptions, 2u);
  auto attributes = ARGS(PJRT_TopologyDescription_Attributes);
  attributes.topology = topology.topology;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_TopologyDescription_Attributes(&attributes));
  EXPECT_EQ(attributes.num_attributes, 1u);
  auto serialize = ARGS(PJRT_TopologyDescription_Serialize);
  serialize.topology = topology.topology;
  ExpectError(Api()->PJRT_TopologyDescription_Serialize(&serialize), PJRT_Error_Code_UNIMPLEMENTED,
              "PJRT_TopologyDescription_Serialize");
  auto destroy = ARGS(PJRT_TopologyDescription_Destroy);
  destroy.topology = topology.topology;
  ExpectError(Api()->PJRT_TopologyDescription_Destroy(&destroy), PJRT_Error_Code_INVALID_ARGUMENT,
              "belongs to its client");
  auto create = ARGS(PJRT_TopologyDescription_Create);
  ExpectError(Api()->PJRT_TopologyDescription_Create(&create), PJRT_Error_Code_UNIMPLEMENTED,
              "PJRT_TopologyDescription_Create");
}

// ------------------------------------------------------------------ buffers

TEST_F(SdkApiTest, BufferRoundTrip) {
  std::vector<float> values = {1, 2, 3, 4, 5, 6};
  PJRT_Buffer* buffer = MakeBuffer(values, {2, 3});
  ASSERT_NE(buffer, nullptr);
  // Both device and memory null: the first addressable device.
  auto device = ARGS(PJRT_Buffer_Device);
  device.buffer = buffer;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Buffer_Device(&device));
  EXPECT_EQ(device.device, devices_[0]);
  auto dims = ARGS(PJRT_Buffer_Dimensions);
  dims.buffer = buffer;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Buffer_Dimensions(&dims));
  ASSERT_EQ(dims.num_dims, 2u);
  EXPECT_EQ(dims.dims[1], 3);
  auto type = ARGS(PJRT_Buffer_ElementType);
  type.buffer = buffer;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Buffer_ElementType(&type));
  EXPECT_EQ(type.type, PJRT_Buffer_Type_F32);
  auto size = ARGS(PJRT_Buffer_OnDeviceSizeInBytes);
  size.buffer = buffer;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Buffer_OnDeviceSizeInBytes(&size));
  EXPECT_EQ(size.on_device_size_in_bytes, 24u);
  auto layout = ARGS(PJRT_Buffer_GetMemoryLayout);
  layout.buffer = buffer;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Buffer_GetMemoryLayout(&layout));
  EXPECT_EQ(layout.layout.type, PJRT_Buffer_MemoryLayout_Type_Tiled);
  ASSERT_EQ(layout.layout.tiled.minor_to_major_size, 2u);
  EXPECT_EQ(layout.layout.tiled.minor_to_major[0], 1);
  EXPECT_EQ(ReadBack(buffer), values);

  auto copy = ARGS(PJRT_Buffer_CopyToDevice);
  copy.buffer = buffer;
  copy.dst_device = devices_[1];
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Buffer_CopyToDevice(&copy));
  EXPECT_EQ(ReadBack(copy.dst_buffer), values);
  DestroyBuffer(copy.dst_buffer);
  DestroyBuffer(buffer);
}

TEST_F(SdkApiTest, ToHostBufferChecksDstSize) {
  PJRT_Buffer* buffer = MakeBuffer({1, 2, 3}, {3});
  auto args = ARGS(PJRT_Buffer_ToHostBuffer);
  args.src = buffer;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Buffer_ToHostBuffer(&args));
  EXPECT_EQ(args.dst_size, 12u);
  EXPECT_EQ(args.event, nullptr);
  float small[2];
  args.dst = small;
  args.dst_size = sizeof(small);
  ExpectError(Api()->PJRT_Buffer_ToHostBuffer(&args), PJRT_Error_Code_INVALID_ARGUMENT,
              "dst_size is 8 bytes", "needs 12 bytes");
  DestroyBuffer(buffer);
}

TEST_F(SdkApiTest, DeletedBufferGivesErrorsNotCrashes) {
  PJRT_Buffer* buffer = MakeBuffer({1, 2}, {2});
  auto del = ARGS(PJRT_Buffer_Delete);
  del.buffer = buffer;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Buffer_Delete(&del));
  auto is_deleted = ARGS(PJRT_Buffer_IsDeleted);
  is_deleted.buffer = buffer;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Buffer_IsDeleted(&is_deleted));
  EXPECT_TRUE(is_deleted.is_deleted);
  float out[2];
  auto to_host = ARGS(PJRT_Buffer_ToHostBuffer);
  to_host.src = buffer;
  to_host.dst = out;
  to_host.dst_size = sizeof(out);
  ExpectError(Api()->PJRT_Buffer_ToHostBuffer(&to_host), PJRT_Error_Code_FAILED_PRECONDITION,
              "deleted");
  auto copy = ARGS(PJRT_Buffer_CopyToDevice);
  copy.buffer = buffer;
  copy.dst_device = devices_[1];
  ExpectError(Api()->PJRT_Buffer_CopyToDevice(&copy), PJRT_Error_Code_FAILED_PRECONDITION,
              "deleted");
  DestroyBuffer(buffer);
}

TEST_F(SdkApiTest, BufferFromHostBufferArgumentChecks) {
  std::vector<float> values = {1, 2, 3, 4};
  int64_t dims[] = {2, 2};
  int64_t strides[] = {8};
  auto args = ARGS(PJRT_Client_BufferFromHostBuffer);
  args.client = client_;
  args.data = values.data();
  args.type = PJRT_Buffer_Type_F32;
  args.num_dims = 2;
  ExpectError(Api()->PJRT_Client_BufferFromHostBuffer(&args), PJRT_Error_Code_INVALID_ARGUMENT,
              "dims is null");
  args.dims = dims;
  args.byte_strides = strides;
  args.num_byte_strides = 1;
  ExpectError(Api()->PJRT_Client_BufferFromHostBuffer(&args), PJRT_Error_Code_INVALID_ARGUMENT,
              "num_byte_strides is 1 but num_dims is 2");
  args.byte_strides = nullptr;
  args.num_byte_strides = 0;
  args.type = PJRT_Buffer_Type_INVALID;
  ExpectError(Api()->PJRT_Client_BufferFromHostBuffer(&args), PJRT_Error_Code_INVALID_ARGUMENT,
              "type");
  const int bad_type = 1000;  // raw bits, as a C caller could store them
  std::memcpy(&args.type, &bad_type, sizeof(bad_type));
  ExpectError(Api()->PJRT_Client_BufferFromHostBuffer(&args), PJRT_Error_Code_INVALID_ARGUMENT,
              "type has the unknown value 1000");
  args.type = PJRT_Buffer_Type_F32;
  args.data = nullptr;
  ExpectError(Api()->PJRT_Client_BufferFromHostBuffer(&args), PJRT_Error_Code_INVALID_ARGUMENT,
              "data is null");
  args.data = values.data();

  // A memory not addressable by the given device.
  auto memory = ARGS(PJRT_Device_DefaultMemory);
  memory.device = devices_[1];
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Device_DefaultMemory(&memory));
  args.device = devices_[0];
  args.memory = memory.memory;
  ExpectError(Api()->PJRT_Client_BufferFromHostBuffer(&args), PJRT_Error_Code_INVALID_ARGUMENT,
              "is not addressable by device");
  // Memory alone is passed to the backend as the placement.
  args.device = nullptr;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Client_BufferFromHostBuffer(&args));
  EXPECT_EQ(fake_->last_args_device, nullptr);
  EXPECT_NE(fake_->last_args_memory, nullptr);
  DestroyEvent(args.done_with_host_buffer);
  DestroyBuffer(args.buffer);

  // A bad nested layout names its struct.
  PJRT_Buffer_MemoryLayout layout = Make<PJRT_Buffer_MemoryLayout>(4);
  args.device_layout = &layout;
  ExpectError(Api()->PJRT_Client_BufferFromHostBuffer(&args), PJRT_Error_Code_INVALID_ARGUMENT,
              "device_layout", "PJRT_Buffer_MemoryLayout.struct_size is 4");
}

// --------------------------------------------------------------- executables

TEST_F(SdkApiTest, CompileAndExecute) {
  std::string code = "identity";
  PJRT_Program program = Make<PJRT_Program>(PJRT_Program_STRUCT_SIZE);
  program.code = code.data();
  program.code_size = code.size();
  program.format = "fake";
  program.format_size = 4;
  auto compile = ARGS(PJRT_Client_Compile);
  compile.client = client_;
  compile.program = &program;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Client_Compile(&compile));
  PJRT_LoadedExecutable* loaded = compile.executable;

  auto get = ARGS(PJRT_LoadedExecutable_GetExecutable);
  get.loaded_executable = loaded;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_LoadedExecutable_GetExecutable(&get));
  auto dims = ARGS(PJRT_Executable_OutputDimensions);
  dims.executable = get.executable;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_Executable_OutputDimensions(&dims));
  ASSERT_EQ(dims.num_outputs, 1u);
  EXPECT_EQ(dims.dim_sizes[0], 2u);
  EXPECT_EQ(dims.dims[1], 3);
  auto fingerprint = ARGS(PJRT_Executable_Fingerprint);
  fingerprint.executable = get.executable;
  ExpectError(Api()->PJRT_Executable_Fingerprint(&fingerprint), PJRT_Error_Code_UNIMPLEMENTED,
              "PJRT_Executable_Fingerprint");
  auto destroy_exe = ARGS(PJRT_Executable_Destroy);
  destroy_exe.executable = get.executable;
  EXPECT_PJRT_OK(Api(), Api()->PJRT_Executable_Destroy(&destroy_exe));

  std::vector<float> values = {1, 2, 3, 4, 5, 6};
  PJRT_Buffer* input = MakeBuffer(values, {2, 3});
  PJRT_Buffer* arguments[] = {input};
  PJRT_Buffer* const* argument_lists[] = {arguments};
  PJRT_Buffer* outputs[1] = {nullptr};
  PJRT_Buffer** output_lists[] = {outputs};
  PJRT_Event* done[1] = {nullptr};
  PJRT_ExecuteOptions options = Make<PJRT_ExecuteOptions>(PJRT_ExecuteOptions_STRUCT_SIZE);
  auto execute = ARGS(PJRT_LoadedExecutable_Execute);
  execute.executable = loaded;
  execute.options = &options;
  execute.argument_lists = argument_lists;
  execute.num_devices = 1;
  execute.num_args = 1;
  execute.output_lists = output_lists;
  execute.device_complete_events = done;
  ASSERT_PJRT_OK(Api(), Api()->PJRT_LoadedExecutable_Execute(&execute));
  ASSERT_NE(outputs[0], nullptr);
  ASSERT_NE(done[0], nullptr);
  EXPECT_EQ(ReadBack(outputs[0]), values);
  DestroyEvent(done[0]);
  DestroyBuffer(outputs[0]);

  // A null argument and an old ExecuteOptions are caught before the backend.
  arguments[0] = nullptr;
  ExpectError(Api()->PJRT_LoadedExecutable_Execute(&execute), PJRT_Error_Code_INVALID_ARGUMENT,
              "argument_lists[0][0] is null");
  arguments[0] = input;
  options.struct_size = 16;
  ExpectError(Api()->PJRT_LoadedExecutable_Execute(&execute), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_ExecuteOptions.struct_size is 16");
  // ExecuteOptions from before non_donatable_input_indices (0.39) is served.
  options.struct_size = offsetof(PJRT_ExecuteOptions, non_donatable_input_indices);
  ASSERT_PJRT_OK(Api(), Api()->PJRT_LoadedExecutable_Execute(&execute));
  DestroyEvent(done[0]);
  DestroyBuffer(outputs[0]);

  DestroyBuffer(input);
  auto destroy = ARGS(PJRT_LoadedExecutable_Destroy);
  destroy.executable = loaded;
  EXPECT_PJRT_OK(Api(), Api()->PJRT_LoadedExecutable_Destroy(&destroy));
}

TEST_F(SdkApiTest, CompileChecksProgram) {
  auto compile = ARGS(PJRT_Client_Compile);
  compile.client = client_;
  ExpectError(Api()->PJRT_Client_Compile(&compile), PJRT_Error_Code_INVALID_ARGUMENT,
              "program is null");
  PJRT_Program program = Make<PJRT_Program>(PJRT_Program_STRUCT_SIZE);
  program.code_size = 10;
  compile.program = &program;
  ExpectError(Api()->PJRT_Client_Compile(&compile), PJRT_Error_Code_INVALID_ARGUMENT,
              "program.code is null");
}

// ------------------------------------------------------------------- types

TEST(SdkTypesTest, SizesAndNames) {
  EXPECT_EQ(sdk::ElementBitWidth(PJRT_Buffer_Type_F32), 32);
  EXPECT_EQ(sdk::ElementBitWidth(PJRT_Buffer_Type_S4), 4);
  EXPECT_EQ(sdk::ElementBitWidth(PJRT_Buffer_Type_TOKEN), 0);
  EXPECT_EQ(sdk::ElementTypeName(PJRT_Buffer_Type_BF16), "bf16");
  EXPECT_EQ(sdk::ElementTypeName(PJRT_Buffer_Type_PRED), "pred");
  EXPECT_EQ(sdk::DenseByteSize(PJRT_Buffer_Type_F32, {2, 3}), 24);
  EXPECT_EQ(sdk::DenseByteSize(PJRT_Buffer_Type_S4, {3}), 2);  // 12 bits packed
  EXPECT_EQ(sdk::DenseByteSize(PJRT_Buffer_Type_U1, {9}), 2);
  EXPECT_EQ(sdk::DenseByteSize(PJRT_Buffer_Type_F32, {}), 4);
  EXPECT_EQ(sdk::DenseByteSize(PJRT_Buffer_Type_F32, {0, 5}), 0);
  EXPECT_EQ(sdk::DenseByteSize(PJRT_Buffer_Type_F32, {-1}), -1);
  sdk::Layout layout = sdk::Layout::RowMajor(3);
  EXPECT_EQ(layout.minor_to_major, (std::vector<int64_t>{2, 1, 0}));
  EXPECT_TRUE(layout.IsRowMajor());
  layout.minor_to_major = {0, 1, 2};
  EXPECT_FALSE(layout.IsRowMajor());
}

}  // namespace
