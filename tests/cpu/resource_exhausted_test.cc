// Failures end as errors: programs that need more memory than there is, and
// every allocation of a representative program failing in turn (the
// backend's fault-injection hook), end in RESOURCE_EXHAUSTED delivered
// through the execute call and the output events: no hang, no leak (device
// memory back where it started; the sanitizer pass checks host memory), and
// the process runs programs normally afterwards.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "client/client.h"
#include "client/plugin.h"
#include "cpu/cpu_plugin.h"
#include "cpu/kernels/host_memory.h"
#include "sdk/plugin.h"
#include "testutil/plugin_env.h"
#include "testutil/run_command.h"
#include "testutil/programs.h"

namespace plugrt {
namespace {

using plugrt::testing::kOversizedProgram;

using ::testing::HasSubstr;

// A softmax over a matrix product with a row reduction kept: oneDNN's GEMM
// and scratch, fused loops with row reductions, reductions, broadcasts, data
// movement (transpose, concatenate) and two outputs.
constexpr const char* kRepresentative = R"(
func.func @main(%x: tensor<128x256xf32>, %w: tensor<256x128xf32>) -> (tensor<128x128xf32>, tensor<256xf32>) {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<128x256xf32>, tensor<256x128xf32>) -> tensor<128x128xf32>
  %e = stablehlo.exponential %d : tensor<128x128xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<128x128xf32>, tensor<f32>) -> tensor<128xf32>
  %b = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<128xf32>) -> tensor<128x128xf32>
  %q = stablehlo.divide %e, %b : tensor<128x128xf32>
  %t = stablehlo.tanh %q : tensor<128x128xf32>
  %tt = stablehlo.transpose %t, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = stablehlo.reverse %s, dims = [0] : tensor<128xf32>
  %c = stablehlo.concatenate %s, %r, dim = 0 : (tensor<128xf32>, tensor<128xf32>) -> tensor<256xf32>
  return %tt, %c : tensor<128x128xf32>, tensor<256xf32>
}
)";

// Two replicas meeting in an all_reduce after a computation that allocates
// (small: the reduction body runs per element, each run allocating).
constexpr const char* kCollective = R"(
module @collective attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 1 : i32} {
  func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %e = stablehlo.exponential %x : tensor<4x4xf32>
    %r = "stablehlo.all_reduce"(%e) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %n = stablehlo.negate %r : tensor<4x4xf32>
    return %n : tensor<4x4xf32>
  }
}
)";

bool IsOutOfMemory(const Status& status) {
  return status.code() == StatusCode::kResourceExhausted &&
         (status.message().find("cannot allocate") != std::string::npos ||
          status.message().find("out of memory") != std::string::npos);
}

// The CPU plugin built in this process (not through dlopen), so that the
// test's calls to InjectHostAllocationFailure reach its allocator.
std::shared_ptr<Plugin> InProcessCpuPlugin() {
  static const PJRT_Api* api = sdk::BuildApi(std::make_unique<cpu::CpuPlugin>());
  auto plugin = Plugin::FromApi(api, "in-process CPU plugin");
  EXPECT_TRUE(plugin.ok()) << plugin.status().ToString();
  return plugin.ok() ? *plugin : nullptr;
}

std::unique_ptr<Client> NewClient(const std::shared_ptr<Plugin>& plugin, int devices) {
  ClientOptions options;
  options.create_options.push_back({"cpu_device_count", int64_t{devices}});
  auto client = Client::Create(plugin, options);
  EXPECT_TRUE(client.ok()) << client.status().ToString();
  return client.ok() ? std::move(*client) : nullptr;
}

// Disarms the hook when a test ends, whatever happened.
struct InjectionGuard {
  ~InjectionGuard() { cpu::InjectHostAllocationFailure(0); }
};

TEST(ResourceExhaustedTest, OversizedOutputFailsThroughTheClient) {
  auto plugin = testing::CpuPlugin();  // the real plugin, through dlopen
  PLUGRT_ASSERT_OK(plugin);
  auto client = NewClient(*plugin, 1);
  ASSERT_NE(client, nullptr);
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable, client->Compile(kOversizedProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client->addressable_devices());
  Buffer x = testing::Upload<float>(*client, devices[0], PJRT_Buffer_Type_F32, {}, {1.5f});
  auto outputs = executable.Execute({{&x}});
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(outputs.status().code(), StatusCode::kResourceExhausted)
      << outputs.status().ToString();
  EXPECT_THAT(outputs.status().message(), HasSubstr("stablehlo.broadcast_in_dim"));
  EXPECT_THAT(outputs.status().message(), HasSubstr("cannot allocate 4000000000000 bytes"));

  // The output buffers of the asynchronous form carry the same error.
  PLUGRT_ASSERT_OK_AND_ASSIGN(ExecuteResult launched,
                              executable.ExecuteAsync({{&x}}));
  ASSERT_EQ(launched.outputs.size(), 1u);
  ASSERT_EQ(launched.outputs[0].size(), 1u);
  Status ready = launched.outputs[0][0].ReadyFuture().value().Await();
  EXPECT_EQ(ready.code(), StatusCode::kResourceExhausted) << ready.ToString();

  // The client goes on working.
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable negate, client->Compile(R"(
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.negate %x : tensor<f32>
  return %0 : tensor<f32>
})"));
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto negated, negate.Execute({{&x}}));
  float value = 0;
  PLUGRT_ASSERT_OK(negated[0][0].ToHost(&value, sizeof(value)));
  EXPECT_EQ(value, -1.5f);
}

TEST(ResourceExhaustedTest, OversizedOutputFailsThroughTheCli) {
  const std::string dir = ::testing::TempDir() + "/plugrt_oversized";
  std::filesystem::create_directories(dir);
  const std::string program = dir + "/oversized.mlir";
  std::ofstream(program) << R"(
func.func @main() -> tensor<100000x100000x100xf32> {
  %x = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<100000x100000x100xf32>
  return %0 : tensor<100000x100000x100xf32>
}
)";
  // A hang would be killed by `timeout` (exit 137) and fail the test below.
  testing::CommandResult result = testing::RunCommand(
      std::string("timeout -s KILL 120 ") + PLUGRT_CLI_PATH + " run " + program);
  EXPECT_GT(result.exit_code, 0) << result.output;
  EXPECT_LT(result.exit_code, 128) << result.output;
  EXPECT_THAT(result.output, HasSubstr("RESOURCE_EXHAUSTED"));
  EXPECT_THAT(result.output, HasSubstr("stablehlo.broadcast_in_dim"));
  EXPECT_THAT(result.output, HasSubstr("cannot allocate"));
}

// Row-wise reference for kRepresentative.
void Reference(const std::vector<float>& x, const std::vector<float>& w, std::vector<float>& t,
               std::vector<float>& s) {
  t.assign(128 * 128, 0);
  s.assign(128, 0);
  for (int i = 0; i < 128; ++i) {
    std::vector<double> e(128);
    double sum = 0;
    for (int j = 0; j < 128; ++j) {
      double d = 0;
      for (int k = 0; k < 256; ++k) d += double(x[i * 256 + k]) * double(w[k * 128 + j]);
      e[j] = std::exp(d);
      sum += e[j];
    }
    s[i] = static_cast<float>(sum);
    for (int j = 0; j < 128; ++j) t[i * 128 + j] = static_cast<float>(std::tanh(e[j] / sum));
  }
}

void ExpectNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    ASSERT_NEAR(actual[i], expected[i], 1e-4 * std::max(1.0f, std::fabs(expected[i]))) << i;
  }
}

TEST(ResourceExhaustedTest, EveryAllocationOfARunFailsCleanly) {
  InjectionGuard guard;
  auto plugin = InProcessCpuPlugin();
  ASSERT_NE(plugin, nullptr);
  auto client = NewClient(plugin, 1);
  ASSERT_NE(client, nullptr);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client->addressable_devices());
  std::vector<float> x(128 * 256), w(256 * 128);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7919) % 23) / 230.0f;
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>((i * 104729) % 19) / 190.0f;
  std::vector<float> expected_t, expected_s;
  Reference(x, w, expected_t, expected_s);

  Buffer xb = testing::Upload(*client, devices[0], PJRT_Buffer_Type_F32, {128, 256}, x);
  Buffer wb = testing::Upload(*client, devices[0], PJRT_Buffer_Type_F32, {256, 128}, w);
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable, client->Compile(kRepresentative));
  PLUGRT_ASSERT_OK_AND_ASSIGN(MemoryStats before, devices[0].memory_stats());

  // Outputs: the transposed softmax tanh, and the row sums followed by
  // themselves reversed.
  std::vector<float> want_t(128 * 128), want_c(256);
  for (int i = 0; i < 128; ++i) {
    for (int j = 0; j < 128; ++j) want_t[j * 128 + i] = expected_t[i * 128 + j];
    want_c[i] = expected_s[i];
    want_c[255 - i] = expected_s[i];
  }
  expected_t = want_t;
  expected_s = want_c;

  auto run_and_check = [&](bool must_succeed, LoadedExecutable* other = nullptr) -> Status {
    auto outputs = (other != nullptr ? *other : executable).Execute({{&xb, &wb}});
    if (!outputs.ok()) return outputs.status();
    std::vector<float> t(128 * 128), s(256);
    Status read = (*outputs)[0][0].ToHost(t.data(), t.size() * sizeof(float));
    if (read.ok()) read = (*outputs)[0][1].ToHost(s.data(), s.size() * sizeof(float));
    if (!read.ok()) return read;
    if (must_succeed || read.ok()) {
      ExpectNear(t, expected_t);
      ExpectNear(s, expected_s);
    }
    return OkStatus();
  };

  // How many allocations one run makes, after a first run has made what it
  // makes once and keeps (the weights in oneDNN's layout, KeptCopy).
  PLUGRT_ASSERT_OK(run_and_check(true));
  cpu::InjectHostAllocationFailure(std::numeric_limits<int64_t>::max());
  PLUGRT_ASSERT_OK(run_and_check(true));
  const int64_t calls = cpu::InjectHostAllocationFailure(0);
  ASSERT_GE(calls, 4) << "the program should allocate its intermediates and outputs";

  int failed = 0;
  for (int64_t n = 1; n <= calls; ++n) {
    cpu::InjectHostAllocationFailure(n);
    Status status = run_and_check(false);
    cpu::InjectHostAllocationFailure(0);
    if (!status.ok()) {
      ++failed;
      EXPECT_TRUE(IsOutOfMemory(status)) << "allocation " << n << ": " << status.ToString();
    }
    // Whatever failed, nothing the run made outlives it.
    PLUGRT_ASSERT_OK_AND_ASSIGN(MemoryStats after, devices[0].memory_stats());
    EXPECT_EQ(after.bytes_in_use, before.bytes_in_use) << "allocation " << n;
  }
  // Each allocation is needed by the run, so each failure shows (no site
  // swallows it and computes on without the memory).
  EXPECT_EQ(failed, calls);

  // The first run of a new executable, which also makes what it keeps:
  // each of its allocations fails cleanly too, and a run after the failure
  // makes what the failed one did not.
  for (int64_t n = 1;; ++n) {
    ASSERT_LT(n, 4 * calls) << "the first run never got past its allocations";
    PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable fresh, client->Compile(kRepresentative));
    cpu::InjectHostAllocationFailure(n);
    Status status = run_and_check(false, &fresh);
    cpu::InjectHostAllocationFailure(0);
    if (status.ok()) break;  // n is past the first run's allocations
    EXPECT_TRUE(IsOutOfMemory(status)) << "first run, allocation " << n << ": " << status.ToString();
    PLUGRT_ASSERT_OK_AND_ASSIGN(MemoryStats after, devices[0].memory_stats());
    EXPECT_EQ(after.bytes_in_use, before.bytes_in_use) << "first run, allocation " << n;
    PLUGRT_EXPECT_OK(run_and_check(true, &fresh));
  }

  // The process stays usable: the same executable runs correctly again.
  PLUGRT_EXPECT_OK(run_and_check(true));
}

TEST(ResourceExhaustedTest, EveryAllocationOfACompileFailsCleanly) {
  InjectionGuard guard;
  auto plugin = InProcessCpuPlugin();
  ASSERT_NE(plugin, nullptr);
  auto client = NewClient(plugin, 1);
  ASSERT_NE(client, nullptr);
  cpu::InjectHostAllocationFailure(std::numeric_limits<int64_t>::max());
  PLUGRT_ASSERT_OK(client->Compile(kRepresentative));
  const int64_t calls = cpu::InjectHostAllocationFailure(0);
  for (int64_t n = 1; n <= calls; ++n) {
    cpu::InjectHostAllocationFailure(n);
    auto compiled = client->Compile(kRepresentative);
    cpu::InjectHostAllocationFailure(0);
    // Folding constants may give up on memory and leave the op to run time;
    // anything else reports.
    if (!compiled.ok()) {
      EXPECT_TRUE(IsOutOfMemory(compiled.status())) << compiled.status().ToString();
    }
  }
  PLUGRT_EXPECT_OK(client->Compile(kRepresentative));
}

TEST(ResourceExhaustedTest, ACollectiveWhosePeerFailedEndsWithAnError) {
  InjectionGuard guard;
  auto plugin = InProcessCpuPlugin();
  ASSERT_NE(plugin, nullptr);
  auto client = NewClient(plugin, 2);
  ASSERT_NE(client, nullptr);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client->addressable_devices());
  ASSERT_EQ(devices.size(), 2u);
  std::vector<float> x(4 * 4, 0.5f);
  Buffer x0 = testing::Upload(*client, devices[0], PJRT_Buffer_Type_F32, {4, 4}, x);
  Buffer x1 = testing::Upload(*client, devices[1], PJRT_Buffer_Type_F32, {4, 4}, x);
  CompileOptions options;
  options.num_replicas = 2;
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable, client->Compile(kCollective, options));

  cpu::InjectHostAllocationFailure(std::numeric_limits<int64_t>::max());
  PLUGRT_ASSERT_OK(executable.Execute({{&x0}, {&x1}}));
  const int64_t calls = cpu::InjectHostAllocationFailure(0);
  ASSERT_GT(calls, 1);
  int failed = 0;
  for (int64_t n = 1; n <= calls; ++n) {
    cpu::InjectHostAllocationFailure(n);
    // One device fails; the other must not wait for it in the all_reduce.
    auto outputs = executable.Execute({{&x0}, {&x1}});
    cpu::InjectHostAllocationFailure(0);
    if (!outputs.ok()) {
      ++failed;
      EXPECT_EQ(outputs.status().code(), StatusCode::kResourceExhausted)
          << outputs.status().ToString();
    }
  }
  EXPECT_GT(failed, 0);
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto outputs, executable.Execute({{&x0}, {&x1}}));
  std::vector<float> result(4 * 4);
  PLUGRT_ASSERT_OK(outputs[1][0].ToHost(result.data(), result.size() * sizeof(float)));
  EXPECT_NEAR(result[0], -2 * std::exp(0.5f), 1e-5);
}

}  // namespace
}  // namespace plugrt
