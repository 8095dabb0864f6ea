// `plugrt run` as a user runs it: the example MLP, .npy inputs and outputs,
// replicated programs, and the errors for bad files and bad usage.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "testutil/run_command.h"

// .npy writing and reading for the test's own files, from plugrt_tools.
#include "client/element_decode.h"
#include "client/npy.h"

namespace plugrt::testing {
namespace {


// From the build (__FILE__ is relative to the build folder under Ninja, and
// tests run in build/tests).
const std::filesystem::path kSourceRoot = PLUGRT_TEST_SOURCE_DIR;

std::string TempDir(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("cli_run_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

HostArray Floats(std::vector<int64_t> dims, std::vector<float> values) {
  HostArray array{PJRT_Buffer_Type_F32, std::move(dims), {}};
  array.data.resize(values.size() * sizeof(float));
  std::memcpy(array.data.data(), values.data(), array.data.size());
  return array;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The CPU plugin compiles programs: an UNIMPLEMENTED compile is a failure.
#define FAIL_IF_NO_COMPILER(result)                                           \
  if (Contains((result).output, "PJRT_Client_Compile") &&                     \
      Contains((result).output, "UNIMPLEMENTED")) {                           \
    GTEST_FAIL() << "plugin does not compile: " << (result).output;           \
  }

constexpr const char* kAddProgram = R"(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<i32>) {
  %0 = stablehlo.add %a, %b : tensor<2x3xf32>
  %c = stablehlo.constant dense<7> : tensor<i32>
  return %0, %c : tensor<2x3xf32>, tensor<i32>
}
)";

TEST(CliRunTest, RunsTheExampleMlp) {
  CommandResult result = RunCli("run " + (kSourceRoot / "examples/mlp.mlir").string());
  FAIL_IF_NO_COMPILER(result);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(Contains(result.output, "output 0: f32[4,4]\n")) << result.output;
  // Softmax rows of the example's constant network (computed independently
  // in double precision: 0.15911279, 0.22803541, 0.32216246, 0.29068933).
  EXPECT_TRUE(Contains(result.output, "array([[0.159112")) << result.output;
  EXPECT_TRUE(Contains(result.output, "0.2280354")) << result.output;
  EXPECT_TRUE(Contains(result.output, "0.449011")) << result.output;
  EXPECT_TRUE(Contains(result.output, "]], dtype=float32)")) << result.output;
}

TEST(CliRunTest, InputsAndOutputFolder) {
  const std::string dir = TempDir("io");
  WriteText(dir + "/add.mlir", kAddProgram);
  ASSERT_TRUE(WriteNpyFile(dir + "/a.npy", Floats({2, 3}, {1, 2, 3, 4, 5, 6})).ok());
  ASSERT_TRUE(WriteNpyFile(dir + "/b.npy", Floats({2, 3}, {0.5, 0.5, 0.5, 1, 1, 1})).ok());
  CommandResult result = RunCli("run " + dir + "/add.mlir --input " + dir + "/a.npy -i " + dir +
                                "/b.npy --output " + dir + "/out");
  FAIL_IF_NO_COMPILER(result);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(Contains(result.output,
                       "output 0: f32[2,3]\n"
                       "array([[1.5, 2.5, 3.5],\n"
                       "       [5. , 6. , 7. ]], dtype=float32)\n"
                       "output 1: s32[]\n"
                       "array(7, dtype=int32)\n"))
      << result.output;

  StatusOr<HostArray> out0 = ReadNpyFile(dir + "/out/out0.npy");
  ASSERT_TRUE(out0.ok()) << out0.status().ToString();
  EXPECT_EQ(out0->dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(out0->data, Floats({2, 3}, {1.5, 2.5, 3.5, 5, 6, 7}).data);
  StatusOr<HostArray> out1 = ReadNpyFile(dir + "/out/out1.npy");
  ASSERT_TRUE(out1.ok()) << out1.status().ToString();
  EXPECT_EQ(out1->type, PJRT_Buffer_Type_S32);
  EXPECT_TRUE(out1->dims.empty());
}

TEST(CliRunTest, ReplicatedProgramRunsOnEveryDevice) {
  const std::string dir = TempDir("replicas");
  WriteText(dir + "/r.mlir", R"(
module @r attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = stablehlo.multiply %x, %x : tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
)");
  ASSERT_TRUE(WriteNpyFile(dir + "/x.npy", Floats({2}, {3, -1})).ok());
  CommandResult result = RunCli("run " + dir + "/r.mlir --devices 2 --input " + dir +
                                "/x.npy --output " + dir + "/out");
  FAIL_IF_NO_COMPILER(result);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(Contains(result.output, "output 0 (device 0): f32[2]\narray([9., 1.], dtype=float32)"))
      << result.output;
  EXPECT_TRUE(Contains(result.output, "output 0 (device 1): f32[2]")) << result.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/out/device1_out0.npy"));
}

TEST(CliRunTest, BadFilesAreNamedAndExitOne) {
  const std::string dir = TempDir("errors");
  WriteText(dir + "/add.mlir", kAddProgram);
  WriteText(dir + "/not.npy", "hello");

  CommandResult missing = RunCli("run " + dir + "/missing.mlir");
  EXPECT_TRUE(FailedWith(missing, 1, dir + "/missing.mlir: cannot open the file"));

  CommandResult missing_input = RunCli("run " + dir + "/add.mlir --input " + dir + "/none.npy");
  EXPECT_TRUE(FailedWith(missing_input, 1, dir + "/none.npy: cannot open the file"));

  CommandResult bad_npy = RunCli("run " + dir + "/add.mlir --input " + dir + "/not.npy");
  EXPECT_TRUE(FailedWith(bad_npy, 1, dir + "/not.npy: not a .npy file"));

  CommandResult entry = RunCli("run " + dir + "/add.mlir --entry other");
  EXPECT_TRUE(FailedWith(entry, 1, "NOT_FOUND"));
  EXPECT_TRUE(Contains(entry.output, "no function @other")) << entry.output;

  CommandResult folder = RunCli("run " + dir);
  EXPECT_TRUE(FailedWith(folder, 1, "is a directory"));
}

TEST(CliRunTest, CompileAndExecutionErrorsExitOne) {
  const std::string dir = TempDir("runtime_errors");
  WriteText(dir + "/add.mlir", kAddProgram);
  WriteText(dir + "/broken.mlir", "func.func @main() {\n  %0 = stablehlo.nope\n}\n");
  ASSERT_TRUE(WriteNpyFile(dir + "/a.npy", Floats({2, 3}, {1, 2, 3, 4, 5, 6})).ok());

  CommandResult broken = RunCli("run " + dir + "/broken.mlir");
  FAIL_IF_NO_COMPILER(broken);
  EXPECT_TRUE(FailedWith(broken, 1, dir + "/broken.mlir: compile failed:"));
  // The plugin's location names the file, line and column.
  EXPECT_TRUE(Contains(broken.output, dir + "/broken.mlir:3:1:")) << broken.output;

  // An ill-typed program: the verifier names the file, line, column and the
  // violated rule of the spec.
  WriteText(dir + "/ill_typed.mlir",
            "func.func @main(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {\n"
            "  %0 = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
            "  return %0 : tensor<3x2xf32>\n"
            "}\n");
  CommandResult ill_typed = RunCli("run " + dir + "/ill_typed.mlir");
  EXPECT_TRUE(FailedWith(ill_typed, 1, dir + "/ill_typed.mlir:2:3: stablehlo.broadcast_in_dim: "
                                         "violated rule (C2)"));

  // One input for a program of two arguments.
  CommandResult too_few = RunCli("run " + dir + "/add.mlir --input " + dir + "/a.npy");
  EXPECT_TRUE(FailedWith(too_few, 1, "execution failed"));
  EXPECT_TRUE(Contains(too_few.output, "INVALID_ARGUMENT")) << too_few.output;
}

// --entry runs another function as the program; calls between functions,
// including to the file's own @main, keep working.
TEST(CliRunTest, EntryChoosesTheFunctionToRun) {
  const std::string dir = TempDir("entry");
  WriteText(dir + "/two.mlir", R"(
func.func @main() -> tensor<2xi32> {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  return %0 : tensor<2xi32>
}
// @main is called from @twice: the call must still reach it.
func.func @twice() -> tensor<2xi32> {
  %0 = func.call @main() : () -> tensor<2xi32>
  %1 = stablehlo.add %0, %0 : tensor<2xi32>
  return %1 : tensor<2xi32>
}
)");
  CommandResult plain = RunCli("run " + dir + "/two.mlir");
  FAIL_IF_NO_COMPILER(plain);
  EXPECT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_TRUE(Contains(plain.output, "[1, 2]")) << plain.output;
  CommandResult twice = RunCli("run " + dir + "/two.mlir --entry twice");
  EXPECT_EQ(twice.exit_code, 0) << twice.output;
  EXPECT_TRUE(Contains(twice.output, "[2, 4]")) << twice.output;
}

TEST(CliRunTest, UsageErrorsExitTwo) {
  EXPECT_TRUE(FailedWith(RunCli("run"), 2, "program is required"));
  EXPECT_TRUE(FailedWith(RunCli("run a.mlir --devices 0"), 2, "--devices: Value 0 not in range"));
  EXPECT_TRUE(FailedWith(RunCli("run a.mlir --no-such-flag"), 2,
                         "The following argument was not expected: --no-such-flag"));
  CommandResult help = RunCli("run --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(Contains(help.output, "--input")) << help.output;
  EXPECT_TRUE(Contains(help.output, "--output")) << help.output;
}

}  // namespace
}  // namespace plugrt::testing
