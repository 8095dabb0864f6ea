// End-to-end tests of plugrt::Plugin and plugin-level client behaviour over
// the CPU plugin loaded through dlopen: load errors, version and table
// checks, one-time initialization, attributes, create options, key-value
// store, element types.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <deque>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "client/client.h"
#include "common/element_type.h"
#include "client/error.h"
#include "client/key_value_callbacks.h"
#include "client/key_value_store.h"
#include "common/layout.h"
#include "client/plugin.h"
#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

using ::testing::HasSubstr;
using testing::CpuPlugin;
using testing::CpuPluginPath;

// A modified copy of the real table, alive for the rest of the program (the
// client's initialization registry is keyed by table address).
PJRT_Api* CopyOfCpuTable() {
  static auto* copies = new std::deque<PJRT_Api>();
  auto plugin = CpuPlugin();
  if (!plugin.ok()) return nullptr;
  return &copies->emplace_back(*(*plugin)->api());
}

TEST(PluginLoadTest, MissingFileIsNotFoundAndNamesThePath) {
  const std::string path = "/nonexistent/dir/libno_such_plugin.so";
  auto plugin = Plugin::Load(path);
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(plugin.status().message(), HasSubstr(path));
  // dlerror's text is passed on.
  EXPECT_THAT(plugin.status().message(), HasSubstr("No such file"));
}

TEST(PluginLoadTest, FileThatIsNotALibraryIsInvalidArgument) {
  char path[] = "/tmp/plugrt_not_a_library_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, "not an ELF file\n", 16), 16);
  close(fd);
  auto plugin = Plugin::Load(path);
  std::remove(path);
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(plugin.status().message(), HasSubstr(path));
}

TEST(PluginLoadTest, LibraryWithoutGetPjrtApiIsNotFound) {
  // libm is a real shared library that certainly exports no GetPjrtApi.
  auto plugin = Plugin::Load("libm.so.6");
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(plugin.status().message(), HasSubstr("GetPjrtApi"));
  EXPECT_THAT(plugin.status().message(), HasSubstr("libm.so.6"));
}

TEST(PluginLoadTest, LoadsTheCpuPlugin) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, Plugin::Load(CpuPluginPath()));
  ASSERT_NE(plugin->api(), nullptr);
  EXPECT_EQ(plugin->major_version(), PJRT_API_MAJOR);
  EXPECT_EQ(plugin->minor_version(), PJRT_API_MINOR);
  EXPECT_EQ(plugin->path(), CpuPluginPath());
  EXPECT_GE(plugin->api()->struct_size, PJRT_Api_STRUCT_SIZE);
}

TEST(PluginLoadTest, TwoLoadsShareOneTableAndBothWork) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> a, Plugin::Load(CpuPluginPath()));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> b, Plugin::Load(CpuPluginPath()));
  EXPECT_EQ(a->api(), b->api());
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto client_a, Client::Create(a));
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto client_b, Client::Create(b));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string name_a, client_a->platform_name());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string name_b, client_b->platform_name());
  EXPECT_EQ(name_a, name_b);
}

std::atomic<int> g_initialize_calls{0};
PJRT_Plugin_Initialize* g_real_initialize = nullptr;
PJRT_Error* CountingInitialize(PJRT_Plugin_Initialize_Args* args) {
  g_initialize_calls.fetch_add(1);
  return g_real_initialize(args);
}

TEST(PluginInitTest, InitializesEachTableExactlyOnce) {
  PJRT_Api* table = CopyOfCpuTable();
  ASSERT_NE(table, nullptr);
  g_initialize_calls.store(0);
  g_real_initialize = table->PJRT_Plugin_Initialize;
  ASSERT_NE(g_real_initialize, nullptr);
  table->PJRT_Plugin_Initialize = &CountingInitialize;

  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      if (Plugin::FromApi(table, "counting-copy").ok()) ok.fetch_add(1);
    });
  }
  for (auto& t : threads) t.join();
  PLUGRT_ASSERT_OK(Plugin::FromApi(table, "counting-copy"));
  EXPECT_EQ(ok.load(), 4);
  EXPECT_EQ(g_initialize_calls.load(), 1);
}

TEST(PluginTableTest, NullTableIsInvalidArgument) {
  auto plugin = Plugin::FromApi(nullptr, "null-table");
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(plugin.status().message(), HasSubstr("null-table"));
}

TEST(PluginTableTest, MajorVersionMismatchIsFailedPreconditionNamingBoth) {
  PJRT_Api* table = CopyOfCpuTable();
  ASSERT_NE(table, nullptr);
  table->pjrt_api_version.major_version = PJRT_API_MAJOR + 7;
  auto plugin = Plugin::FromApi(table, "future-plugin");
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.status().code(), StatusCode::kFailedPrecondition);
  const std::string message = plugin.status().message();
  EXPECT_THAT(message, HasSubstr("future-plugin"));
  EXPECT_THAT(message, HasSubstr(StrCat(PJRT_API_MAJOR + 7, ".", table->pjrt_api_version.minor_version)));
  EXPECT_THAT(message, HasSubstr(StrCat("major version ", PJRT_API_MAJOR)));
}

TEST(PluginTableTest, TableTooSmallForItsVersionIsRejected) {
  PJRT_Api* table = CopyOfCpuTable();
  ASSERT_NE(table, nullptr);
  table->struct_size = offsetof(PJRT_Api, pjrt_api_version);
  auto plugin = Plugin::FromApi(table, "tiny-table");
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(plugin.status().message(), HasSubstr("tiny-table"));
}

TEST(PluginTableTest, TableWithoutErrorFunctionsIsRejected) {
  PJRT_Api* table = CopyOfCpuTable();
  ASSERT_NE(table, nullptr);
  table->PJRT_Error_Message = nullptr;
  auto plugin = Plugin::FromApi(table, "no-errors");
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(plugin.status().message(), HasSubstr("PJRT_Error_Message"));
}

// An older plugin: its table ends before PJRT_Memory_Kind_Id (so also before
// PJRT_Buffer_CopyRawToHost). Everything before works; the rest is
// UNIMPLEMENTED from the client, never a read past the table.
TEST(PluginTableTest, OlderSmallerTableGivesUnimplementedForNewerSlots) {
  PJRT_Api* table = CopyOfCpuTable();
  ASSERT_NE(table, nullptr);
  table->struct_size = offsetof(PJRT_Api, PJRT_Memory_Kind_Id);
  table->pjrt_api_version.minor_version = 40;
  // Poison the slots beyond the table: reading them would crash.
  table->PJRT_Memory_Kind_Id = reinterpret_cast<PJRT_Memory_Kind_Id*>(uintptr_t{1});
  table->PJRT_Buffer_CopyRawToHost = reinterpret_cast<PJRT_Buffer_CopyRawToHost*>(uintptr_t{1});

  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, Plugin::FromApi(table, "old-plugin"));
  EXPECT_EQ(plugin->minor_version(), 40);
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto client, Client::Create(plugin));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client->addressable_devices());
  ASSERT_FALSE(devices.empty());
  PLUGRT_ASSERT_OK_AND_ASSIGN(Memory memory, devices[0].default_memory());
  PLUGRT_EXPECT_OK(memory.kind());

  auto kind_id = memory.kind_id();
  ASSERT_FALSE(kind_id.ok());
  EXPECT_EQ(kind_id.status().code(), StatusCode::kUnimplemented);
  EXPECT_EQ(kind_id.status().message(),
            "plugin implements PJRT C API 0.40; PJRT_Memory_Kind_Id needs a newer one");

  float data[4] = {1, 2, 3, 4};
  Client::HostBuffer host{data, PJRT_Buffer_Type_F32, {4}};
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto made, client->BufferFromHostBuffer(host, devices[0]));
  PLUGRT_ASSERT_OK(made.second.Await());
  float out[4] = {};
  Status raw = made.first.CopyRawToHost(out, 0, sizeof(out));
  EXPECT_EQ(raw.code(), StatusCode::kUnimplemented);
  EXPECT_EQ(raw.message(),
            "plugin implements PJRT C API 0.40; PJRT_Buffer_CopyRawToHost needs a newer one");
  // Functions inside the table still work.
  PLUGRT_ASSERT_OK(made.first.ToHost(out, sizeof(out)));
  EXPECT_EQ(out[3], 4.0f);
}

TEST(PluginTableTest, NullSlotGivesUnimplementedNamingTheFunction) {
  PJRT_Api* table = CopyOfCpuTable();
  ASSERT_NE(table, nullptr);
  table->PJRT_Client_PlatformVersion = nullptr;
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, Plugin::FromApi(table, "holey"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto client, Client::Create(plugin));
  PLUGRT_EXPECT_OK(client->platform_name());
  auto version = client->platform_version();
  ASSERT_FALSE(version.ok());
  EXPECT_EQ(version.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(version.status().message(), HasSubstr("PJRT_Client_PlatformVersion"));
}

TEST(PluginAttributesTest, ReportsVersions) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<NamedValue> attributes, plugin->attributes());

  const NamedValue* xla = FindNamedValue(attributes, "xla_version");
  ASSERT_NE(xla, nullptr);
  ASSERT_TRUE(std::holds_alternative<int64_t>(xla->value)) << NamedValueToString(*xla);
  EXPECT_GT(std::get<int64_t>(xla->value), 0);

  const NamedValue* current = FindNamedValue(attributes, "stablehlo_current_version");
  const NamedValue* minimum = FindNamedValue(attributes, "stablehlo_minimum_version");
  ASSERT_NE(current, nullptr);
  ASSERT_NE(minimum, nullptr);
  ASSERT_TRUE(std::holds_alternative<std::vector<int64_t>>(current->value));
  ASSERT_TRUE(std::holds_alternative<std::vector<int64_t>>(minimum->value));
  const auto& cur = std::get<std::vector<int64_t>>(current->value);
  const auto& min = std::get<std::vector<int64_t>>(minimum->value);
  ASSERT_EQ(cur.size(), 3u);
  ASSERT_EQ(min.size(), 3u);
  EXPECT_GE(cur, min);
}

TEST(ClientCreateTest, DeviceCountOption) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  for (int64_t count : {1, 4}) {
    ClientOptions options;
    options.create_options.push_back({"cpu_device_count", count});
    PLUGRT_ASSERT_OK_AND_ASSIGN(auto client, Client::Create(plugin, options));
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client->devices());
    EXPECT_EQ(devices.size(), static_cast<size_t>(count));
  }
}

TEST(ClientCreateTest, UnknownOptionIsInvalidArgumentNamingIt) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  ClientOptions options;
  options.create_options.push_back({"no_such_option_xyz", int64_t{1}});
  auto client = Client::Create(plugin, options);
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(client.status().message(), HasSubstr("no_such_option_xyz"));
}

TEST(ClientCreateTest, WrongOptionTypeIsInvalidArgumentNamingIt) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  ClientOptions options;
  options.create_options.push_back({"cpu_device_count", std::string("four")});
  auto client = Client::Create(plugin, options);
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(client.status().message(), HasSubstr("cpu_device_count"));
}

TEST(ClientCreateTest, NullPluginIsInvalidArgument) {
  auto client = Client::Create(nullptr);
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kInvalidArgument);
}

TEST(ClientCreateTest, AcceptsAKeyValueStore) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  ClientOptions options;
  options.kv_store = std::make_shared<InMemoryKeyValueStore>();
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto client, Client::Create(plugin, options));
  PLUGRT_EXPECT_OK(client->platform_name());
}

TEST(KeyValueStoreTest, InMemoryStore) {
  InMemoryKeyValueStore store;
  auto missing = store.TryGet("k");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  auto timed_out = store.Get("k", 10);
  EXPECT_EQ(timed_out.status().code(), StatusCode::kDeadlineExceeded);
  PLUGRT_ASSERT_OK(store.Put("k", "v1"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string v, store.TryGet("k"));
  EXPECT_EQ(v, "v1");
  PLUGRT_ASSERT_OK(store.Put("k", "v2"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(v, store.Get("k", 0));
  EXPECT_EQ(v, "v2");

  // Get waits for a Put from another thread.
  std::thread writer([&] { store.Put("later", "value").IgnoreError(); });
  PLUGRT_ASSERT_OK_AND_ASSIGN(v, store.Get("later", 60000));
  writer.join();
  EXPECT_EQ(v, "value");
}

// The callbacks the client hands a plugin, driven as a plugin would.
struct FakeError {
  PJRT_Error_Code code;
  std::string message;
};
FakeError g_last_error;
PJRT_Error* MakeFakeError(PJRT_Error_Code code, const char* message, size_t size) {
  g_last_error = {code, std::string(message, size)};
  // Never dereferenced by the client; only compared with null.
  return reinterpret_cast<PJRT_Error*>(&g_last_error);
}

TEST(KeyValueStoreTest, CallbacksForwardToTheStore) {
  InMemoryKeyValueStore store;
  PJRT_CallbackError make_error = &MakeFakeError;

  PJRT_KeyValuePutCallback_Args put{};
  put.struct_size = PJRT_KeyValuePutCallback_Args_STRUCT_SIZE;
  put.key = "key";
  put.key_size = 3;
  put.value = "value\0bytes";
  put.value_size = 11;
  put.callback_error = &make_error;
  put.user_arg = &store;
  EXPECT_EQ(internal::KeyValuePutCallback(&put), nullptr);

  PJRT_KeyValueGetCallback_Args get{};
  get.struct_size = PJRT_KeyValueGetCallback_Args_STRUCT_SIZE;
  get.key = "key";
  get.key_size = 3;
  get.timeout_in_ms = 1000;
  get.callback_error = &make_error;
  get.user_arg = &store;
  ASSERT_EQ(internal::KeyValueGetCallback(&get), nullptr);
  ASSERT_NE(get.value_deleter_callback, nullptr);
  EXPECT_EQ(std::string(get.value, get.value_size), std::string("value\0bytes", 11));
  get.value_deleter_callback(get.value);

  PJRT_KeyValueTryGetCallback_Args try_get{};
  try_get.struct_size = PJRT_KeyValueTryGetCallback_Args_STRUCT_SIZE;
  try_get.key = "absent";
  try_get.key_size = 6;
  try_get.callback_error = &make_error;
  try_get.user_arg = &store;
  EXPECT_EQ(internal::KeyValueTryGetCallback(&try_get),
            reinterpret_cast<PJRT_Error*>(&g_last_error));
  EXPECT_EQ(g_last_error.code, PJRT_Error_Code_NOT_FOUND);
  EXPECT_THAT(g_last_error.message, HasSubstr("absent"));
}

TEST(ErrorTest, NullErrorIsOk) { PLUGRT_EXPECT_OK(StatusFromPjrtError(nullptr, nullptr)); }

TEST(ElementTypeTest, NamesRoundTripAndWidths) {
  for (PJRT_Buffer_Type type : AllElementTypes()) {
    std::string_view name = ElementTypeName(type);
    EXPECT_NE(name, "unknown");
    PLUGRT_ASSERT_OK_AND_ASSIGN(PJRT_Buffer_Type parsed, ParseElementType(name));
    EXPECT_EQ(parsed, type) << name;
  }
  EXPECT_EQ(ElementTypeName(PJRT_Buffer_Type_F32), "f32");
  EXPECT_EQ(ElementTypeName(PJRT_Buffer_Type_S4), "s4");
  EXPECT_EQ(ElementTypeName(PJRT_Buffer_Type_PRED), "pred");
  EXPECT_EQ(ElementTypeName(9999), "unknown");
  EXPECT_EQ(ElementBitWidth(PJRT_Buffer_Type_S4), 4);
  EXPECT_EQ(ElementBitWidth(PJRT_Buffer_Type_U2), 2);
  EXPECT_EQ(ElementBitWidth(PJRT_Buffer_Type_PRED), 8);
  EXPECT_EQ(ElementBitWidth(PJRT_Buffer_Type_BF16), 16);
  EXPECT_EQ(ElementBitWidth(PJRT_Buffer_Type_C128), 128);
  EXPECT_EQ(ElementBitWidth(PJRT_Buffer_Type_TOKEN), 0);
  EXPECT_EQ(HostElementByteSize(PJRT_Buffer_Type_S4), 1);
  EXPECT_EQ(HostByteSize(PJRT_Buffer_Type_F64, {2, 3}), 48);
  PLUGRT_ASSERT_OK_AND_ASSIGN(PJRT_Buffer_Type upper, ParseElementType("F32"));
  EXPECT_EQ(upper, PJRT_Buffer_Type_F32);
  auto bad = ParseElementType("f31");
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("f31"));
  EXPECT_EQ(ParseElementType("invalid").status().code(), StatusCode::kInvalidArgument);
}

TEST(LayoutTest, ToStringAndCView) {
  EXPECT_EQ(Layout::RowMajor(3).ToString(), "{2,1,0}");
  EXPECT_EQ(Layout::ColumnMajor(2).ToString(), "{0,1}");
  EXPECT_EQ(Layout::Strided({8, 4}).ToString(), "strides{8,4}");
  Layout tiled = Layout::RowMajor(2);
  tiled.tiles = {{2, 2}, {1}};
  EXPECT_EQ(tiled.ToString(), "{1,0:T(2,2)T(1)}");
  CLayoutView view(tiled);
  EXPECT_EQ(Layout::FromC(*view.get()), tiled);
  Layout strided = Layout::Strided({12, 4});
  CLayoutView strided_view(strided);
  EXPECT_EQ(Layout::FromC(*strided_view.get()), strided);
}

}  // namespace
}  // namespace plugrt
