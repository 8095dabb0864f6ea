// The CLI with XLA's program forms: `convert --to hlo` writes HLO text that
// `run` takes as it is (told by its content) with the same outputs as the
// StableHLO it came from; `convert --to hlo_proto` writes a serialized
// HloModuleProto that `run --format hlo` and `inspect --format hlo` take;
// HLO text with elided constants runs only under --fill-elided.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "testutil/run_command.h"
#include "testutil/temp_dir.h"

namespace plugrt {
namespace {

using testing::RunCli;

const char kProgram[] = R"(func.func @main() -> tensor<2x3xf32> {
  %x = stablehlo.constant dense<[[1.0, -2.0, 3.0], [4.0, -5.0, 6.0]]> : tensor<2x3xf32>
  %w = stablehlo.constant dense<[[0.5, 1.0, 0.0], [0.0, 1.0, -1.0], [2.0, 0.0, 1.0]]> : tensor<3x3xf32>
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  %e = stablehlo.exponential %d : tensor<2x3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %b = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
  %r = stablehlo.divide %e, %b : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)";

void Write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// The printed outputs of `run` (after its first line, which names the file).
std::string Outputs(const std::string& output) { return output.substr(output.find("output 0")); }

TEST(CliHloTest, ProgramsMoveToHloTextAndProtoAndRunTheSame) {
  const plugrt::testing::TempDir temp_dir("cli-hlo");
  const std::string dir = temp_dir.path();
  Write(dir + "/p.mlir", kProgram);
  testing::CommandResult direct = RunCli("run " + dir + "/p.mlir");
  ASSERT_EQ(direct.exit_code, 0) << direct.output;

  testing::CommandResult text = RunCli("convert " + dir + "/p.mlir --to hlo -o " + dir + "/p.txt");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  testing::CommandResult via_text = RunCli("run " + dir + "/p.txt");  // any extension
  ASSERT_EQ(via_text.exit_code, 0) << via_text.output;
  EXPECT_EQ(Outputs(via_text.output), Outputs(direct.output));

  testing::CommandResult proto =
      RunCli("convert " + dir + "/p.mlir --to hlo_proto -o " + dir + "/p.pb");
  ASSERT_EQ(proto.exit_code, 0) << proto.output;
  testing::CommandResult via_proto = RunCli("run " + dir + "/p.pb --format hlo");
  ASSERT_EQ(via_proto.exit_code, 0) << via_proto.output;
  EXPECT_EQ(Outputs(via_proto.output), Outputs(direct.output));
  // Without --format the bytes are refused with a pointer to it.
  testing::CommandResult unnamed = RunCli("run " + dir + "/p.pb");
  EXPECT_EQ(unnamed.exit_code, 1);
  EXPECT_NE(unnamed.output.find("--format hlo"), std::string::npos) << unnamed.output;
  testing::CommandResult inspected = RunCli("inspect " + dir + "/p.pb --format hlo");
  ASSERT_EQ(inspected.exit_code, 0) << inspected.output;
  EXPECT_NE(inspected.output.find("outputs: 1"), std::string::npos) << inspected.output;

  // And back: the HLO text printed as StableHLO reads and runs too.
  testing::CommandResult back = RunCli("convert " + dir + "/p.txt --to text -o " + dir + "/q.mlir");
  ASSERT_EQ(back.exit_code, 0) << back.output;
  testing::CommandResult via_back = RunCli("run " + dir + "/q.mlir");
  ASSERT_EQ(via_back.exit_code, 0) << via_back.output;
  EXPECT_EQ(Outputs(via_back.output), Outputs(direct.output));
}

TEST(CliHloTest, ElidedWeightsRunOnlyWhenFilled) {
  const plugrt::testing::TempDir temp_dir("cli-hlo-elided");
  const std::string dir = temp_dir.path();
  Write(dir + "/m.hlo", R"(HloModule m
ENTRY %main () -> f32[3] {
  %w = f32[3]{0} constant({...})
  ROOT %y = f32[3]{0} add(%w, %w)
}
)");
  testing::CommandResult refused = RunCli("run " + dir + "/m.hlo");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.output.find("left out of the file"), std::string::npos) << refused.output;
  testing::CommandResult zeros = RunCli("run " + dir + "/m.hlo --fill-elided=zeros");
  ASSERT_EQ(zeros.exit_code, 0) << zeros.output;
  EXPECT_NE(zeros.output.find("[0., 0., 0.]"), std::string::npos) << zeros.output;
  testing::CommandResult bad = RunCli("run " + dir + "/m.hlo --fill-elided=ones");
  EXPECT_NE(bad.exit_code, 0);
}

}  // namespace
}  // namespace plugrt
