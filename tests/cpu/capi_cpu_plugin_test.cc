// The SDK's defensive PJRT_Api table as a framework sees it: the real CPU
// plugin loaded with dlopen + GetPjrtApi, driven through the C ABI only.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/pjrt_functions.h"
#include "pjrt_c_api.h"
#include "testutil/capi_helpers.h"
#include "testutil/status_matchers.h"

namespace {

using plugrt::testing::CErrorInfo;
using plugrt::testing::MakeCStruct;

const PJRT_Api* LoadApi() {
  static const PJRT_Api* api = [] () -> const PJRT_Api* {
    void* handle = dlopen(PLUGRT_CPU_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      ADD_FAILURE() << "dlopen(" << PLUGRT_CPU_PLUGIN_PATH << "): " << dlerror();
      return nullptr;
    }
    using GetApiFn = const PJRT_Api* (*)();
    auto get_api = reinterpret_cast<GetApiFn>(dlsym(handle, "GetPjrtApi"));
    if (get_api == nullptr) {
      ADD_FAILURE() << "GetPjrtApi not exported: " << dlerror();
      return nullptr;
    }
    return get_api();
  }();
  return api;
}

#define ARGS(fn) PLUGRT_C_ARGS(fn)

class CapiCpuPluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    api_ = LoadApi();
    ASSERT_NE(api_, nullptr);
    auto init = ARGS(PJRT_Plugin_Initialize);
    ASSERT_PJRT_OK(api_, api_->PJRT_Plugin_Initialize(&init));
    auto create = ARGS(PJRT_Client_Create);
    ASSERT_PJRT_OK(api_, api_->PJRT_Client_Create(&create));
    client_ = create.client;
    auto devices = ARGS(PJRT_Client_AddressableDevices);
    devices.client = client_;
    ASSERT_PJRT_OK(api_, api_->PJRT_Client_AddressableDevices(&devices));
    devices_.assign(devices.addressable_devices,
                    devices.addressable_devices + devices.num_addressable_devices);
    ASSERT_FALSE(devices_.empty());
  }
  void TearDown() override {
    if (client_ == nullptr) return;
    auto destroy = ARGS(PJRT_Client_Destroy);
    destroy.client = client_;
    EXPECT_PJRT_OK(api_, api_->PJRT_Client_Destroy(&destroy));
  }

  void ExpectError(PJRT_Error* error, PJRT_Error_Code code, const std::string& part1,
                   const std::string& part2 = "") {
    plugrt::testing::ExpectCError(api_, error, code, part1, part2);
  }
  PJRT_Buffer* MakeBuffer(const std::vector<float>& values, std::vector<int64_t> dims) {
    auto args = ARGS(PJRT_Client_BufferFromHostBuffer);
    args.client = client_;
    args.data = values.data();
    args.type = PJRT_Buffer_Type_F32;
    args.dims = dims.data();
    args.num_dims = dims.size();
    CErrorInfo info = plugrt::testing::TakeCError(api_, api_->PJRT_Client_BufferFromHostBuffer(&args));
    EXPECT_TRUE(info.ok) << info.message;
    Await(args.done_with_host_buffer);
    return args.buffer;
  }
  void Await(PJRT_Event* event) {
    if (event == nullptr) return;
    auto await = ARGS(PJRT_Event_Await);
    await.event = event;
    EXPECT_PJRT_OK(api_, api_->PJRT_Event_Await(&await));
    auto destroy = ARGS(PJRT_Event_Destroy);
    destroy.event = event;
    EXPECT_PJRT_OK(api_, api_->PJRT_Event_Destroy(&destroy));
  }
  void DestroyBuffer(PJRT_Buffer* buffer) {
    auto args = ARGS(PJRT_Buffer_Destroy);
    args.buffer = buffer;
    EXPECT_PJRT_OK(api_, api_->PJRT_Buffer_Destroy(&args));
  }

  const PJRT_Api* api_ = nullptr;
  PJRT_Client* client_ = nullptr;
  std::vector<PJRT_Device*> devices_;
};

TEST_F(CapiCpuPluginTest, TableIsCompleteAndVersioned) {
  EXPECT_EQ(api_->struct_size, PJRT_Api_STRUCT_SIZE);
  EXPECT_EQ(api_->pjrt_api_version.major_version, PJRT_API_MAJOR);
  EXPECT_EQ(api_->pjrt_api_version.minor_version, PJRT_API_MINOR);
  const size_t first = offsetof(PJRT_Api, PJRT_Error_Destroy);
  for (size_t offset = first; offset + sizeof(void*) <= PJRT_Api_STRUCT_SIZE;
       offset += sizeof(void*)) {
    void* slot;
    std::memcpy(&slot, reinterpret_cast<const char*>(api_) + offset, sizeof(slot));
    EXPECT_NE(slot, nullptr) << "slot at offset " << offset << " is empty";
  }
}

TEST_F(CapiCpuPluginTest, UnimplementedSlotNamesTheFunction) {
  auto args = ARGS(PJRT_Client_CreateUninitializedBuffer);
  args.client = client_;
  ExpectError(api_->PJRT_Client_CreateUninitializedBuffer(&args), PJRT_Error_Code_UNIMPLEMENTED,
              "PJRT_Client_CreateUninitializedBuffer");
}

TEST_F(CapiCpuPluginTest, NullArgsAndHandles) {
  ExpectError(api_->PJRT_Client_PlatformName(nullptr), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Client_PlatformName", "args is null");
  ExpectError(api_->PJRT_Buffer_ToHostBuffer(nullptr), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Buffer_ToHostBuffer");
  auto name = ARGS(PJRT_Client_PlatformName);
  ExpectError(api_->PJRT_Client_PlatformName(&name), PJRT_Error_Code_INVALID_ARGUMENT,
              "client is null");
  auto dims = ARGS(PJRT_Buffer_Dimensions);
  ExpectError(api_->PJRT_Buffer_Dimensions(&dims), PJRT_Error_Code_INVALID_ARGUMENT,
              "buffer is null");
  auto stats = ARGS(PJRT_Device_MemoryStats);
  ExpectError(api_->PJRT_Device_MemoryStats(&stats), PJRT_Error_Code_INVALID_ARGUMENT,
              "device is null");
  api_->PJRT_Error_Destroy(nullptr);  // must survive
}

// Every destroy entry of PJRT 0.94 with a null handle. The header says, for
// each of these, "`x` can be nullptr": freeing nothing succeeds. Written out
// here from the header's words (not from the SDK's own tables), so a plugin
// that drifts from the header fails.
TEST_F(CapiCpuPluginTest, DestroyOfNullIsANoOpWhereTheHeaderAllowsIt) {
#define PLUGRT_EXPECT_NULL_DESTROY_OK(fn)                                    \
  {                                                                          \
    auto args = ARGS(fn);                                                    \
    CErrorInfo info = plugrt::testing::TakeCError(api_, api_->fn(&args));    \
    EXPECT_TRUE(info.ok) << #fn << "(null): " << info.code << ": " << info.message; \
    ExpectError(api_->fn(nullptr), PJRT_Error_Code_INVALID_ARGUMENT, #fn, "args is null"); \
  }
  PLUGRT_EXPECT_NULL_DESTROY_OK(PJRT_Event_Destroy)
  PLUGRT_EXPECT_NULL_DESTROY_OK(PJRT_Client_Destroy)
  PLUGRT_EXPECT_NULL_DESTROY_OK(PJRT_AsyncHostToDeviceTransferManager_Destroy)
  PLUGRT_EXPECT_NULL_DESTROY_OK(PJRT_ExecuteContext_Destroy)
  PLUGRT_EXPECT_NULL_DESTROY_OK(PJRT_Executable_Destroy)
  PLUGRT_EXPECT_NULL_DESTROY_OK(PJRT_LoadedExecutable_Destroy)
  PLUGRT_EXPECT_NULL_DESTROY_OK(PJRT_Buffer_Destroy)
  PLUGRT_EXPECT_NULL_DESTROY_OK(PJRT_CopyToDeviceStream_Destroy)
  PLUGRT_EXPECT_NULL_DESTROY_OK(PJRT_TopologyDescription_Destroy)
#undef PLUGRT_EXPECT_NULL_DESTROY_OK
  // PJRT_Error_Destroy returns nothing; null error and null args must both
  // be survived.
  auto error_destroy = ARGS(PJRT_Error_Destroy);
  api_->PJRT_Error_Destroy(&error_destroy);
  api_->PJRT_Error_Destroy(nullptr);
  // The function list (common/pjrt_functions.h), from which the SDK takes
  // its null rule, marks exactly these, and names no other destroy.
  const std::set<std::string_view> null_allowed = {
      "PJRT_Error_Destroy", "PJRT_Event_Destroy", "PJRT_Client_Destroy",
      "PJRT_AsyncHostToDeviceTransferManager_Destroy", "PJRT_ExecuteContext_Destroy",
      "PJRT_Executable_Destroy", "PJRT_LoadedExecutable_Destroy", "PJRT_Buffer_Destroy",
      "PJRT_CopyToDeviceStream_Destroy", "PJRT_TopologyDescription_Destroy"};
  struct Row {
    std::string_view name;
    bool null_ok;
  };
#define PLUGRT_ROW_(Name, last, null_handle) \
  Row{#Name, !std::is_null_pointer_v<std::remove_const_t<decltype(null_handle)>>},
  const Row rows[] = {PLUGRT_PJRT_FUNCTIONS(PLUGRT_ROW_)};
#undef PLUGRT_ROW_
  for (const Row& row : rows) {
    EXPECT_EQ(row.null_ok, null_allowed.count(row.name) == 1) << row.name;
    if (row.name.ends_with("_Destroy") && row.name != "PJRT_AsyncTrackingEvent_Destroy") {
      EXPECT_EQ(null_allowed.count(row.name), 1u) << row.name << ": what does the header say?";
    }
  }
  // The header does not allow null here ("Destroys the async tracking
  // event."), so it stays an error.
  auto tracking = ARGS(PJRT_AsyncTrackingEvent_Destroy);
  CErrorInfo info = plugrt::testing::TakeCError(api_, api_->PJRT_AsyncTrackingEvent_Destroy(&tracking));
  EXPECT_FALSE(info.ok);
  EXPECT_NE(info.message.find("PJRT_AsyncTrackingEvent_Destroy"), std::string::npos) << info.message;
}

// The table BuildApi generates from the function list: every slot of PJRT
// 0.94 filled, and every entry (implemented or not) applying the list's
// minimum struct size, refusing null args, and naming itself. One row per
// function, checked by one loop: the checks are not instantiated per
// function (129 inlined copies of them took a minute to compile).
struct FunctionRow {
  std::string_view name;
  size_t min_size;          // the list's minimum struct size
  size_t header_size;       // the header's *_STRUCT_SIZE
  size_t extension_offset;  // offsetof(*_Args, extension_start)
  bool returns_error;       // false for PJRT_Error_Destroy
  // Calls the table's entry with `args` (null or a zeroed struct of
  // header_size bytes).
  PJRT_Error* (*call)(const PJRT_Api* api, void* args);
  bool filled;
};

template <typename Args>
PJRT_Error* CallEntry(PJRT_Error* (*fn)(Args*), void* args) {
  return fn(static_cast<Args*>(args));
}
template <typename Args>
PJRT_Error* CallEntry(void (*fn)(Args*), void* args) {
  fn(static_cast<Args*>(args));
  return nullptr;
}

std::vector<FunctionRow> FunctionRows(const PJRT_Api* api) {
  std::vector<FunctionRow> rows;
#define PLUGRT_ROW_(Name, last, null_handle)                                                    \
  rows.push_back(                                                                              \
      {#Name, PLUGRT_STRUCT_SIZE_UP_TO(Name##_Args, last), Name##_Args_STRUCT_SIZE,             \
       offsetof(Name##_Args, extension_start),                                                  \
       std::is_same_v<decltype(PJRT_Api::Name), PJRT_Error* (*)(Name##_Args*)>,                 \
       [](const PJRT_Api* a, void* args) { return CallEntry(a->Name, args); },                  \
       api != nullptr && api->Name != nullptr});
  PLUGRT_PJRT_FUNCTIONS(PLUGRT_ROW_)
#undef PLUGRT_ROW_
  return rows;
}

TEST_F(CapiCpuPluginTest, EveryFunctionOfTheListIsFilledAndChecksItsArgs) {
  const std::vector<FunctionRow> rows = FunctionRows(api_);
  for (const FunctionRow& row : rows) {
    const std::string name(row.name);
    ASSERT_TRUE(row.filled) << name << " is not filled";
    if (!row.returns_error) continue;
    // Zeroed, aligned storage of the header's size; struct_size comes first.
    std::vector<std::max_align_t> storage(row.header_size / sizeof(std::max_align_t) + 1);
    std::memset(storage.data(), 0, storage.size() * sizeof(std::max_align_t));
    const size_t small_size = row.min_size - 1;
    std::memcpy(storage.data(), &small_size, sizeof(small_size));
    CErrorInfo small = plugrt::testing::TakeCError(api_, row.call(api_, storage.data()));
    ASSERT_FALSE(small.ok) << name << " accepted struct_size " << small_size;
    EXPECT_EQ(small.code, PJRT_Error_Code_INVALID_ARGUMENT) << small.message;
    const std::string expected = name + "_Args.struct_size is " + std::to_string(small_size) +
                                 ", smaller than the " + std::to_string(row.min_size) + " bytes";
    EXPECT_NE(small.message.find(expected), std::string::npos) << small.message;
    CErrorInfo null = plugrt::testing::TakeCError(api_, row.call(api_, nullptr));
    EXPECT_FALSE(null.ok) << name;
    EXPECT_NE(null.message.find(name + ": args is null"), std::string::npos) << null.message;
  }
  // Every pointer-sized slot of the 0.94 table was one of them.
  EXPECT_EQ(rows.size(), (PJRT_Api_STRUCT_SIZE - offsetof(PJRT_Api, PJRT_Error_Destroy)) / sizeof(void*));
}

// The list's minimum sizes against the header: the whole 0.94 struct, except
// for the structs the ABI's changelog extended at their end.
TEST(PjrtFunctionListTest, MinimumSizesAgreeWithTheHeader) {
  const std::set<std::string_view> extended = {
      "PJRT_Client_Create", "PJRT_Client_CreateViewOfDeviceBuffer",
      "PJRT_Executable_GetCompiledMemoryStats", "PJRT_Executable_DeserializeAndLoad",
      "PJRT_LoadedExecutable_Execute"};
  const std::vector<FunctionRow> rows = FunctionRows(nullptr);
  for (const FunctionRow& row : rows) {
    if (extended.count(row.name)) {
      EXPECT_LT(row.min_size, row.header_size) << row.name;
    } else {
      EXPECT_EQ(row.min_size, row.header_size) << row.name;
    }
    EXPECT_GT(row.min_size, row.extension_offset) << row.name;
  }
  EXPECT_EQ(rows.size(), plugrt::kNumPjrtFunctions);
  EXPECT_EQ(rows.size(), 129u);  // PJRT_Api 0.94
}

TEST_F(CapiCpuPluginTest, StructSizeRule) {
  auto small = MakeCStruct<PJRT_Client_PlatformName_Args>(8);
  small.client = client_;
  ExpectError(api_->PJRT_Client_PlatformName(&small), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Client_PlatformName_Args.struct_size is 8");
  struct Newer {
    PJRT_Client_PlatformName_Args args;
    unsigned char future[32];
  } newer;
  std::memset(&newer, 0x5A, sizeof(newer));
  newer.args.struct_size = sizeof(newer);
  newer.args.extension_start = nullptr;
  newer.args.client = client_;
  ASSERT_PJRT_OK(api_, api_->PJRT_Client_PlatformName(&newer.args));
  EXPECT_GT(newer.args.platform_name_size, 0u);
  for (unsigned char byte : newer.future) ASSERT_EQ(byte, 0x5A);
}

TEST_F(CapiCpuPluginTest, OlderClientCreateIsServed) {
  auto args = MakeCStruct<PJRT_Client_Create_Args>(
      offsetof(PJRT_Client_Create_Args, kv_try_get_callback));
  std::memset(static_cast<void*>(&args.kv_try_get_callback), 0xCD,
              sizeof(args) - offsetof(PJRT_Client_Create_Args, kv_try_get_callback));
  ASSERT_PJRT_OK(api_, api_->PJRT_Client_Create(&args));
  const unsigned char* tail = reinterpret_cast<const unsigned char*>(&args.kv_try_get_callback);
  for (size_t i = 0; i < sizeof(args) - offsetof(PJRT_Client_Create_Args, kv_try_get_callback); ++i) {
    ASSERT_EQ(tail[i], 0xCD);
  }
  auto destroy = ARGS(PJRT_Client_Destroy);
  destroy.client = args.client;
  EXPECT_PJRT_OK(api_, api_->PJRT_Client_Destroy(&destroy));
}

TEST_F(CapiCpuPluginTest, UnknownCreateOptionIsAnError) {
  PJRT_NamedValue option = MakeCStruct<PJRT_NamedValue>(PJRT_NamedValue_STRUCT_SIZE);
  option.name = "no_such_option";
  option.name_size = std::strlen(option.name);
  option.type = PJRT_NamedValue_kInt64;
  option.int64_value = 1;
  option.value_size = 1;
  auto args = ARGS(PJRT_Client_Create);
  args.create_options = &option;
  args.num_options = 1;
  CErrorInfo info = plugrt::testing::TakeCError(api_, api_->PJRT_Client_Create(&args));
  EXPECT_FALSE(info.ok);
  EXPECT_NE(info.message.find("no_such_option"), std::string::npos) << info.message;
}

TEST_F(CapiCpuPluginTest, EventsFromCreateAndSet) {
  auto create = ARGS(PJRT_Event_Create);
  ASSERT_PJRT_OK(api_, api_->PJRT_Event_Create(&create));
  int fired = 0;
  auto on_ready = ARGS(PJRT_Event_OnReady);
  on_ready.event = create.event;
  on_ready.user_arg = &fired;
  on_ready.callback = [](PJRT_Error* error, void* user_arg) {
    EXPECT_EQ(error, nullptr);
    ++*static_cast<int*>(user_arg);
  };
  ASSERT_PJRT_OK(api_, api_->PJRT_Event_OnReady(&on_ready));
  EXPECT_EQ(fired, 0);
  auto set = ARGS(PJRT_Event_Set);
  set.event = create.event;
  set.error_code = PJRT_Error_Code_OK;
  ASSERT_PJRT_OK(api_, api_->PJRT_Event_Set(&set));
  EXPECT_EQ(fired, 1);
  ASSERT_PJRT_OK(api_, api_->PJRT_Event_OnReady(&on_ready));
  EXPECT_EQ(fired, 2);
  ExpectError(api_->PJRT_Event_Set(&set), PJRT_Error_Code_FAILED_PRECONDITION, "already set");
  auto destroy = ARGS(PJRT_Event_Destroy);
  destroy.event = create.event;
  EXPECT_PJRT_OK(api_, api_->PJRT_Event_Destroy(&destroy));
}

TEST_F(CapiCpuPluginTest, BufferRoundTripAndSizeChecks) {
  std::vector<float> values = {1, 2, 3, 4, 5, 6};
  PJRT_Buffer* buffer = MakeBuffer(values, {2, 3});
  ASSERT_NE(buffer, nullptr);
  auto dims = ARGS(PJRT_Buffer_Dimensions);
  dims.buffer = buffer;
  ASSERT_PJRT_OK(api_, api_->PJRT_Buffer_Dimensions(&dims));
  ASSERT_EQ(dims.num_dims, 2u);
  EXPECT_EQ(dims.dims[0], 2);
  EXPECT_EQ(dims.dims[1], 3);

  auto to_host = ARGS(PJRT_Buffer_ToHostBuffer);
  to_host.src = buffer;
  ASSERT_PJRT_OK(api_, api_->PJRT_Buffer_ToHostBuffer(&to_host));
  EXPECT_EQ(to_host.dst_size, 24u);
  std::vector<float> small(2);
  to_host.dst = small.data();
  to_host.dst_size = 8;
  ExpectError(api_->PJRT_Buffer_ToHostBuffer(&to_host), PJRT_Error_Code_INVALID_ARGUMENT,
              "dst_size is 8 bytes", "24 bytes");
  std::vector<float> out(6);
  to_host.dst = out.data();
  to_host.dst_size = 24;
  ASSERT_PJRT_OK(api_, api_->PJRT_Buffer_ToHostBuffer(&to_host));
  Await(to_host.event);
  EXPECT_EQ(out, values);

  auto del = ARGS(PJRT_Buffer_Delete);
  del.buffer = buffer;
  ASSERT_PJRT_OK(api_, api_->PJRT_Buffer_Delete(&del));
  to_host.event = nullptr;
  CErrorInfo info = plugrt::testing::TakeCError(api_, api_->PJRT_Buffer_ToHostBuffer(&to_host));
  // Either refused at once or reported through the event; never a crash.
  if (info.ok) {
    auto await = ARGS(PJRT_Event_Await);
    await.event = to_host.event;
    CErrorInfo event_info = plugrt::testing::TakeCError(api_, api_->PJRT_Event_Await(&await));
    EXPECT_FALSE(event_info.ok) << "reading a deleted buffer succeeded";
    auto destroy = ARGS(PJRT_Event_Destroy);
    destroy.event = to_host.event;
    EXPECT_PJRT_OK(api_, api_->PJRT_Event_Destroy(&destroy));
  }
  DestroyBuffer(buffer);
}

TEST_F(CapiCpuPluginTest, BufferFromHostBufferArgumentChecks) {
  std::vector<float> values = {1, 2, 3, 4};
  int64_t dims[] = {2, 2};
  int64_t strides[] = {8};
  auto args = ARGS(PJRT_Client_BufferFromHostBuffer);
  args.client = client_;
  args.data = values.data();
  args.type = PJRT_Buffer_Type_F32;
  args.num_dims = 2;
  ExpectError(api_->PJRT_Client_BufferFromHostBuffer(&args), PJRT_Error_Code_INVALID_ARGUMENT,
              "dims is null");
  args.dims = dims;
  args.byte_strides = strides;
  args.num_byte_strides = 1;
  ExpectError(api_->PJRT_Client_BufferFromHostBuffer(&args), PJRT_Error_Code_INVALID_ARGUMENT,
              "num_byte_strides is 1 but num_dims is 2");
  args.byte_strides = nullptr;
  args.num_byte_strides = 0;
  PJRT_Buffer_MemoryLayout layout = MakeCStruct<PJRT_Buffer_MemoryLayout>(4);
  args.device_layout = &layout;
  ExpectError(api_->PJRT_Client_BufferFromHostBuffer(&args), PJRT_Error_Code_INVALID_ARGUMENT,
              "PJRT_Buffer_MemoryLayout.struct_size is 4");
}

TEST_F(CapiCpuPluginTest, DeviceQueries) {
  auto description = ARGS(PJRT_Device_GetDescription);
  description.device = devices_[0];
  ASSERT_PJRT_OK(api_, api_->PJRT_Device_GetDescription(&description));
  auto kind = ARGS(PJRT_DeviceDescription_Kind);
  kind.device_description = description.device_description;
  ASSERT_PJRT_OK(api_, api_->PJRT_DeviceDescription_Kind(&kind));
  EXPECT_GT(kind.device_kind_size, 0u);
  auto memory = ARGS(PJRT_Device_DefaultMemory);
  memory.device = devices_[0];
  ASSERT_PJRT_OK(api_, api_->PJRT_Device_DefaultMemory(&memory));
  auto by_devices = ARGS(PJRT_Memory_AddressableByDevices);
  by_devices.memory = memory.memory;
  ASSERT_PJRT_OK(api_, api_->PJRT_Memory_AddressableByDevices(&by_devices));
  bool found = false;
  for (size_t i = 0; i < by_devices.num_devices; ++i) found |= by_devices.devices[i] == devices_[0];
  EXPECT_TRUE(found);
  auto assignment = ARGS(PJRT_Client_DefaultDeviceAssignment);
  int ids[1];
  assignment.client = client_;
  assignment.num_replicas = 1;
  assignment.num_partitions = 2;
  assignment.default_assignment = ids;
  assignment.default_assignment_size = 1;
  ExpectError(api_->PJRT_Client_DefaultDeviceAssignment(&assignment),
              PJRT_Error_Code_INVALID_ARGUMENT, "default_assignment_size is 1");
}

}  // namespace
