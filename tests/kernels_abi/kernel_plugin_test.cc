// Kernel plugins (include/plugrt/kernel_c_api.h) through the CPU plugin and
// the client, as a user loads them: the create option kernel_plugins and
// PLUGRT_KERNEL_PLUGINS. The plugins are tests/kernels_abi/kernel_plugins/test_kernels.cc
// built as separate libraries: a working one and one per way of being broken.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "client/client.h"
#include "plugrt/kernel_c_api.h"
#include "testutil/plugin_env.h"
#include "testutil/run_command.h"

namespace plugrt {
namespace {

using testing::CpuPlugin;
using testing::Download;
using testing::Upload;

StatusOr<std::unique_ptr<Client>> ClientWithKernels(const std::string& paths, int devices = 1) {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  ClientOptions options;
  options.create_options.push_back({"kernel_plugins", paths});
  options.create_options.push_back({"cpu_device_count", int64_t{devices}});
  return Client::Create(plugin, options);
}

// Runs a program without arguments and returns its one result as T values.
template <typename T>
StatusOr<std::vector<T>> RunNoArgs(const Client& client, const std::string& program) {
  PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable executable, client.Compile(program));
  PLUGRT_ASSIGN_OR_RETURN(auto results, executable.Execute({{}}));
  return Download<T>(results[0][0]);
}

constexpr const char* kScaleAdd = R"(
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @test.scale_add(%x, %y) {api_version = 4 : i32,
      backend_config = {scale = 2.0 : f32, offset = 1 : i64}}
      : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.add %0, %y : tensor<4xf32>
  return %1 : tensor<4xf32>
})";

std::string CallProgram(const std::string& target, const std::string& result_type,
                        const std::string& attributes = "") {
  return "func.func @main() -> " + result_type + " {\n  %0 = stablehlo.custom_call @" + target +
         "() " + attributes + " : () -> " + result_type + "\n  return %0 : " + result_type +
         "\n}\n";
}

TEST(KernelPluginTest, RunsAHandlerWithTypedBuffersAndAttributes) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, ClientWithKernels(TEST_KERNELS_GOOD));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable, client->Compile(kScaleAdd));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client->addressable_devices());
  Buffer x = Upload<float>(*client, devices[0], PJRT_Buffer_Type_F32, {4}, {1, 2, 3, 4});
  Buffer y = Upload<float>(*client, devices[0], PJRT_Buffer_Type_F32, {4}, {10, 20, 30, 40});
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto results, executable.Execute({{&x, &y}}));
  // (2x + y + 1) + y: the handler's result flows into a built-in op.
  EXPECT_EQ(Download<float>(results[0][0]), (std::vector<float>{23, 45, 67, 89}));
  // The same handler registered as a kernel API 1.0 plugin does.
  std::string old = kScaleAdd;
  old.replace(old.find("@test.scale_add"), 15, "@test.scale_add_v1_0");
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable old_executable, client->Compile(old));
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto old_results, old_executable.Execute({{&x, &y}}));
  EXPECT_EQ(Download<float>(old_results[0][0]), (std::vector<float>{23, 45, 67, 89}));
  // The input buffers are untouched.
  EXPECT_EQ(Download<float>(x), (std::vector<float>{1, 2, 3, 4}));
}

TEST(KernelPluginTest, AttributesArriveTyped) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, ClientWithKernels(TEST_KERNELS_GOOD));
  const std::string dict =
      "{i = -7 : i32, f = 2.5 : f64, b = true, s = \"hello\", ints = array<i64: 1, 2, 3>, "
      "floats = [0.5 : f32, 0.25 : f32], dense = dense<[1.0, 2.0, 4.0]> : tensor<3xf32>, "
      "dict = {k = 9 : i64, other = \"x\"}}";
  // As api_version 4's backend_config dictionary ...
  StatusOr<std::vector<double>> typed = RunNoArgs<double>(
      *client, CallProgram("test.attrs", "tensor<10xf64>",
                           "{api_version = 4 : i32, backend_config = " + dict + "}"));
  PLUGRT_ASSERT_OK(typed);
  EXPECT_EQ(*typed, (std::vector<double>{-7, 2.5, 1, 5, 6, 0.75, 7, 9, 8, 0}));
  // ... and as mhlo.backend_config beside a string backend_config.
  StatusOr<std::vector<double>> mhlo = RunNoArgs<double>(
      *client, CallProgram("test.attrs", "tensor<10xf64>",
                           "{backend_config = \"abc\", mhlo.backend_config = " + dict + "}"));
  PLUGRT_ASSERT_OK(mhlo);
  EXPECT_EQ(*mhlo, (std::vector<double>{-7, 2.5, 1, 5, 6, 0.75, 7, 9, 8, 3}));

  StatusOr<std::vector<uint8_t>> config = RunNoArgs<uint8_t>(
      *client, CallProgram("test.config", "tensor<6xui8>", "{backend_config = \"opaque\"}"));
  PLUGRT_ASSERT_OK(config);
  EXPECT_EQ(std::string(config->begin(), config->end()), "opaque");

  // A missing attribute is the handler's error, naming the attribute.
  StatusOr<std::vector<double>> missing = RunNoArgs<double>(
      *client, CallProgram("test.attrs", "tensor<10xf64>",
                           "{api_version = 4 : i32, backend_config = {i = 1 : i64}}"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound) << missing.status().ToString();
  EXPECT_NE(missing.status().message().find("no attribute 'f'"), std::string::npos)
      << missing.status().ToString();
}

TEST(KernelPluginTest, DeviceAndScratchMemory) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client,
                              ClientWithKernels(TEST_KERNELS_GOOD, 2));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable,
                              client->Compile(CallProgram("test.device", "tensor<4xi64>")));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client->addressable_devices());
  ExecuteOptions on_device;
  on_device.execute_device = devices[1];
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto results, executable.Execute({{}}, on_device));
  EXPECT_EQ(Download<int64_t>(results[0][0]), (std::vector<int64_t>{1, 0, 0, 1}));

  StatusOr<std::vector<int64_t>> sum =
      RunNoArgs<int64_t>(*client, CallProgram("test.temp", "tensor<i64>"));
  PLUGRT_ASSERT_OK(sum);
  const int64_t n = 1 << 16;
  EXPECT_EQ(*sum, (std::vector<int64_t>{n * (n - 1) / 2}));
}

TEST(KernelPluginTest, HandlerErrorsAndExceptionsFailTheExecution) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, ClientWithKernels(TEST_KERNELS_GOOD));
  StatusOr<std::vector<float>> failed =
      RunNoArgs<float>(*client, CallProgram("test.fail", "tensor<f32>"));
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kFailedPrecondition);
  for (const char* part : {"test.fail", TEST_KERNELS_GOOD, "the input is not ready"}) {
    EXPECT_NE(failed.status().message().find(part), std::string::npos)
        << part << " missing from " << failed.status().ToString();
  }
  StatusOr<std::vector<float>> threw =
      RunNoArgs<float>(*client, CallProgram("test.throw", "tensor<f32>"));
  ASSERT_FALSE(threw.ok());
  EXPECT_EQ(threw.status().code(), StatusCode::kInternal);
  for (const char* part : {"test.throw", TEST_KERNELS_GOOD, "kernel exploded"}) {
    EXPECT_NE(threw.status().message().find(part), std::string::npos)
        << part << " missing from " << threw.status().ToString();
  }
  StatusOr<std::vector<float>> bad_resource =
      RunNoArgs<float>(*client, CallProgram("test.bad_resource", "tensor<f32>"));
  ASSERT_FALSE(bad_resource.ok());
  EXPECT_EQ(bad_resource.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(bad_resource.status().message().find("no backing store"), std::string::npos);
  // The client still works after all that.
  StatusOr<std::vector<int64_t>> sum =
      RunNoArgs<int64_t>(*client, CallProgram("test.temp", "tensor<i64>"));
  PLUGRT_EXPECT_OK(sum);
}

// An XLA FFI handler a kernel plugin registers through the kernel ABI runs
// for api_version = 4 calls of the clients that load the plugin.
TEST(KernelPluginTest, XlaFfiHandlersRegisteredThroughTheKernelAbi) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, ClientWithKernels(TEST_KERNELS_GOOD));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client->addressable_devices());
  const std::string program =
      "func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
      "  %0 = stablehlo.custom_call @test.ffi_negate(%x) {api_version = 4 : i32}"
      " : (tensor<3xf32>) -> tensor<3xf32>\n  return %0 : tensor<3xf32>\n}\n";
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable, client->Compile(program));
  Buffer x = Upload<float>(*client, devices[0], PJRT_Buffer_Type_F32, {3}, {1, -2, 3});
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto results, executable.Execute({{&x}}));
  EXPECT_EQ(Download<float>(results[0][0]), (std::vector<float>{-1, 2, -3}));
  // The handler's own error comes back with its code.
  std::string wrong_type = program;
  for (size_t at = wrong_type.find("f32"); at != std::string::npos; at = wrong_type.find("f32")) {
    wrong_type.replace(at, 3, "i32");
  }
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable mistyped, client->Compile(wrong_type));
  Buffer ints = Upload<int32_t>(*client, devices[0], PJRT_Buffer_Type_S32, {3}, {1, 2, 3});
  StatusOr<std::vector<std::vector<Buffer>>> failed = mistyped.Execute({{&ints}});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(failed.status().message().find("one f32 buffer"), std::string::npos)
      << failed.status().ToString();
  // Typed FFI only: an older api_version is refused at compile time.
  std::string old = program;
  old.replace(old.find("api_version = 4"), 15, "api_version = 2");
  StatusOr<LoadedExecutable> refused = client->Compile(old);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("api_version = 4"), std::string::npos);
  // A client without the plugin does not see the handler.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> plain, ClientWithKernels(""));
  EXPECT_FALSE(plain->Compile(program).ok());
}

// An untyped XLA custom call a kernel plugin registers through the kernel
// ABI runs for api_version 1 to 3 calls; its signature follows the call's
// version, so the plugin's version-1 function is called with api_version 1.
TEST(KernelPluginTest, UntypedCustomCallsRegisteredThroughTheKernelAbi) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, ClientWithKernels(TEST_KERNELS_GOOD));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client->addressable_devices());
  // No api_version: StableHLO's default, 1 (ORIGINAL).
  const std::string program =
      "func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
      "  %0 = stablehlo.custom_call @test.legacy_times_ten(%x)"
      " : (tensor<3xf32>) -> tensor<3xf32>\n  return %0 : tensor<3xf32>\n}\n";
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable, client->Compile(program));
  Buffer x = Upload<float>(*client, devices[0], PJRT_Buffer_Type_F32, {3}, {1, -2, 3});
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto results, executable.Execute({{&x}}));
  EXPECT_EQ(Download<float>(results[0][0]), (std::vector<float>{10, -20, 30}));
  // A typed call to an untyped function is refused at compile time.
  std::string typed = program;
  typed.replace(typed.find(" : (tensor<3xf32>)"), 0, " {api_version = 4 : i32}");
  StatusOr<LoadedExecutable> refused = client->Compile(typed);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("api_version 1, 2 or 3"), std::string::npos)
      << refused.status().ToString();
}

// A small program whose only custom call is an INLINE_SAFE handler runs on
// the caller's thread; without the flag the call may block, so the
// execution goes to a worker thread.
TEST(KernelPluginTest, InlineSafeHandlersRunOnTheCallersThread) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, ClientWithKernels(TEST_KERNELS_GOOD));
  const uint64_t here = std::hash<std::thread::id>()(std::this_thread::get_id());
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      std::vector<uint64_t> inline_id,
      RunNoArgs<uint64_t>(*client, CallProgram("test.thread_id_inline", "tensor<ui64>")));
  ASSERT_EQ(inline_id.size(), 1u);
  EXPECT_EQ(inline_id[0], here);
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      std::vector<uint64_t> worker_id,
      RunNoArgs<uint64_t>(*client, CallProgram("test.thread_id", "tensor<ui64>")));
  ASSERT_EQ(worker_id.size(), 1u);
  EXPECT_NE(worker_id[0], here);
}

TEST(KernelPluginTest, UnknownTargetFailsAtCompileNamingIt) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, ClientWithKernels(TEST_KERNELS_GOOD));
  StatusOr<LoadedExecutable> compiled = client->Compile(CallProgram("test.nobody", "tensor<f32>"));
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(compiled.status().message().find("test.nobody"), std::string::npos)
      << compiled.status().ToString();
  // Without plugins the targets are unknown too, and the message says how to
  // load them.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> plain, testing::CreateCpuClient(1));
  StatusOr<LoadedExecutable> without = plain->Compile(kScaleAdd);
  ASSERT_FALSE(without.ok());
  EXPECT_NE(without.status().message().find("test.scale_add"), std::string::npos);
  EXPECT_NE(without.status().message().find("kernel_plugins"), std::string::npos);
}

struct LoadError {
  std::string paths;
  StatusCode code;
  std::vector<std::string> parts;
};

TEST(KernelPluginTest, BrokenPluginsAreRefusedWithClearErrors) {
  const std::string good = TEST_KERNELS_GOOD;
  // The bad-version plugin says major + 1; both versions must be named.
  const std::string plugin_version =
      std::to_string(PLUGRT_KERNEL_API_MAJOR + 1) + "." + std::to_string(PLUGRT_KERNEL_API_MINOR);
  const std::string runtime_version =
      std::to_string(PLUGRT_KERNEL_API_MAJOR) + "." + std::to_string(PLUGRT_KERNEL_API_MINOR);
  const char* kPluginVersion = plugin_version.c_str();
  const char* kRuntimeVersion = runtime_version.c_str();
  const std::vector<LoadError> cases = {
      {"/nonexistent/libnothing.so", StatusCode::kNotFound,
       {"/nonexistent/libnothing.so", "no such file"}},
      {TEST_KERNELS_NO_INIT, StatusCode::kNotFound,
       {TEST_KERNELS_NO_INIT, "PLUGRT_KernelPlugin_Init"}},
      {TEST_KERNELS_BAD_VERSION, StatusCode::kFailedPrecondition,
       {TEST_KERNELS_BAD_VERSION, kPluginVersion, kRuntimeVersion}},
      {TEST_KERNELS_BOTH_HANDLERS, StatusCode::kInvalidArgument,
       {TEST_KERNELS_BOTH_HANDLERS, "test.both", "exactly one"}},
      {good + ":" + TEST_KERNELS_DUPLICATE, StatusCode::kAlreadyExists,
       {TEST_KERNELS_DUPLICATE, "test.scale_add", good}},
      {TEST_KERNELS_INIT_ERROR, StatusCode::kUnavailable,
       {TEST_KERNELS_INIT_ERROR, "license server unreachable"}},
      {TEST_KERNELS_BUILT_IN, StatusCode::kAlreadyExists,
       {TEST_KERNELS_BUILT_IN, "plugrt.math.erf", "built into the runtime"}},
      {TEST_KERNELS_INIT_THROWS, StatusCode::kInternal, {TEST_KERNELS_INIT_THROWS, "init exploded"}},
      // Not a shared library at all.
      {CMAKE_SOURCE_FILE, StatusCode::kInvalidArgument, {CMAKE_SOURCE_FILE, "cannot be loaded"}},
  };
  for (const LoadError& c : cases) {
    StatusOr<std::unique_ptr<Client>> client = ClientWithKernels(c.paths);
    ASSERT_FALSE(client.ok()) << c.paths;
    EXPECT_EQ(client.status().code(), c.code) << client.status().ToString();
    for (const std::string& part : c.parts) {
      EXPECT_NE(client.status().message().find(part), std::string::npos)
          << "'" << part << "' missing from " << client.status().ToString();
    }
  }
  // The same library named twice loads once.
  PLUGRT_EXPECT_OK(ClientWithKernels(good + ":" + good));
}

TEST(KernelPluginTest, EnvironmentVariableLoadsPlugins) {
  ASSERT_EQ(setenv("PLUGRT_KERNEL_PLUGINS", TEST_KERNELS_GOOD, 1), 0);
  StatusOr<std::unique_ptr<Client>> client = testing::CreateCpuClient(1);
  unsetenv("PLUGRT_KERNEL_PLUGINS");
  PLUGRT_ASSERT_OK(client);
  StatusOr<std::vector<int64_t>> sum =
      RunNoArgs<int64_t>(**client, CallProgram("test.temp", "tensor<i64>"));
  PLUGRT_EXPECT_OK(sum);
  // A wrong type for the option is an error naming it.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  ClientOptions options;
  options.create_options.push_back({"kernel_plugins", int64_t{3}});
  StatusOr<std::unique_ptr<Client>> wrong = Client::Create(plugin, options);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("kernel_plugins"), std::string::npos);
}

struct Counts {
  int64_t created = 0, deleted = 0;
};
Counts PluginCounts() {
  // The same library the clients loaded (dlopen returns the loaded one).
  void* library = dlopen(TEST_KERNELS_GOOD, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(library, nullptr);
  Counts counts;
  if (library == nullptr) return counts;
  auto fn = reinterpret_cast<void (*)(int64_t*, int64_t*)>(
      dlsym(library, "plugrt_test_kernel_counts"));
  EXPECT_NE(fn, nullptr);
  if (fn != nullptr) fn(&counts.created, &counts.deleted);
  dlclose(library);
  return counts;
}

TEST(KernelPluginTest, ResourcesAreCreatedOncePerClientAndDeletedOnce) {
  // Keep the library loaded across the clients so its counters persist.
  void* pin = dlopen(TEST_KERNELS_GOOD, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(pin, nullptr) << dlerror();
  const Counts before = PluginCounts();
  constexpr int kThreads = 4, kCallsPerThread = 8;
  {
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> a, ClientWithKernels(TEST_KERNELS_GOOD));
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> b, ClientWithKernels(TEST_KERNELS_GOOD));
    const std::string count = CallProgram("test.count", "tensor<i64>");
    PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable on_a, a->Compile(count));
    PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable on_b, b->Compile(count));
    // Each thread records the values it saw; every value of a client's
    // counter appears once.
    std::vector<std::vector<int64_t>> seen(2 * kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < 2 * kThreads; ++t) {
      threads.emplace_back([&, t] {
        const LoadedExecutable& executable = t % 2 == 0 ? on_a : on_b;
        for (int i = 0; i < kCallsPerThread; ++i) {
          auto results = executable.Execute({{}});
          if (!results.ok()) {
            seen[t].push_back(-1);
            continue;
          }
          seen[t].push_back(Download<int64_t>((*results)[0][0]).at(0));
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (int client = 0; client < 2; ++client) {
      std::vector<int64_t> values;
      for (int t = client; t < 2 * kThreads; t += 2) {
        values.insert(values.end(), seen[t].begin(), seen[t].end());
      }
      std::sort(values.begin(), values.end());
      std::vector<int64_t> expected(kThreads * kCallsPerThread);
      for (size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<int64_t>(i) + 1;
      EXPECT_EQ(values, expected) << "client " << client;
    }
    const Counts during = PluginCounts();
    EXPECT_EQ(during.created - before.created, 2);  // one per client
    EXPECT_EQ(during.deleted - before.deleted, 0);

    // An explicit delete runs the delete function once; the next call
    // creates afresh.
    PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable drop,
                                a->Compile(CallProgram("test.drop", "tensor<f32>")));
    PLUGRT_ASSERT_OK(drop.Execute({{}}));
    EXPECT_EQ(PluginCounts().deleted - before.deleted, 1);
    StatusOr<std::vector<std::vector<Buffer>>> again = drop.Execute({{}});
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.status().code(), StatusCode::kNotFound) << again.status().ToString();
    PLUGRT_ASSERT_OK_AND_ASSIGN(auto restarted, on_a.Execute({{}}));
    EXPECT_EQ(Download<int64_t>(restarted[0][0]), std::vector<int64_t>{1});
    EXPECT_EQ(PluginCounts().created - before.created, 3);
  }
  // Both clients (and their executables) are gone: every resource was
  // deleted exactly once.
  const Counts after = PluginCounts();
  EXPECT_EQ(after.created - before.created, 3);
  EXPECT_EQ(after.deleted - before.deleted, 3);
  dlclose(pin);
}

TEST(KernelPluginTest, CommandLineLoadsPluginsWithKernels) {
  const std::string dir = ::testing::TempDir();
  const std::string program = dir + "/kernel_plugin_cli.mlir";
  const std::string compiled = dir + "/kernel_plugin_cli.bin";
  {
    std::ofstream out(program);
    out << CallProgram("test.temp", "tensor<i64>");
  }
  const std::string kernels = std::string(" --kernels ") + TEST_KERNELS_GOOD + " ";
  testing::CommandResult run = testing::RunCli("run" + kernels + program);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("2147450880"), std::string::npos) << run.output;

  // Without the plugin the program does not compile, naming the target.
  EXPECT_TRUE(testing::FailedWith(testing::RunCli("run " + program), 1, "test.temp"));
  EXPECT_TRUE(testing::FailedWith(testing::RunCli("compile " + program + " -o " + compiled), 1,
                                  "test.temp"));
  // Compiled ahead of time with the plugin, run with it.
  testing::CommandResult aot = testing::RunCli("compile" + kernels + program + " -o " + compiled);
  ASSERT_EQ(aot.exit_code, 0) << aot.output;
  testing::CommandResult later = testing::RunCli("run" + kernels + compiled);
  EXPECT_EQ(later.exit_code, 0) << later.output;
  EXPECT_NE(later.output.find("2147450880"), std::string::npos) << later.output;
  // A broken plugin is a clear error, not a crash.
  EXPECT_TRUE(testing::FailedWith(
      testing::RunCli(std::string("run --kernels ") + TEST_KERNELS_BAD_VERSION + " " + program), 1,
      "major versions must match"));
}

}  // namespace
}  // namespace plugrt
