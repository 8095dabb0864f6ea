// Remote execution: workers (`plugrt serve`, started here on loopback ports
// they pick) and the remote plugin (libplugrt_remote.so) loaded through the
// client like any plugin. Results equal local ones; the token is required;
// a killed worker is an UNAVAILABLE error naming it, never a hang; idle
// contexts expire; clients on one worker are isolated; large arrays stream
// without the worker holding them twice; malformed requests are errors.
#include <gmock/gmock.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "client/client.h"
#include "client/executable.h"
#include "client/npy.h"
#include "proto/remote_worker.grpc.pb.h"
#include "testutil/plugin_env.h"
#include "testutil/remote_worker.h"
#include "testutil/run_command.h"
#include "testutil/temp_dir.h"
#include "testutil/test_certificates.h"
#include "testutil/programs.h"

namespace plugrt {
namespace {

using plugrt::testing::kDonatingAddProgram;
using plugrt::testing::kOversizedProgram;

using ::testing::HasSubstr;
namespace wire = remote::wire;

constexpr const char* kToken = testing::kRemoteToken;

constexpr const char* kProgram = R"(
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.multiply %0, %a : tensor<4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.reduce(%1 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %1, %2 : tensor<4xf32>, tensor<f32>
}
)";

// Runs until the worker is killed.
constexpr const char* kEndlessProgram = R"(
func.func @main(%x: tensor<i64>) -> tensor<i64> {
  %r = stablehlo.while(%i = %x) : tensor<i64>
  cond {
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i64>
    %n = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %n : tensor<i64>
  }
  return %r : tensor<i64>
}
)";

using Worker = testing::RemoteWorker;
std::string TestDir() { return testing::RemoteTestDir(); }
std::string WriteFile(const std::string& name, const std::string& text) {
  return testing::WriteRemoteTestFile(name, text);
}
std::string TokenFile() { return testing::RemoteTokenFile(); }

StatusOr<std::shared_ptr<Plugin>> RemotePlugin() { return Plugin::Load(PLUGRT_REMOTE_PLUGIN_PATH); }

StatusOr<std::unique_ptr<Client>> RemoteClient(const Worker& worker, int64_t keep_alive = 30,
                                               const std::string& token_file = TokenFile()) {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, RemotePlugin());
  ClientOptions options;
  options.create_options = {NamedValue{"address", worker.address()},
                            NamedValue{"token_file", token_file},
                            NamedValue{"keep_alive_secs", keep_alive}};
  return Client::Create(plugin, options);
}

std::vector<float> RunProgram(const Client& client, const std::vector<float>& a,
                              const std::vector<float>& b, float* sum) {
  auto devices = client.addressable_devices();
  EXPECT_TRUE(devices.ok()) << devices.status().ToString();
  auto compiled = client.Compile(kProgram);
  EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
  if (!compiled.ok()) return {};
  auto x = client.BufferFromHostBuffer({a.data(), PJRT_Buffer_Type_F32, {4}}, (*devices)[0]);
  auto y = client.BufferFromHostBuffer({b.data(), PJRT_Buffer_Type_F32, {4}}, (*devices)[0]);
  EXPECT_TRUE(x.ok() && y.ok());
  if (!x.ok() || !y.ok()) return {};
  auto outputs = compiled->Execute({{&x->first, &y->first}});
  EXPECT_TRUE(outputs.ok()) << outputs.status().ToString();
  if (!outputs.ok()) return {};
  std::vector<float> product(4);
  EXPECT_TRUE((*outputs)[0][0].ToHost(product.data(), 16).ok());
  EXPECT_TRUE((*outputs)[0][1].ToHost(sum, 4).ok());
  return product;
}

TEST(RemoteTest, ProgramRunsAsLocally) {
  Worker worker;
  ASSERT_TRUE(worker.ok());
  auto remote = RemoteClient(worker);
  ASSERT_TRUE(remote.ok()) << remote.status().ToString();
  auto local = testing::CreateCpuClient(2);
  ASSERT_TRUE(local.ok());
  EXPECT_EQ((*remote)->platform_name().value(), "cpu");
  EXPECT_EQ((*remote)->addressable_devices()->size(), 2u);

  std::vector<float> a = {1, 2, 3, 4}, b = {0.5f, -1, 2, 8};
  float remote_sum = 0, local_sum = 0;
  std::vector<float> remote_out = RunProgram(**remote, a, b, &remote_sum);
  std::vector<float> local_out = RunProgram(**local, a, b, &local_sum);
  EXPECT_EQ(remote_out, local_out);
  EXPECT_EQ(remote_out, (std::vector<float>{1.5f, 2, 15, 48}));
  EXPECT_EQ(remote_sum, local_sum);
  EXPECT_EQ(remote_sum, 66.5f);
}

TEST(RemoteTest, DonationAndSerializedExecutables) {
  Worker worker;
  ASSERT_TRUE(worker.ok());
  auto client = RemoteClient(worker);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  auto device = (*client)->addressable_devices().value()[1];
  auto compiled = (*client)->Compile(kDonatingAddProgram);
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  // Through a serialized executable, loaded again on the worker.
  auto serialized = compiled->Serialize();
  ASSERT_TRUE(serialized.ok()) << serialized.status().ToString();
  auto reloaded = (*client)->DeserializeAndLoad(*serialized);
  ASSERT_TRUE(reloaded.ok()) << reloaded.status().ToString();

  std::vector<float> a = {1, 2, 3, 4}, b = {10, 20, 30, 40};
  auto x = (*client)->BufferFromHostBuffer({a.data(), PJRT_Buffer_Type_F32, {4}}, device);
  auto y = (*client)->BufferFromHostBuffer({b.data(), PJRT_Buffer_Type_F32, {4}}, device);
  ASSERT_TRUE(x.ok() && y.ok());
  ExecuteOptions on_device;
  on_device.execute_device = device;
  auto outputs = reloaded->Execute({{&x->first, &y->first}}, on_device);
  ASSERT_TRUE(outputs.ok()) << outputs.status().ToString();
  std::vector<float> sum(4);
  ASSERT_TRUE((*outputs)[0][0].ToHost(sum.data(), 16).ok());
  EXPECT_EQ(sum, (std::vector<float>{11, 22, 33, 44}));
  EXPECT_EQ((*outputs)[0][0].device()->id().value(), device.id().value());
  // The donated argument is gone, on both sides; the other one lives.
  EXPECT_TRUE(x->first.is_deleted().value());
  EXPECT_FALSE(y->first.is_deleted().value());
  auto again = reloaded->Execute({{&x->first, &y->first}}, on_device);
  ASSERT_FALSE(again.ok());
  EXPECT_THAT(again.status().message(), HasSubstr("deleted"));
}

TEST(RemoteTest, ExecutionErrorsReachTheClient) {
  Worker worker;
  ASSERT_TRUE(worker.ok());
  auto client = RemoteClient(worker);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  auto compiled = (*client)->Compile(kOversizedProgram);
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  float one = 1;
  auto device = (*client)->addressable_devices().value()[0];
  auto x = (*client)->BufferFromHostBuffer({&one, PJRT_Buffer_Type_F32, {}}, device);
  ASSERT_TRUE(x.ok());
  auto outputs = compiled->Execute({{&x->first}});
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(outputs.status().code(), StatusCode::kResourceExhausted);
  EXPECT_THAT(outputs.status().message(), HasSubstr("broadcast_in_dim"));
  // The worker and the client go on.
  float sum = 0;
  EXPECT_EQ(RunProgram(**client, {1, 1, 1, 1}, {1, 1, 1, 1}, &sum), (std::vector<float>{2, 2, 2, 2}));
}

TEST(RemoteTest, PlugrtRunUsesTheRemotePlugin) {
  Worker worker;
  ASSERT_TRUE(worker.ok());
  std::string program = WriteFile("program.mlir", kProgram);
  std::vector<float> a = {1, 2, 3, 4}, b = {0.5f, -1, 2, 8};
  std::string dir = TestDir();
  for (auto [name, values] : {std::pair{"a", &a}, std::pair{"b", &b}}) {
    HostArray array{PJRT_Buffer_Type_F32, {4}, std::vector<std::byte>(16)};
    std::memcpy(array.data.data(), values->data(), 16);
    ASSERT_TRUE(WriteNpyFile(dir + "/" + name + ".npy", array).ok());
  }
  std::string args = program + " -i " + dir + "/a.npy -i " + dir + "/b.npy";
  testing::CommandResult local = testing::RunCli("run " + args);
  ASSERT_EQ(local.exit_code, 0) << local.output;
  std::string env = "PLUGRT_REMOTE_ADDRESS=" + worker.address() +
                    " PLUGRT_REMOTE_TOKEN_FILE=" + TokenFile() + " ";
  testing::CommandResult remote = testing::RunCommand(
      env + PLUGRT_CLI_PATH + " run --plugin " + PLUGRT_REMOTE_PLUGIN_PATH + " " + args);
  ASSERT_EQ(remote.exit_code, 0) << remote.output;
  EXPECT_EQ(remote.output, local.output);
  // The same program as a portable artifact (MLIR bytecode), compiled on
  // the worker from its bytes.
  std::string bytecode = dir + "/program.mlirbc";
  ASSERT_EQ(testing::RunCli("convert " + program + " -o " + bytecode).exit_code, 0);
  testing::CommandResult from_bytecode = testing::RunCommand(
      env + PLUGRT_CLI_PATH + " run --plugin " + PLUGRT_REMOTE_PLUGIN_PATH + " " + bytecode +
      " -i " + dir + "/a.npy -i " + dir + "/b.npy");
  ASSERT_EQ(from_bytecode.exit_code, 0) << from_bytecode.output;
  EXPECT_EQ(from_bytecode.output, local.output);
  // Without the token the run is refused.
  testing::CommandResult refused = testing::RunCommand(
      "PLUGRT_REMOTE_ADDRESS=" + worker.address() + " PLUGRT_REMOTE_TOKEN=wrong " +
      PLUGRT_CLI_PATH + " run --plugin " + PLUGRT_REMOTE_PLUGIN_PATH + " " + args);
  EXPECT_TRUE(testing::FailedWith(refused, 1, "UNAUTHENTICATED"));
}

// A raw protocol client, for what the plugin never sends.
class RawClient {
 public:
  RawClient(const Worker& worker, std::string token = kToken)
      : token_(std::move(token)),
        stub_(wire::Worker::NewStub(
            grpc::CreateChannel(worker.address(), grpc::InsecureChannelCredentials()))) {}
  std::unique_ptr<grpc::ClientContext> Call() {
    auto call = std::make_unique<grpc::ClientContext>();
    if (!token_.empty()) call->AddMetadata("plugrt-token", token_);
    call->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    return call;
  }
  wire::Worker::Stub& stub() { return *stub_; }
  uint64_t Open(uint32_t keep_alive) {
    wire::CreateContextRequest request;
    request.set_keep_alive_secs(keep_alive);
    wire::CreateContextResponse response;
    grpc::Status status = stub_->CreateContext(Call().get(), request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response.context_id();
  }
  grpc::Status Upload(uint64_t context, int type, std::vector<int64_t> dims,
                      const std::vector<std::string>& chunks, wire::BufferInfo* info,
                      int device = 0) {
    auto call = Call();
    auto writer = stub_->Upload(call.get(), info);
    wire::UploadChunk header;
    header.set_context_id(context);
    header.set_device_id(device);
    header.mutable_shape()->set_element_type(type);
    for (int64_t d : dims) header.mutable_shape()->add_dims(d);
    writer->Write(header);
    for (const std::string& data : chunks) {
      wire::UploadChunk chunk;
      chunk.set_data(data);
      if (!writer->Write(chunk)) break;
    }
    writer->WritesDone();
    return writer->Finish();
  }
  grpc::Status KeepAlive(uint64_t context) {
    wire::ContextRef request;
    request.set_context_id(context);
    wire::KeepAliveResponse response;
    return stub_->KeepAlive(Call().get(), request, &response);
  }
  grpc::Status Download(uint64_t context, uint64_t handle, std::string* bytes) {
    wire::DownloadRequest request;
    request.set_context_id(context);
    request.set_handle(handle);
    auto call = Call();
    auto reader = stub_->Download(call.get(), request);
    wire::DataChunk chunk;
    while (reader->Read(&chunk)) *bytes += chunk.data();
    return reader->Finish();
  }

 private:
  std::string token_;
  std::unique_ptr<wire::Worker::Stub> stub_;
};

TEST(RemoteTest, TokenIsRequired) {
  Worker worker;
  ASSERT_TRUE(worker.ok());
  auto wrong = RemoteClient(worker, 30, WriteFile("wrong_token", "not-the-token"));
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), StatusCode::kUnauthenticated);
  EXPECT_THAT(wrong.status().message(), HasSubstr(worker.address()));
  auto missing = RemoteClient(worker, 30, TestDir() + "/no_such_token");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("no_such_token"));

  // Refused before the request is read: even a malformed one.
  for (std::string token : {std::string(), std::string("wrong")}) {
    RawClient raw(worker, token);
    wire::CreateContextRequest request;  // keep_alive_secs 0: invalid
    wire::CreateContextResponse response;
    EXPECT_EQ(raw.stub().CreateContext(raw.Call().get(), request, &response).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
    wire::BufferInfo info;
    EXPECT_EQ(raw.Upload(1, PJRT_Buffer_Type_F32, {1}, {std::string(4, 'x')}, &info).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  // The worker refuses to start without a token.
  testing::CommandResult no_token =
      testing::RunCommand("env -u PLUGRT_REMOTE_TOKEN -u PLUGRT_REMOTE_TOKEN_FILE " +
                          std::string(PLUGRT_CLI_PATH) + " serve --listen 127.0.0.1:0");
  EXPECT_TRUE(testing::FailedWith(no_token, 1, "no remote token"));
}

TEST(RemoteTest, MalformedRequestsAreErrors) {
  Worker worker;
  ASSERT_TRUE(worker.ok());
  RawClient raw(worker);
  uint64_t context = raw.Open(30);
  wire::BufferInfo info;
  auto code = [](const grpc::Status& status) { return status.error_code(); };
  EXPECT_EQ(code(raw.Upload(context, 9999, {4}, {}, &info)), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(code(raw.Upload(context, PJRT_Buffer_Type_F32, {-1}, {}, &info)),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(code(raw.Upload(context, PJRT_Buffer_Type_F32, {int64_t{1} << 62, 8}, {}, &info)),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(code(raw.Upload(context, PJRT_Buffer_Type_F32, {int64_t{1} << 50}, {}, &info)),
            grpc::StatusCode::RESOURCE_EXHAUSTED);  // more than the machine has
  EXPECT_EQ(code(raw.Upload(context, PJRT_Buffer_Type_F32, {2}, {std::string(12, 'x')}, &info)),
            grpc::StatusCode::INVALID_ARGUMENT);  // too many bytes
  EXPECT_EQ(code(raw.Upload(context, PJRT_Buffer_Type_F32, {2}, {std::string(4, 'x')}, &info)),
            grpc::StatusCode::INVALID_ARGUMENT);  // too few
  EXPECT_EQ(code(raw.Upload(context, PJRT_Buffer_Type_F32, {2}, {std::string(8, 'x')}, &info, 7)),
            grpc::StatusCode::INVALID_ARGUMENT);  // no device 7
  EXPECT_EQ(code(raw.Upload(context + 1, PJRT_Buffer_Type_F32, {2}, {std::string(8, 'x')}, &info)),
            grpc::StatusCode::NOT_FOUND);  // no such context
  ASSERT_TRUE(raw.Upload(context, PJRT_Buffer_Type_F32, {2}, {std::string(8, 'x')}, &info).ok());

  std::string bytes;
  EXPECT_EQ(code(raw.Download(context, info.handle() + 100, &bytes)),
            grpc::StatusCode::INVALID_ARGUMENT);
  wire::CompileRequest compile;
  compile.set_context_id(context);
  compile.set_program("func.func @main( this is not a program");
  wire::ExecutableInfo executable;
  EXPECT_EQ(code(raw.stub().Compile(raw.Call().get(), compile, &executable)),
            grpc::StatusCode::INVALID_ARGUMENT);
  compile.clear_program();
  EXPECT_EQ(code(raw.stub().Compile(raw.Call().get(), compile, &executable)),
            grpc::StatusCode::INVALID_ARGUMENT);  // no program at all
  compile.set_program(kProgram);
  ASSERT_TRUE(raw.stub().Compile(raw.Call().get(), compile, &executable).ok());
  // Wrong argument count, shapes, unknown handles, a buffer as executable.
  auto execute = [&](std::vector<uint64_t> args, uint64_t handle) {
    wire::ExecuteRequest request;
    request.set_context_id(context);
    request.set_executable(handle);
    for (uint64_t arg : args) request.add_argument_lists()->add_buffers(arg);
    wire::ExecutionStatus response;
    return raw.stub().Execute(raw.Call().get(), request, &response);
  };
  EXPECT_EQ(code(execute({info.handle()}, executable.handle())), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(code(execute({info.handle(), 12345}, executable.handle())),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(code(execute({info.handle(), info.handle()}, info.handle())),
            grpc::StatusCode::INVALID_ARGUMENT);
  wire::DeleteRequest remove;
  remove.set_context_id(context);
  remove.add_buffers(info.handle());
  remove.add_buffers(777);
  wire::Empty empty;
  EXPECT_EQ(code(raw.stub().Delete(raw.Call().get(), remove, &empty)),
            grpc::StatusCode::INVALID_ARGUMENT);
  // After all that, the worker still serves.
  bytes.clear();
  ASSERT_TRUE(raw.Download(context, info.handle(), &bytes).ok());
  EXPECT_EQ(bytes, std::string(8, 'x'));
}

TEST(RemoteTest, ClientsOnOneWorkerAreIsolated) {
  Worker worker;
  ASSERT_TRUE(worker.ok());
  RawClient raw(worker);
  uint64_t first = raw.Open(30), second = raw.Open(30);
  ASSERT_NE(first, second);
  wire::BufferInfo info;
  ASSERT_TRUE(raw.Upload(first, PJRT_Buffer_Type_U8, {3}, {"abc"}, &info).ok());
  std::string bytes;
  grpc::Status foreign = raw.Download(second, info.handle(), &bytes);
  EXPECT_EQ(foreign.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(foreign.error_message(), HasSubstr("not a live buffer of context"));
  ASSERT_TRUE(raw.Download(first, info.handle(), &bytes).ok());
  EXPECT_EQ(bytes, "abc");

  // Two plugin clients running at once, each with its own results; closing
  // one leaves the other working.
  auto a = RemoteClient(worker), b = RemoteClient(worker);
  ASSERT_TRUE(a.ok() && b.ok());
  std::vector<float> out_a, out_b;
  float sum_a = 0, sum_b = 0;
  std::thread ta([&] {
    for (int i = 0; i < 20; ++i) out_a = RunProgram(**a, {1, 2, 3, 4}, {1, 1, 1, 1}, &sum_a);
  });
  std::thread tb([&] {
    for (int i = 0; i < 20; ++i) out_b = RunProgram(**b, {2, 2, 2, 2}, {0, 1, 2, 3}, &sum_b);
  });
  ta.join();
  tb.join();
  EXPECT_EQ(out_a, (std::vector<float>{2, 6, 12, 20}));
  EXPECT_EQ(out_b, (std::vector<float>{4, 6, 8, 10}));
  a->reset();
  float sum = 0;
  EXPECT_EQ(RunProgram(**b, {1, 1, 1, 1}, {1, 1, 1, 1}, &sum), (std::vector<float>{2, 2, 2, 2}));
}

TEST(RemoteTest, IdleContextsExpireAndHeartbeatsKeepThemAlive) {
  Worker worker;
  ASSERT_TRUE(worker.ok());
  RawClient raw(worker);
  uint64_t context = raw.Open(1);
  wire::BufferInfo info;
  ASSERT_TRUE(raw.Upload(context, PJRT_Buffer_Type_U8, {3}, {"abc"}, &info).ok());
  EXPECT_TRUE(raw.KeepAlive(context).ok());
  // Idle for well over keep_alive_secs: dropped with its buffer.
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  grpc::Status expired = raw.KeepAlive(context);
  EXPECT_EQ(expired.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(expired.error_message(), HasSubstr("expired"));
  std::string bytes;
  EXPECT_THAT(raw.Download(context, info.handle(), &bytes).error_message(), HasSubstr("expired"));

  // The plugin's heartbeats keep an idle client's context (keep_alive 1 s).
  auto client = RemoteClient(worker, 1);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  std::vector<uint8_t> data = {1, 2, 3};
  auto device = (*client)->addressable_devices().value()[0];
  auto buffer = (*client)->BufferFromHostBuffer({data.data(), PJRT_Buffer_Type_U8, {3}}, device);
  ASSERT_TRUE(buffer.ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  std::vector<uint8_t> back(3);
  ASSERT_TRUE(buffer->first.ToHost(back.data(), 3).ok());
  EXPECT_EQ(back, data);
}

TEST(RemoteTest, KilledWorkerIsAnErrorNotAHang) {
  Worker worker;
  ASSERT_TRUE(worker.ok());
  auto client = RemoteClient(worker, 1);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  auto compiled = (*client)->Compile(kEndlessProgram);
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  int64_t start = 0;
  auto device = (*client)->addressable_devices().value()[0];
  auto x = (*client)->BufferFromHostBuffer({&start, PJRT_Buffer_Type_S64, {}}, device);
  ASSERT_TRUE(x.ok());
  auto launched = compiled->ExecuteAsync({{&x->first}});
  ASSERT_TRUE(launched.ok()) << launched.status().ToString();
  EXPECT_FALSE(launched->device_complete[0].IsReady().value());
  worker.Stop(SIGKILL);
  Status ended = launched->device_complete[0].Await();
  EXPECT_EQ(ended.code(), StatusCode::kUnavailable);
  EXPECT_THAT(ended.message(), HasSubstr(worker.address()));
  // The output's copy and later calls fail the same way, at once.
  int64_t value = 0;
  Status copied = launched->outputs[0][0].ToHost(&value, sizeof(value));
  EXPECT_EQ(copied.code(), StatusCode::kUnavailable);
  auto later = (*client)->BufferFromHostBuffer({&start, PJRT_Buffer_Type_S64, {}}, device);
  ASSERT_FALSE(later.ok());
  EXPECT_EQ(later.status().code(), StatusCode::kUnavailable);
  EXPECT_THAT(later.status().message(), HasSubstr(worker.address()));
}

TEST(RemoteTest, WorkerStopsAtOnceOnSigterm) {
  Worker worker;
  ASSERT_TRUE(worker.ok());
  auto client = RemoteClient(worker, 1);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  auto compiled = (*client)->Compile(kEndlessProgram);
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  int64_t start = 0;
  auto device = (*client)->addressable_devices().value()[0];
  auto x = (*client)->BufferFromHostBuffer({&start, PJRT_Buffer_Type_S64, {}}, device);
  ASSERT_TRUE(x.ok());
  auto launched = compiled->ExecuteAsync({{&x->first}});
  ASSERT_TRUE(launched.ok()) << launched.status().ToString();
  // A download waiting for the endless program is cancelled, not waited for.
  std::thread download([&] {
    int64_t value = 0;
    EXPECT_FALSE(launched->outputs[0][0].ToHost(&value, sizeof(value)).ok());
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  int status = worker.Stop(SIGTERM);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(launched->device_complete[0].Await().code(), StatusCode::kUnavailable);
  download.join();
}

TEST(RemoteTest, IdleClientLearnsOfADeadWorker) {
  Worker worker;
  ASSERT_TRUE(worker.ok());
  auto client = RemoteClient(worker, 1);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  auto compiled = (*client)->Compile(kProgram);
  ASSERT_TRUE(compiled.ok());
  std::string address = worker.address();
  worker.Stop(SIGKILL);
  // The heartbeats (three per keep-alive period) find the worker gone: the
  // next call fails with their report, without trying the worker again.
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  auto serialized = compiled->Serialize();
  ASSERT_FALSE(serialized.ok());
  EXPECT_EQ(serialized.status().code(), StatusCode::kUnavailable);
  EXPECT_THAT(serialized.status().message(), HasSubstr(address));
  EXPECT_THAT(serialized.status().message(), HasSubstr("heartbeat"));
}

// Large arrays stream in chunks, written on the worker straight into the
// buffer's memory: its peak memory grows by the array once, not twice.
TEST(RemoteTest, LargeArraysStreamWithoutASecondCopy) {
#ifdef PLUGRT_TEST_ASAN
  constexpr int64_t kBytes = int64_t{64} << 20;
#else
  constexpr int64_t kBytes = int64_t{PLUGRT_REMOTE_LARGE_TRANSFER_MIB} << 20;
#endif
  Worker worker(1);
  ASSERT_TRUE(worker.ok());
  auto client = RemoteClient(worker);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  std::vector<uint32_t> data(kBytes / 4);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint32_t>(i * 2654435761u);
  auto device = (*client)->addressable_devices().value()[0];
  worker.ResetPeak();
  const int64_t before = worker.ResidentBytes();
  auto buffer = (*client)->BufferFromHostBuffer(
      {data.data(), PJRT_Buffer_Type_U32, {static_cast<int64_t>(data.size())}}, device);
  ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
  const int64_t peak = worker.PeakBytes();
  EXPECT_GT(peak - before, kBytes * 9 / 10);  // the array is there
  EXPECT_LT(peak - before, kBytes * 3 / 2) << "the worker held the array twice";
  std::vector<uint32_t> back(data.size());
  worker.ResetPeak();
  const int64_t resident = worker.ResidentBytes();
  ASSERT_TRUE(buffer->first.ToHost(back.data(), kBytes).ok());
  EXPECT_LT(worker.PeakBytes() - resident, kBytes / 4) << "the download copied the array";
  EXPECT_TRUE(back == data);
}

// A worker with mutual TLS: a client with a certificate the worker's CA
// signed runs programs; one with a stranger's certificate, or none, is
// refused as UNAUTHENTICATED naming the worker.
TEST(RemoteTlsTest, AWorkerWithMutualTlsServesOnlyCertifiedClients) {
  testing::TempDir dir("remote-tls");
  testing::TestCertificates certs = testing::MakeTestCertificates(dir.path());
  if (!certs.error.empty()) GTEST_SKIP() << certs.error;
  Worker worker(1, {"--tls-cert", certs.server_cert, "--tls-key", certs.server_key, "--tls-ca",
                    certs.ca});
  ASSERT_TRUE(worker.ok());
  auto plugin = RemotePlugin();
  ASSERT_TRUE(plugin.ok()) << plugin.status().ToString();
  auto connect = [&](const std::string& cert, const std::string& key) {
    ClientOptions options;
    options.create_options = {NamedValue{"address", worker.address()},
                              NamedValue{"token_file", TokenFile()},
                              NamedValue{"tls_ca", certs.ca}};
    if (!cert.empty()) {
      options.create_options.push_back(NamedValue{"tls_cert", cert});
      options.create_options.push_back(NamedValue{"tls_key", key});
    }
    return Client::Create(*plugin, options);
  };
  auto client = connect(certs.client_cert, certs.client_key);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  float sum = 0;
  std::vector<float> out = RunProgram(**client, {1, 2, 3, 4}, {10, 20, 30, 40}, &sum);
  EXPECT_EQ(out, (std::vector<float>{11, 44, 99, 176}));  // a * (a + b), as run locally
  for (const auto& [cert, key] : {std::pair{certs.stranger_cert, certs.stranger_key},
                                  std::pair{std::string(), std::string()}}) {
    auto refused = connect(cert, key);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().code(), StatusCode::kUnauthenticated) << refused.status().ToString();
    EXPECT_NE(refused.status().message().find(worker.address()), std::string::npos)
        << refused.status().ToString();
  }
}

TEST(RemoteTlsTest, ClearTextOffLoopbackNeedsConsent) {
  testing::CommandResult serve =
      testing::RunCli("serve --listen 0.0.0.0:0 --token-file " + TokenFile());
  EXPECT_TRUE(testing::FailedWith(serve, 1, "PLUGRT_ALLOW_INSECURE=1")) << serve.output;
  auto plugin = RemotePlugin();
  ASSERT_TRUE(plugin.ok());
  ClientOptions options;
  options.create_options = {NamedValue{"address", std::string("198.18.0.9:4000")},
                            NamedValue{"token_file", TokenFile()}};
  auto client = Client::Create(*plugin, options);
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kFailedPrecondition) << client.status().ToString();
  EXPECT_NE(client.status().message().find("clear text"), std::string::npos);
}

}  // namespace
}  // namespace plugrt
