// `plugrt run` as a user runs it: the example MLP, .npy inputs and outputs,
// replicated programs, and the errors for bad files and bad usage; and the
// gradient programs `plugrt grad` writes, run by it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

#include "testutil/run_command.h"

// .npy writing and reading for the test's own files, from plugrt_tools.
#include "client/element_decode.h"
#include "client/npy.h"
#include "testutil/temp_dir.h"
#include "testutil/programs.h"

namespace plugrt::testing {
namespace {


// From the build (__FILE__ is relative to the build folder under Ninja, and
// tests run in build/tests).
const std::filesystem::path kSourceRoot = PLUGRT_TEST_SOURCE_DIR;

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
  const plugrt::testing::TempDir temp_dir("cli-run-io");
  const std::string dir = temp_dir.path();
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
  const plugrt::testing::TempDir temp_dir("cli-run-replicas");
  const std::string dir = temp_dir.path();
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
  const plugrt::testing::TempDir temp_dir("cli-run-errors");
  const std::string dir = temp_dir.path();
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
  const plugrt::testing::TempDir temp_dir("cli-run-runtime_errors");
  const std::string dir = temp_dir.path();
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
  const plugrt::testing::TempDir temp_dir("cli-run-entry");
  const std::string dir = temp_dir.path();
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

// d/dx and d/dy of sum(x * y + sin(x)), with an integer argument that takes
// no part: y + cos(x) and x.
constexpr const char* kGradProgram = R"(
func.func @main(%x: tensor<3xf32>, %y: tensor<3xf32>, %n: tensor<i32>) -> tensor<f32> {
  %p = stablehlo.multiply %x, %y : tensor<3xf32>
  %s = stablehlo.sine %x : tensor<3xf32>
  %q = stablehlo.add %p, %s : tensor<3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%q init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
)";

TEST(CliRunTest, GradWritesTheGradientProgram) {
  const plugrt::testing::TempDir temp_dir("cli-run-grad");
  const std::string dir = temp_dir.path();
  WriteText(dir + "/f.mlir", kGradProgram);
  ASSERT_TRUE(WriteNpyFile(dir + "/x.npy", Floats({3}, {0.5, 1, 2})).ok());
  ASSERT_TRUE(WriteNpyFile(dir + "/y.npy", Floats({3}, {3, 4, 5})).ok());
  HostArray n{PJRT_Buffer_Type_S32, {}, std::vector<std::byte>(4)};
  ASSERT_TRUE(WriteNpyFile(dir + "/n.npy", n).ok());
  CommandResult grad = RunCli("grad " + dir + "/f.mlir --wrt 0,1 --value -o " + dir + "/g.mlir");
  ASSERT_EQ(grad.exit_code, 0) << grad.output;
  CommandResult run = RunCli("run " + dir + "/g.mlir -i " + dir + "/x.npy -i " + dir +
                             "/y.npy -i " + dir + "/n.npy");
  FAIL_IF_NO_COMPILER(run);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  // sum(x y + sin x) = 17.730194; y + cos(x) = 3.8775826, 4.5403023, 4.5838532.
  EXPECT_TRUE(Contains(run.output, "output 0: f32[]\narray(17.730194")) << run.output;
  EXPECT_TRUE(Contains(run.output, "array([3.8775826, 4.5403023, 4.5838532]")) << run.output;
  EXPECT_TRUE(Contains(run.output, "output 2: f32[3]\narray([0.5, 1. , 2. ]")) << run.output;
  EXPECT_FALSE(Contains(run.output, "output 3")) << run.output;

  // Without -o the program goes to stdout; without --wrt every float argument.
  CommandResult printed = RunCli("grad " + dir + "/f.mlir");
  ASSERT_EQ(printed.exit_code, 0) << printed.output;
  EXPECT_TRUE(Contains(printed.output, "-> (tensor<3xf32>, tensor<3xf32>) {")) << printed.output;
  EXPECT_TRUE(Contains(printed.output, "stablehlo.cosine")) << printed.output;
}

TEST(CliRunTest, GradVjpTakesOutputGradients) {
  const plugrt::testing::TempDir temp_dir("cli-run-grad_vjp");
  const std::string dir = temp_dir.path();
  WriteText(dir + "/sq.mlir", plugrt::testing::kSquareProgram);
  ASSERT_TRUE(WriteNpyFile(dir + "/x.npy", Floats({3}, {1, 2, 3})).ok());
  ASSERT_TRUE(WriteNpyFile(dir + "/v.npy", Floats({3}, {1, 10, 100})).ok());
  CommandResult grad = RunCli("grad " + dir + "/sq.mlir --vjp -o " + dir + "/g.mlir");
  ASSERT_EQ(grad.exit_code, 0) << grad.output;
  CommandResult run = RunCli("run " + dir + "/g.mlir -i " + dir + "/x.npy -i " + dir + "/v.npy");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  // v^T J = 2 x v.
  EXPECT_TRUE(Contains(run.output, "array([  2.,  40., 600.], dtype=float32)")) << run.output;
}

// Dynamic slices (what jax indexing lowers to) at a start read at run time.
TEST(CliRunTest, GradThroughDynamicSlices) {
  const plugrt::testing::TempDir temp_dir("cli-run-grad_dynamic");
  const std::string dir = temp_dir.path();
  WriteText(dir + "/ds.mlir", R"(
func.func @main(%x: tensor<5xf32>, %i: tensor<i32>) -> tensor<2xf32> {
  %s = stablehlo.dynamic_slice %x, %i, sizes = [2] : (tensor<5xf32>, tensor<i32>) -> tensor<2xf32>
  %t = stablehlo.sine %s : tensor<2xf32>
  %u = stablehlo.dynamic_update_slice %x, %t, %i : (tensor<5xf32>, tensor<2xf32>, tensor<i32>) -> tensor<5xf32>
  %w = stablehlo.slice %u [1:3] : (tensor<5xf32>) -> tensor<2xf32>
  %r = stablehlo.multiply %w, %s : tensor<2xf32>
  return %r : tensor<2xf32>
}
)");
  ASSERT_TRUE(WriteNpyFile(dir + "/x.npy", Floats({5}, {0.1, 0.2, 0.3, 0.4, 0.5})).ok());
  HostArray start{PJRT_Buffer_Type_S32, {}, std::vector<std::byte>(4)};
  start.data[0] = std::byte{1};
  ASSERT_TRUE(WriteNpyFile(dir + "/i.npy", start).ok());
  CommandResult grad = RunCli("grad " + dir + "/ds.mlir --wrt 0 -o " + dir + "/g.mlir");
  ASSERT_EQ(grad.exit_code, 0) << grad.output;
  CommandResult run = RunCli("run " + dir + "/g.mlir -i " + dir + "/x.npy -i " + dir + "/i.npy");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  // r = sin(x[1:3]) x[1:3]: x cos x + sin x there (0.3946826, 0.5821212), 0 elsewhere.
  EXPECT_TRUE(Contains(run.output,
                       "array([0.        , 0.39468265, 0.5821212 , 0.        , 0.        ]"))
      << run.output;
}

HostArray Doubles(std::vector<int64_t> dims, const std::vector<double>& values) {
  HostArray array{PJRT_Buffer_Type_F64, std::move(dims), {}};
  array.data.resize(values.size() * sizeof(double));
  std::memcpy(array.data.data(), values.data(), array.data.size());
  return array;
}

// `plugrt grad` of the f64 scalar function in dir/f.mlir, whose arguments
// are `args` (written as .npy files), with respect to argument `wrt`: its
// gradient at the entries `checked` against central differences of f run
// by `plugrt run`.
void ExpectGradientMatchesDifferences(const std::string& dir, std::vector<HostArray> args,
                                      size_t wrt, const std::vector<size_t>& checked) {
  std::string inputs;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string path = dir + "/arg" + std::to_string(i) + ".npy";
    ASSERT_TRUE(WriteNpyFile(path, args[i]).ok());
    inputs += " -i " + path;
  }
  CommandResult grad = RunCli("grad " + dir + "/f.mlir --wrt " + std::to_string(wrt) + " -o " +
                              dir + "/g.mlir");
  ASSERT_EQ(grad.exit_code, 0) << grad.output;
  CommandResult run = RunCli("run " + dir + "/g.mlir" + inputs + " --output " + dir + "/g");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  StatusOr<HostArray> g = ReadNpyFile(dir + "/g/out0.npy");
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  ASSERT_EQ(g->data.size(), args[wrt].data.size());
  auto forward = [&](const HostArray& moved) -> double {
    std::string moved_inputs;
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string name = i == wrt ? "moved" : "arg" + std::to_string(i);
      moved_inputs += " -i " + dir + "/" + name + ".npy";
    }
    EXPECT_TRUE(WriteNpyFile(dir + "/moved.npy", moved).ok());
    std::filesystem::remove_all(dir + "/f");
    CommandResult f = RunCli("run " + dir + "/f.mlir" + moved_inputs + " --output " + dir + "/f");
    EXPECT_EQ(f.exit_code, 0) << f.output;
    StatusOr<HostArray> out = ReadNpyFile(dir + "/f/out0.npy");
    double value = 0;
    if (out.ok() && out->data.size() == sizeof(double)) {
      std::memcpy(&value, out->data.data(), sizeof value);
    }
    return value;
  };
  const double h = 1e-6;
  for (size_t k : checked) {
    HostArray up = args[wrt], down = args[wrt];
    double v = 0;
    std::memcpy(&v, up.data.data() + k * sizeof(double), sizeof v);
    const double vu = v + h, vd = v - h;
    std::memcpy(up.data.data() + k * sizeof(double), &vu, sizeof vu);
    std::memcpy(down.data.data() + k * sizeof(double), &vd, sizeof vd);
    const double numeric = (forward(up) - forward(down)) / (2 * h);
    double analytic = 0;
    std::memcpy(&analytic, g->data.data() + k * sizeof(double), sizeof analytic);
    EXPECT_NEAR(analytic, numeric, 1e-6 * (1 + std::abs(numeric))) << "entry " << k;
  }
}

// A small CNN as JAX writes one (convolution, ReLU, max pooling by
// reduce_window, tanh, sum): the weight gradient against central
// differences, in f64.
TEST(CliRunTest, GradThroughConvolutionAndPooling) {
  const plugrt::testing::TempDir temp_dir("cli-run-grad_cnn");
  const std::string dir = temp_dir.path();
  WriteText(dir + "/f.mlir", R"(
func.func @main(%x: tensor<1x5x5x2xf64>, %w: tensor<3x3x2x2xf64>) -> tensor<f64> {
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x2xf64>, tensor<3x3x2x2xf64>) -> tensor<1x5x5x2xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %zeros = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f64>) -> tensor<1x5x5x2xf64>
  %r = stablehlo.maximum %c, %zeros : tensor<1x5x5x2xf64>
  %low = stablehlo.constant dense<-1.0e30> : tensor<f64>
  %p = "stablehlo.reduce_window"(%r, %low) ({
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %m = stablehlo.maximum %a, %b : tensor<f64>
      stablehlo.return %m : tensor<f64>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<1x5x5x2xf64>, tensor<f64>) -> tensor<1x3x3x2xf64>
  %t = stablehlo.tanh %p : tensor<1x3x3x2xf64>
  %s = stablehlo.reduce(%t init: %zero) applies stablehlo.add across dimensions = [0, 1, 2, 3] : (tensor<1x3x3x2xf64>, tensor<f64>) -> tensor<f64>
  return %s : tensor<f64>
}
)");
  std::vector<double> x(50), w(36);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.7 * static_cast<double>(i) + 0.3);
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.4 * std::cos(1.3 * static_cast<double>(i));
  ExpectGradientMatchesDifferences(dir, {Doubles({1, 5, 5, 2}, x), Doubles({3, 3, 2, 2}, w)},
                                   1, {0, 7, 19, 35});
}

// Indexing as JAX lowers it: rows gathered (x[idx]) and added back at
// indices (zeros.at[idx].add(...)), rows used twice included.
TEST(CliRunTest, GradThroughGatherAndScatter) {
  const plugrt::testing::TempDir temp_dir("cli-run-grad_gather");
  const std::string dir = temp_dir.path();
  WriteText(dir + "/f.mlir", R"(
func.func @main(%x: tensor<4x3xf64>) -> tensor<f64> {
  %idx = stablehlo.constant dense<[[2], [0], [2]]> : tensor<3x1xi32>
  %rows = "stablehlo.gather"(%x, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>, indices_are_sorted = false} : (tensor<4x3xf64>, tensor<3x1xi32>) -> tensor<3x3xf64>
  %sq = stablehlo.sine %rows : tensor<3x3xf64>
  %upd = stablehlo.multiply %sq, %rows : tensor<3x3xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %zeros = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f64>) -> tensor<4x3xf64>
  %s = "stablehlo.scatter"(%zeros, %idx, %upd) ({
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %m = stablehlo.add %a, %b : tensor<f64>
      stablehlo.return %m : tensor<f64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false} : (tensor<4x3xf64>, tensor<3x1xi32>, tensor<3x3xf64>) -> tensor<4x3xf64>
  %e = stablehlo.exponential %s : tensor<4x3xf64>
  %y = stablehlo.multiply %e, %x : tensor<4x3xf64>
  %r = stablehlo.reduce(%y init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x3xf64>, tensor<f64>) -> tensor<f64>
  return %r : tensor<f64>
}
)");
  std::vector<double> x(12);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.3 * std::cos(0.9 * static_cast<double>(i));
  ExpectGradientMatchesDifferences(dir, {Doubles({4, 3}, x)}, 0, {0, 4, 6, 8, 10});
}

// The training step plugrt grad writes from examples/mlp_loss.mlir (the
// forward pass of bench/mlp_train_step.mlir) against the hand-written step,
// both scaled down as bench/check_programs.py scales them.
TEST(CliRunTest, GradTrainingStepMatchesTheHandWrittenStep) {
  auto scaled = [](std::string text) {
    for (auto [from, to] : {std::pair<std::string, std::string>{"256", "4"}, {"784", "12"},
                            {"1024", "16"}, {"3.906250e-03", "2.500000e-01"}}) {
      for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
        text.replace(at, from.size(), to);
        at += to.size();
      }
    }
    return text;
  };
  auto read = [](const std::filesystem::path& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const plugrt::testing::TempDir temp_dir("cli-run-grad_mlp");
  const std::string dir = temp_dir.path();
  WriteText(dir + "/loss.mlir", scaled(read(kSourceRoot / "examples/mlp_loss.mlir")));
  WriteText(dir + "/step.mlir", scaled(read(kSourceRoot / "bench/mlp_train_step.mlir")));
  CommandResult grad = RunCli("grad " + dir + "/loss.mlir --wrt 2,3,4,5,6,7 --value --sgd 0.01" +
                              " -o " + dir + "/grad_step.mlir");
  ASSERT_EQ(grad.exit_code, 0) << grad.output;

  const std::vector<std::vector<int64_t>> shapes = {{4, 12}, {4, 10}, {12, 16}, {16},
                                                    {16, 16}, {16}, {16, 10}, {10}};
  std::string inputs;
  uint32_t seed = 12345;
  for (size_t i = 0; i < shapes.size(); ++i) {
    int64_t count = 1;
    for (int64_t d : shapes[i]) count *= d;
    std::vector<float> values(count);
    for (int64_t k = 0; k < count; ++k) {
      seed = seed * 1664525u + 1013904223u;
      const float u = static_cast<float>(seed >> 8) / 16777216.0f;  // [0, 1)
      // One-hot labels; other values in [-0.5, 0.5).
      values[k] = i == 1 ? (k % 10 == (k / 10) % 10 ? 1.0f : 0.0f) : u - 0.5f;
    }
    const std::string path = dir + "/in" + std::to_string(i) + ".npy";
    ASSERT_TRUE(WriteNpyFile(path, Floats(shapes[i], values)).ok());
    inputs += " -i " + path;
  }
  CommandResult hand = RunCli("run " + dir + "/step.mlir" + inputs + " --output " + dir + "/hand");
  FAIL_IF_NO_COMPILER(hand);
  ASSERT_EQ(hand.exit_code, 0) << hand.output;
  CommandResult made = RunCli("run " + dir + "/grad_step.mlir" + inputs + " --output " + dir +
                              "/made");
  ASSERT_EQ(made.exit_code, 0) << made.output;
  for (int o = 0; o < 7; ++o) {
    const std::string name = "/out" + std::to_string(o) + ".npy";
    StatusOr<HostArray> a = ReadNpyFile(dir + "/hand" + name);
    StatusOr<HostArray> b = ReadNpyFile(dir + "/made" + name);
    ASSERT_TRUE(a.ok() && b.ok()) << name;
    ASSERT_EQ(a->dims, b->dims) << name;
    ASSERT_EQ(a->data.size(), b->data.size()) << name;
    const float* x = reinterpret_cast<const float*>(a->data.data());
    const float* y = reinterpret_cast<const float*>(b->data.data());
    for (size_t k = 0; k < a->data.size() / sizeof(float); ++k) {
      EXPECT_NEAR(x[k], y[k], 1e-5f + 1e-5f * std::abs(x[k])) << name << " element " << k;
    }
  }
}

TEST(CliRunTest, GradErrorsExitOne) {
  const plugrt::testing::TempDir temp_dir("cli-run-grad_errors");
  const std::string dir = temp_dir.path();
  WriteText(dir + "/f.mlir", kGradProgram);
  const std::string f = dir + "/f.mlir";
  EXPECT_TRUE(FailedWith(RunCli("grad " + f + " --wrt 2"), 1,
                         "argument 2 is s32[]; only floating-point arguments have gradients"));
  EXPECT_TRUE(FailedWith(RunCli("grad " + f + " --wrt 7"), 1, "--wrt 7: @main has 3 arguments"));
  EXPECT_TRUE(FailedWith(RunCli("grad " + f + " --wrt 0,0"), 1, "names argument 0 twice"));
  EXPECT_TRUE(FailedWith(RunCli("grad " + f + " --entry nope"), 1, "no function @nope"));
  EXPECT_TRUE(FailedWith(RunCli("grad " + dir + "/missing.mlir"), 1, "missing.mlir"));
  // An op the trace cannot run is named.
  WriteText(dir + "/custom.mlir", R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @my_op(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
  EXPECT_TRUE(FailedWith(RunCli("grad " + dir + "/custom.mlir"), 1,
                         "UNIMPLEMENTED: stablehlo.custom_call cannot be run op by op"));
  EXPECT_TRUE(FailedWith(RunCli("grad " + f + " --wrt x"), 2, "--wrt"));
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
