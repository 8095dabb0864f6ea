// `plugrt compile` as a user runs it: ahead-of-time compile to a file, then
// `plugrt run FILE` in a new process with the same output as running the
// program text; and the errors for bad programs, topologies and options.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "testutil/run_command.h"
#include "testutil/temp_dir.h"
#include "client/npy.h"

namespace plugrt::testing {
namespace {

void WriteText(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

constexpr const char* kReplicated = R"(
module @r attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = stablehlo.multiply %x, %x : tensor<2xf32>
    %r = stablehlo.replica_id : tensor<ui32>
    %f = stablehlo.convert %r : (tensor<ui32>) -> tensor<f32>
    %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %1 = stablehlo.add %0, %b : tensor<2xf32>
    return %1 : tensor<2xf32>
  }
}
)";

constexpr const char* kSingle = R"(
func.func @main() -> tensor<3xi32> {
  %c = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %0 = stablehlo.add %c, %c : tensor<3xi32>
  return %0 : tensor<3xi32>
}
)";

void WriteFloats(const std::string& path, std::vector<float> values) {
  HostArray array{PJRT_Buffer_Type_F32, {static_cast<int64_t>(values.size())}, {}};
  array.data.resize(values.size() * sizeof(float));
  std::memcpy(array.data.data(), values.data(), array.data.size());
  ASSERT_TRUE(WriteNpyFile(path, array).ok());
}

TEST(CliCompileTest, CompiledFileRunsLikeTheProgramText) {
  const plugrt::testing::TempDir temp_dir("cli-compile-replicated");
  const std::string dir = temp_dir.path();
  WriteText(dir + "/r.mlir", kReplicated);
  WriteFloats(dir + "/x.npy", {3, -1});

  CommandResult compiled = RunCli("compile " + dir + "/r.mlir -o " + dir + "/r.pjrt --replicas 2");
  ASSERT_EQ(compiled.exit_code, 0) << compiled.output;
  EXPECT_TRUE(Contains(compiled.output, "cpu:2")) << compiled.output;
  ASSERT_TRUE(std::filesystem::exists(dir + "/r.pjrt"));
  EXPECT_GT(std::filesystem::file_size(dir + "/r.pjrt"), 0u);

  CommandResult from_file = RunCli("run " + dir + "/r.pjrt --devices 2 --input " + dir + "/x.npy");
  ASSERT_EQ(from_file.exit_code, 0) << from_file.output;
  CommandResult from_text = RunCli("run " + dir + "/r.mlir --devices 2 --input " + dir + "/x.npy");
  ASSERT_EQ(from_text.exit_code, 0) << from_text.output;
  EXPECT_EQ(from_file.output, from_text.output);
  EXPECT_TRUE(Contains(from_file.output, "array([9., 1.], dtype=float32)")) << from_file.output;
  EXPECT_TRUE(Contains(from_file.output, "array([10.,  2.], dtype=float32)") ||
              Contains(from_file.output, "array([10., 2.], dtype=float32)"))
      << from_file.output;
}

TEST(CliCompileTest, ExplicitTopologyAndDefault) {
  const plugrt::testing::TempDir temp_dir("cli-compile-topology");
  const std::string dir = temp_dir.path();
  WriteText(dir + "/s.mlir", kSingle);
  CommandResult plain = RunCli("compile " + dir + "/s.mlir -o " + dir + "/s.pjrt");
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_TRUE(Contains(plain.output, "topology cpu)")) << plain.output;
  CommandResult run = RunCli("run " + dir + "/s.pjrt");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(Contains(run.output, "[2, 4, 6]")) << run.output;

  WriteText(dir + "/r.mlir", kReplicated);
  CommandResult big = RunCli("compile " + dir + "/r.mlir -o " + dir + "/r.pjrt --topology cpu:4");
  ASSERT_EQ(big.exit_code, 0) << big.output;
  EXPECT_TRUE(Contains(big.output, "cpu:4")) << big.output;
}

TEST(CliCompileTest, ErrorsNameTheirCause) {
  const plugrt::testing::TempDir temp_dir("cli-compile-errors");
  const std::string dir = temp_dir.path();
  WriteText(dir + "/r.mlir", kReplicated);
  WriteText(dir + "/bad.mlir", "func.func @main() -> tensor<i32> {\n  %0 = stablehlo.nope\n}\n");

  CommandResult missing = RunCli("compile " + dir + "/missing.mlir -o " + dir + "/x.pjrt");
  EXPECT_TRUE(FailedWith(missing, 1, dir + "/missing.mlir"));

  CommandResult bad = RunCli("compile " + dir + "/bad.mlir -o " + dir + "/x.pjrt");
  EXPECT_TRUE(FailedWith(bad, 1, dir + "/bad.mlir:"));
  EXPECT_FALSE(Contains(bad.output, "<program>")) << bad.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.pjrt"));

  // Two replicas do not fit the one-device default topology.
  CommandResult small = RunCli("compile " + dir + "/r.mlir -o " + dir + "/x.pjrt");
  EXPECT_TRUE(FailedWith(small, 1, "needs 2 devices"));
  EXPECT_TRUE(Contains(small.output, dir + "/r.mlir")) << small.output;

  CommandResult topology = RunCli("compile " + dir + "/r.mlir -o " + dir + "/x.pjrt --topology gpu:2");
  EXPECT_TRUE(FailedWith(topology, 1, "gpu:2"));

  // Replica count contradicting the program.
  CommandResult replicas = RunCli("compile " + dir + "/r.mlir -o " + dir + "/x.pjrt --replicas 3");
  EXPECT_TRUE(FailedWith(replicas, 1, "mhlo.num_replicas is 2 but the compile options' num_replicas is 3"));

  CommandResult no_output = RunCli("compile " + dir + "/r.mlir");
  EXPECT_TRUE(FailedWith(no_output, 2, "--output is required"));

  CommandResult unwritable =
      RunCli("compile " + dir + "/r.mlir --replicas 2 -o " + dir + "/no/such/dir/x.pjrt");
  EXPECT_TRUE(FailedWith(unwritable, 1, "cannot open for writing"));

  // A serialized executable run on too few devices.
  ASSERT_EQ(RunCli("compile " + dir + "/r.mlir --replicas 2 -o " + dir + "/r.pjrt").exit_code, 0);
  CommandResult too_few = RunCli("run " + dir + "/r.pjrt --devices 1");
  EXPECT_TRUE(FailedWith(too_few, 1, "2 devices"));
}

}  // namespace
}  // namespace plugrt::testing
