// Host callbacks through the dlopen-loaded CPU plugin: stablehlo.send and
// stablehlo.recv with is_host_transfer, served by the C++ client's send and
// recv callables (and, at the C ABI, PJRT_CopyToDeviceStream_*).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "client/client.h"
#include "client/executable.h"
#include "client/execute_options.h"
#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

using ::testing::HasSubstr;
using testing::CpuPlugin;
using testing::CreateCpuClient;

// Sends x*x on channel 1, receives r on channel 2, returns r + x.
constexpr const char* kSendRecvProgram = R"(
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %t = "stablehlo.create_token"() : () -> !stablehlo.token
  %sq = stablehlo.multiply %x, %x : tensor<3xf32>
  %t1 = "stablehlo.send"(%sq, %t) {
    channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>,
    is_host_transfer = true
  } : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
  %r:2 = "stablehlo.recv"(%t1) {
    channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>,
    is_host_transfer = true
  } : (!stablehlo.token) -> (tensor<3xf32>, !stablehlo.token)
  %out = stablehlo.add %r#0, %x : tensor<3xf32>
  return %out : tensor<3xf32>
}
)";

constexpr const char* kDeviceSend = R"(
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %t = "stablehlo.create_token"() : () -> !stablehlo.token
  %t1 = "stablehlo.send"(%x, %t) {
    channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>
  } : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
  return %x : tensor<3xf32>
}
)";

using testing::Upload;

std::vector<float> Download(const Buffer& buffer) { return testing::Download<float>(buffer); }

std::vector<float> AsFloats(const void* data, size_t size) {
  std::vector<float> values(size / sizeof(float));
  if (!values.empty()) std::memcpy(values.data(), data, values.size() * sizeof(float));
  return values;
}

// A recv callback that adds `values` in one chunk and records the stream's
// answers.
int64_t Or(const StatusOr<int64_t>& v) { return v.ok() ? *v : -2; }

struct Feeder {
  explicit Feeder(std::vector<float> v) : values(std::move(v)) {}
  std::vector<float> values;
  int64_t total = -1, granule = -1, before = -1, after = -1;
  Status add_status;
  HostRecvCallback Callback() {
    return [this](CopyToDeviceStream stream) {
      total = Or(stream.TotalBytes());
      granule = Or(stream.GranuleSize());
      before = Or(stream.CurrentBytes());
      StatusOr<Future> done = stream.AddChunk(values.data(), values.size() * sizeof(float));
      add_status = done.ok() ? done->Await() : done.status();
      after = Or(stream.CurrentBytes());
    };
  }
};

class HostCallbacksTest : public ::testing::Test {
 protected:
  void SetUp() override { MakeClient({}); }
  // A client of 2 devices with `extra` create options.
  void MakeClient(std::vector<NamedValue> extra) {
    auto plugin = CpuPlugin();
    ASSERT_TRUE(plugin.ok()) << plugin.status().ToString();
    ClientOptions options;
    options.create_options = std::move(extra);
    options.create_options.push_back({"cpu_device_count", int64_t{2}});
    auto client = Client::Create(*plugin, options);
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    devices_.clear();
    client_ = std::move(*client);
    auto devices = client_->addressable_devices();
    ASSERT_TRUE(devices.ok());
    devices_ = *devices;
  }
  LoadedExecutable Compile(const char* text, const CompileOptions& options = {}) {
    StatusOr<LoadedExecutable> e = client_->Compile(text, options);
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    return e.ok() ? std::move(*e) : LoadedExecutable();
  }
  std::unique_ptr<Client> client_;
  std::vector<Device> devices_;
};

TEST_F(HostCallbacksTest, SendDeliversBytesAndRecvFeedsTheResult) {
  LoadedExecutable exe = Compile(kSendRecvProgram);
  Buffer x = Upload<float>(*client_, devices_[0], PJRT_Buffer_Type_F32, {3}, {1, 2, 3});
  std::vector<float> sent;
  size_t sent_total = 0;
  bool sent_done = false;
  int send_calls = 0;
  Feeder feeder({100, 200, 300});
  ExecuteOptions options;
  options.send_callbacks = {{{1, [&](const void* data, size_t size, size_t total, bool done) {
                               ++send_calls;
                               sent = AsFloats(data, size);
                               sent_total = total;
                               sent_done = done;
                               return OkStatus();
                             }}}};
  options.recv_callbacks = {{{2, feeder.Callback()}}};
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto results, exe.Execute({{&x}}, options));
  EXPECT_EQ(send_calls, 1);
  EXPECT_EQ(sent, (std::vector<float>{1, 4, 9}));
  EXPECT_EQ(sent_total, 12u);
  EXPECT_TRUE(sent_done);
  EXPECT_EQ(feeder.total, 12);
  EXPECT_EQ(feeder.granule, 1);
  EXPECT_EQ(feeder.before, 0);
  EXPECT_EQ(feeder.after, 12);
  PLUGRT_EXPECT_OK(feeder.add_status);
  EXPECT_EQ(Download(results[0][0]), (std::vector<float>{101, 202, 303}));

  // Run again with other data: nothing is cached between runs.
  feeder.values = {-1, -2, -3};
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto again, exe.Execute({{&x}}, options));
  EXPECT_EQ(Download(again[0][0]), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(send_calls, 2);
}

TEST_F(HostCallbacksTest, RecvMayBeFedLaterFromAnotherThreadInChunks) {
  LoadedExecutable exe = Compile(kSendRecvProgram);
  Buffer x = Upload<float>(*client_, devices_[0], PJRT_Buffer_Type_F32, {3}, {1, 1, 1});
  std::thread feeder;
  std::vector<Status> chunk_status;
  std::mutex mu;
  ExecuteOptions options;
  options.send_callbacks = {{{1, [](const void*, size_t, size_t, bool) { return OkStatus(); }}}};
  options.recv_callbacks = {{{2, [&](CopyToDeviceStream stream) {
                               feeder = std::thread([&, s = std::move(stream)]() mutable {
                                 const float values[3] = {5, 6, 7};
                                 for (size_t offset : {size_t{0}, size_t{4}}) {
                                   size_t n = offset == 0 ? 4 : 8;
                                   auto done = s.AddChunk(
                                       reinterpret_cast<const char*>(values) + offset, n);
                                   std::lock_guard<std::mutex> lock(mu);
                                   chunk_status.push_back(done.ok() ? done->Await() : done.status());
                                 }
                               });
                             }}}};
  PLUGRT_ASSERT_OK_AND_ASSIGN(ExecuteResult result, exe.ExecuteAsync({{&x}}, options));
  PLUGRT_ASSERT_OK(result.device_complete[0].Await());
  if (feeder.joinable()) feeder.join();
  ASSERT_EQ(chunk_status.size(), 2u);
  PLUGRT_EXPECT_OK(chunk_status[0]);
  PLUGRT_EXPECT_OK(chunk_status[1]);
  EXPECT_EQ(Download(result.outputs[0][0]), (std::vector<float>{6, 7, 8}));
}

TEST_F(HostCallbacksTest, SendCallbackErrorFailsTheExecutionWithItsMessage) {
  LoadedExecutable exe = Compile(kSendRecvProgram);
  Buffer x = Upload<float>(*client_, devices_[0], PJRT_Buffer_Type_F32, {3}, {1, 2, 3});
  bool recv_called = false;
  ExecuteOptions options;
  options.send_callbacks = {{{1, [](const void*, size_t, size_t, bool) {
                               return ResourceExhausted("host queue is full");
                             }}}};
  options.recv_callbacks = {{{2, [&](CopyToDeviceStream) { recv_called = true; }}}};
  auto sync = exe.Execute({{&x}}, options);
  ASSERT_FALSE(sync.ok());
  EXPECT_EQ(sync.status().code(), StatusCode::kResourceExhausted);
  EXPECT_THAT(sync.status().message(), HasSubstr("host queue is full"));
  EXPECT_THAT(sync.status().message(), HasSubstr("channel 1"));
  EXPECT_FALSE(recv_called);  // the run stopped at the send

  // The asynchronous form reports it on the device's completion event.
  auto async = exe.ExecuteAsync({{&x}}, options);
  if (async.ok()) {
    Status done = async->device_complete[0].Await();
    EXPECT_EQ(done.code(), StatusCode::kResourceExhausted);
    EXPECT_THAT(done.message(), HasSubstr("host queue is full"));
  } else {
    EXPECT_THAT(async.status().message(), HasSubstr("host queue is full"));
  }
}

TEST_F(HostCallbacksTest, MissingCallbackIsAClearError) {
  LoadedExecutable exe = Compile(kSendRecvProgram);
  Buffer x = Upload<float>(*client_, devices_[0], PJRT_Buffer_Type_F32, {3}, {1, 2, 3});
  auto none = exe.Execute({{&x}});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(none.status().message(), HasSubstr("no send callback for channel 1"));

  // Callbacks for other channels only.
  ExecuteOptions options;
  options.send_callbacks = {{{1, [](const void*, size_t, size_t, bool) { return OkStatus(); }}}};
  options.recv_callbacks = {{{7, [](CopyToDeviceStream) {}}}};
  auto wrong = exe.Execute({{&x}}, options);
  ASSERT_FALSE(wrong.ok());
  EXPECT_THAT(wrong.status().message(), HasSubstr("no recv callback for channel 2"));
}

TEST_F(HostCallbacksTest, RecvWithTooManyOrTooFewBytesIsAClearError) {
  MakeClient({{"host_recv_timeout_ms", int64_t{300}}});
  LoadedExecutable exe = Compile(kSendRecvProgram);
  Buffer x = Upload<float>(*client_, devices_[0], PJRT_Buffer_Type_F32, {3}, {1, 2, 3});
  ExecuteOptions options;
  options.send_callbacks = {{{1, [](const void*, size_t, size_t, bool) { return OkStatus(); }}}};

  Feeder too_many({1, 2, 3, 4});
  options.recv_callbacks = {{{2, too_many.Callback()}}};
  auto over = exe.Execute({{&x}}, options);
  EXPECT_EQ(too_many.add_status.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(too_many.add_status.message(), HasSubstr("exceeds the stream's total of 12 bytes"));
  EXPECT_EQ(too_many.after, 0);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_THAT(over.status().message(), HasSubstr("0 of 12 bytes"));

  Feeder too_few({1});
  options.recv_callbacks = {{{2, too_few.Callback()}}};
  auto under = exe.Execute({{&x}}, options);
  PLUGRT_EXPECT_OK(too_few.add_status);
  ASSERT_FALSE(under.ok());
  EXPECT_EQ(under.status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_THAT(under.status().message(), HasSubstr("4 of 12 bytes"));
  EXPECT_THAT(under.status().message(), HasSubstr("recv callback of channel 2"));
  EXPECT_THAT(under.status().message(), HasSubstr("host_recv_timeout_ms"));
}

// The environment variable gives the option's default, read once when the
// client is created: later changes to the environment do not reach it.
TEST_F(HostCallbacksTest, RecvTimeoutDefaultsFromTheEnvironmentAtClientCreation) {
  ASSERT_EQ(setenv("PLUGRT_HOST_RECV_TIMEOUT_MS", "200", 1), 0);
  MakeClient({});
  unsetenv("PLUGRT_HOST_RECV_TIMEOUT_MS");
  LoadedExecutable exe = Compile(kSendRecvProgram);
  Buffer x = Upload<float>(*client_, devices_[0], PJRT_Buffer_Type_F32, {3}, {1, 2, 3});
  ExecuteOptions options;
  options.send_callbacks = {{{1, [](const void*, size_t, size_t, bool) { return OkStatus(); }}}};
  options.recv_callbacks = {{{2, [](CopyToDeviceStream) {}}}};  // never delivers
  auto silent = exe.Execute({{&x}}, options);
  ASSERT_FALSE(silent.ok());
  EXPECT_EQ(silent.status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_THAT(silent.status().message(), HasSubstr("0 of 12 bytes"));

  // An unusable value names the option.
  auto plugin = CpuPlugin();
  ASSERT_TRUE(plugin.ok());
  ClientOptions bad;
  bad.create_options.push_back({"host_recv_timeout_ms", int64_t{0}});
  auto refused = Client::Create(*plugin, bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.status().message(), HasSubstr("host_recv_timeout_ms"));
}

TEST_F(HostCallbacksTest, TwoDevicesUseTheirOwnCallbacks) {
  CompileOptions two_replicas;
  two_replicas.num_replicas = 2;
  LoadedExecutable exe = Compile(kSendRecvProgram, two_replicas);
  Buffer x0 = Upload<float>(*client_, devices_[0], PJRT_Buffer_Type_F32, {3}, {1, 2, 3});
  Buffer x1 = Upload<float>(*client_, devices_[1], PJRT_Buffer_Type_F32, {3}, {4, 5, 6});
  std::vector<float> sent[2];
  Feeder feed0({10, 10, 10}), feed1({20, 20, 20});
  ExecuteOptions options;
  for (int d = 0; d < 2; ++d) {
    options.send_callbacks.push_back({{1, [&sent, d](const void* data, size_t size, size_t, bool) {
                                         sent[d] = AsFloats(data, size);
                                         return OkStatus();
                                       }}});
  }
  options.recv_callbacks = {{{2, feed0.Callback()}}, {{2, feed1.Callback()}}};
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto results, exe.Execute({{&x0}, {&x1}}, options));
  EXPECT_EQ(sent[0], (std::vector<float>{1, 4, 9}));
  EXPECT_EQ(sent[1], (std::vector<float>{16, 25, 36}));
  EXPECT_EQ(Download(results[0][0]), (std::vector<float>{11, 12, 13}));
  EXPECT_EQ(Download(results[1][0]), (std::vector<float>{24, 25, 26}));
}

TEST_F(HostCallbacksTest, BadCallbackListsAreInvalidArgument) {
  LoadedExecutable exe = Compile(kSendRecvProgram);
  Buffer x = Upload<float>(*client_, devices_[0], PJRT_Buffer_Type_F32, {3}, {1, 2, 3});
  ExecuteOptions empty_fn;
  empty_fn.send_callbacks = {{{1, HostSendCallback()}}};
  auto r1 = exe.Execute({{&x}}, empty_fn);
  ASSERT_FALSE(r1.ok());
  EXPECT_EQ(r1.status().code(), StatusCode::kInvalidArgument);

  ExecuteOptions wrong_devices;
  wrong_devices.send_callbacks = {{}, {}};
  auto r2 = exe.Execute({{&x}}, wrong_devices);
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.status().code(), StatusCode::kInvalidArgument);

  // At the C ABI: num_send_ops without arrays, and a null function.
  const PJRT_Api* api = exe.api();
  PJRT_ExecuteOptions c{};
  c.struct_size = PJRT_ExecuteOptions_STRUCT_SIZE;
  c.num_send_ops = 1;
  PJRT_Buffer* row[1] = {x.raw()};
  PJRT_Buffer* const* lists[1] = {row};
  PJRT_Buffer* out_row[1] = {nullptr};
  PJRT_Buffer** outs[1] = {out_row};
  PJRT_LoadedExecutable_Execute_Args args{};
  args.struct_size = PJRT_LoadedExecutable_Execute_Args_STRUCT_SIZE;
  args.executable = exe.raw();
  args.options = &c;
  args.argument_lists = lists;
  args.num_devices = 1;
  args.num_args = 1;
  args.output_lists = outs;
  auto code_of = [&](PJRT_Error* error) {
    if (error == nullptr) return PJRT_Error_Code_OK;
    PJRT_Error_GetCode_Args g{};
    g.struct_size = PJRT_Error_GetCode_Args_STRUCT_SIZE;
    g.error = error;
    api->PJRT_Error_GetCode(&g);
    PJRT_Error_Destroy_Args d{};
    d.struct_size = PJRT_Error_Destroy_Args_STRUCT_SIZE;
    d.error = error;
    api->PJRT_Error_Destroy(&d);
    return g.code;
  };
  EXPECT_EQ(code_of(api->PJRT_LoadedExecutable_Execute(&args)), PJRT_Error_Code_INVALID_ARGUMENT);
  PJRT_SendCallbackInfo info{1, nullptr, nullptr};
  PJRT_SendCallbackInfo* send_rows[1] = {&info};
  c.send_callbacks = send_rows;
  EXPECT_EQ(code_of(api->PJRT_LoadedExecutable_Execute(&args)), PJRT_Error_Code_INVALID_ARGUMENT);
  EXPECT_EQ(out_row[0], nullptr);
}

TEST_F(HostCallbacksTest, StreamEntriesRejectNullHandlesAndFreeTheChunk) {
  const PJRT_Api* api = client_->api();
  int freed = 0;
  PJRT_Chunk chunk{std::malloc(4), 4, [](void* data, void* arg) {
                     std::free(data);
                     ++*static_cast<int*>(arg);
                   },
                   &freed};
  PJRT_CopyToDeviceStream_AddChunk_Args add{};
  add.struct_size = PJRT_CopyToDeviceStream_AddChunk_Args_STRUCT_SIZE;
  add.stream = nullptr;
  add.chunk = &chunk;
  PJRT_Error* error = api->PJRT_CopyToDeviceStream_AddChunk(&add);
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(freed, 1);  // ownership passed even though the call failed
  PJRT_Error_Destroy_Args d{};
  d.struct_size = PJRT_Error_Destroy_Args_STRUCT_SIZE;
  d.error = error;
  api->PJRT_Error_Destroy(&d);

  PJRT_CopyToDeviceStream_TotalBytes_Args total{};
  total.struct_size = PJRT_CopyToDeviceStream_TotalBytes_Args_STRUCT_SIZE;
  error = api->PJRT_CopyToDeviceStream_TotalBytes(&total);
  ASSERT_NE(error, nullptr);
  d.error = error;
  api->PJRT_Error_Destroy(&d);

  PJRT_CopyToDeviceStream_Destroy_Args destroy{};
  destroy.struct_size = PJRT_CopyToDeviceStream_Destroy_Args_STRUCT_SIZE;
  EXPECT_EQ(api->PJRT_CopyToDeviceStream_Destroy(&destroy), nullptr);  // null is allowed
}

TEST_F(HostCallbacksTest, DeviceToDeviceSendIsUnimplemented) {
  StatusOr<LoadedExecutable> exe = client_->Compile(kDeviceSend);
  Status status = exe.status();
  if (exe.ok()) {
    Buffer x = Upload<float>(*client_, devices_[0], PJRT_Buffer_Type_F32, {3}, {1, 2, 3});
    status = exe->Execute({{&x}}).status();
  }
  EXPECT_EQ(status.code(), StatusCode::kUnimplemented);
  EXPECT_THAT(status.message(), HasSubstr("device-to-device send/recv"));
}

}  // namespace
}  // namespace plugrt
