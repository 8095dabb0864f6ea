// Optimizer plugins (include/plugrt/optimizer_c_api.h), loaded by the CPU
// plugin: a C plugin rewrites programs before the built-in passes, its
// configs join the pass switches, and each way of being broken (tests/
// optimizer_plugins/test_optimizer.c, one library per kind) fails the load
// or the compile with an error naming the optimizer and its plugin.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "client/client.h"
#include "compile_options/compile_options.h"
#include "testutil/plugin_env.h"
#include "testutil/run_command.h"
#include "testutil/temp_dir.h"

namespace plugrt {
namespace {

using testing::CpuPlugin;
using testing::Upload;

StatusOr<std::unique_ptr<Client>> ClientWithOptimizers(const std::string& paths,
                                                        const std::string& passes = "") {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  ClientOptions options;
  options.create_options.push_back({"optimizer_plugins", paths});
  if (!passes.empty()) options.create_options.push_back({"passes", passes});
  return Client::Create(plugin, options);
}

constexpr const char* kMultiply = R"(
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.multiply %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
})";

StatusOr<std::vector<float>> RunMultiply(const Client& client, const CompileOptions& options = {}) {
  PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable executable, client.Compile(kMultiply, options));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, client.addressable_devices());
  Buffer x = Upload<float>(client, devices[0], PJRT_Buffer_Type_F32, {4}, {1, 2, 3, 4});
  Buffer y = Upload<float>(client, devices[0], PJRT_Buffer_Type_F32, {4}, {10, 20, 30, 40});
  PLUGRT_ASSIGN_OR_RETURN(auto results, executable.Execute({{&x, &y}}));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<std::byte> bytes, results[0][0].ToHostVector());
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(OptimizerPluginTest, RewritesTheProgramBeforeItRuns) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client,
                              ClientWithOptimizers(TEST_OPTIMIZER_GOOD));
  // mul-to-add turned the multiply into an add; bytecode-echo handed the
  // (bytecode) module back unchanged; the "gpu" optimizer did not run.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<float> values, RunMultiply(*client));
  EXPECT_EQ(values, (std::vector<float>{11, 22, 33, 44}));
  // Without the plugin: the program as written.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> plain, Client::Create(plugin, {}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(values, RunMultiply(*plain));
  EXPECT_EQ(values, (std::vector<float>{10, 40, 90, 160}));
}

TEST(OptimizerPluginTest, ConfigsJoinTheSwitchesAndConflictsAreReported) {
  // The plugin turns constant folding off and CSE on; the user turns CSE off.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client,
                              ClientWithOptimizers(TEST_OPTIMIZER_GOOD, "cse=off"));
  const plugrt::testing::TempDir temp_dir("optimizer-test");
  const std::string& pattern = temp_dir.path();
  CompileOptions options;
  options.env_option_overrides[kDumpToOverride] = pattern;
  ASSERT_TRUE(RunMultiply(*client, options).ok());
  const std::string report = ReadAll(pattern + "/passes.txt");
  EXPECT_NE(report.find("optimizer:mul-to-add"), std::string::npos) << report;
  EXPECT_NE(report.find("optimizer:bytecode-echo"), std::string::npos) << report;
  EXPECT_EQ(report.find("gpu-only"), std::string::npos) << report;
  EXPECT_NE(report.find("constant-folding off"), std::string::npos) << report;
  EXPECT_NE(report.find("warning: pass cse: optimizer 'mul-to-add' ("), std::string::npos)
      << report;
  EXPECT_NE(report.find("turns it on, the user"), std::string::npos) << report;
}

// One broken optimizer plugin: what its load (or the compile it answers)
// fails with.
struct BrokenOptimizer {
  const char* name;
  const char* path;
  StatusCode code;
  const char* message;
};

void PrintTo(const BrokenOptimizer& c, std::ostream* out) { *out << c.name; }

std::string BrokenOptimizerName(const ::testing::TestParamInfo<BrokenOptimizer>& info) {
  return info.param.name;
}

class BrokenOptimizerLoadTest : public ::testing::TestWithParam<BrokenOptimizer> {};

TEST_P(BrokenOptimizerLoadTest, FailsTheLoadNamingThePlugin) {
  const BrokenOptimizer& c = GetParam();
  StatusOr<std::unique_ptr<Client>> client = ClientWithOptimizers(c.path);
  ASSERT_FALSE(client.ok()) << c.path;
  EXPECT_EQ(client.status().code(), c.code) << client.status().ToString();
  EXPECT_NE(client.status().message().find(c.message), std::string::npos)
      << client.status().ToString();
  EXPECT_NE(client.status().message().find(c.path), std::string::npos)
      << client.status().ToString();
}

INSTANTIATE_TEST_SUITE_P(
    OptimizerPluginTest, BrokenOptimizerLoadTest,
    ::testing::Values(
        BrokenOptimizer{"BadVersion", TEST_OPTIMIZER_BAD_VERSION, StatusCode::kFailedPrecondition,
                        "optimizer 'from-the-future' was built for optimizer API 99.0.0; this "
                        "runtime has 1."},
        BrokenOptimizer{"Duplicate", TEST_OPTIMIZER_DUPLICATE, StatusCode::kAlreadyExists,
                        "optimizer 'twice' for device type cpu is already registered"},
        BrokenOptimizer{"NoInit", TEST_OPTIMIZER_NO_INIT, StatusCode::kNotFound,
                        "exports no PLUGRT_OptimizerPlugin_Init"},
        BrokenOptimizer{"Missing", "/no/such/optimizer.so", StatusCode::kNotFound,
                        "no such file"}),
    BrokenOptimizerName);

class BadOptimizerAnswerTest : public ::testing::TestWithParam<BrokenOptimizer> {};

TEST_P(BadOptimizerAnswerTest, FailsTheCompileNamingTheOptimizer) {
  const BrokenOptimizer& c = GetParam();
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, ClientWithOptimizers(c.path));
  StatusOr<std::vector<float>> values = RunMultiply(*client);
  ASSERT_FALSE(values.ok()) << c.path;
  EXPECT_EQ(values.status().code(), c.code) << values.status().ToString();
  EXPECT_NE(values.status().message().find(c.message), std::string::npos)
      << values.status().ToString();
}

INSTANTIATE_TEST_SUITE_P(
    OptimizerPluginTest, BadOptimizerAnswerTest,
    ::testing::Values(
        BrokenOptimizer{"Garbage", TEST_OPTIMIZER_GARBAGE, StatusCode::kInvalidArgument,
                        "optimizer 'garbage' (" TEST_OPTIMIZER_GARBAGE
                        "): returned a module that cannot be read"},
        BrokenOptimizer{"Invalid", TEST_OPTIMIZER_INVALID, StatusCode::kInvalidArgument,
                        "optimizer 'invalid' (" TEST_OPTIMIZER_INVALID
                        "): returned an invalid module:"},
        BrokenOptimizer{"Error", TEST_OPTIMIZER_ERROR, StatusCode::kUnimplemented,
                        "optimizer 'refuser' (" TEST_OPTIMIZER_ERROR "): refuses every program"}),
    BrokenOptimizerName);

TEST(OptimizerPluginTest, CliLoadsOptimizers) {
  const plugrt::testing::TempDir temp_dir("optimizer-cli");
  const std::string& pattern = temp_dir.path();
  const std::string program = pattern + "/mul.mlir";
  std::ofstream(program) << kMultiply;
  testing::CommandResult result =
      testing::RunCli("compile " + program + " -o " + pattern + "/out.bin --passes --print-after "
                      "optimizer:mul-to-add --optimizers " TEST_OPTIMIZER_GOOD);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("module after optimizer_mul-to-add"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("optimizer:bytecode-echo"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace plugrt
