// The CLI with portable artifacts: `plugrt convert --to text` prints bytecode
// and its .mlir twin byte-identically; `inspect` and `compile` take
// .mlirbc / .mlir.bc files; `convert` writes artifacts for a chosen StableHLO
// version that read back as the program they were written from.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/status.h"
#include "testutil/corpus.h"
#include "testutil/run_command.h"
#include "testutil/temp_dir.h"

namespace plugrt {
namespace {

namespace fs = std::filesystem;
using testing::RunCli;
using testutil::CorpusDir;
using testutil::ReadFile;

TEST(BytecodeCliTest, ConvertToTextPrintsBytecodeAndTextIdentically) {
  const plugrt::testing::TempDir temp_dir("bytecode-cli-convert");
  const std::string dir = temp_dir.path();
  fs::path bc = CorpusDir() / "vhlo" / "stablehlo_legalize_to_vhlo.1_9_0.mlir.bc";
  fs::path twin = CorpusDir() / "vhlo" / "stablehlo_legalize_to_vhlo.1_9_0.mlir";
  testing::CommandResult a = RunCli("convert " + bc.string() + " --to text -o " + dir + "/a.mlir");
  ASSERT_EQ(a.exit_code, 0) << a.output;
  testing::CommandResult b =
      RunCli("convert " + twin.string() + " --to text -o " + dir + "/b.mlir");
  ASSERT_EQ(b.exit_code, 0) << b.output;
  std::string from_bc = ReadFile(dir + "/a.mlir");
  EXPECT_FALSE(from_bc.empty());
  EXPECT_EQ(from_bc, ReadFile(dir + "/b.mlir"));
  EXPECT_EQ(from_bc.find("loc("), std::string::npos);
}

TEST(BytecodeCliTest, InspectAndCompileTakeArtifacts) {
  const plugrt::testing::TempDir temp_dir("bytecode-cli-inspect");
  const std::string dir = temp_dir.path();
  fs::copy_file(CorpusDir() / "vhlo" / "vhlo_emit_version_api.1_1_0.mlir.bc", dir + "/p.mlirbc",
                fs::copy_options::overwrite_existing);
  testing::CommandResult inspected = RunCli("inspect " + dir + "/p.mlirbc");
  ASSERT_EQ(inspected.exit_code, 0) << inspected.output;
  EXPECT_NE(inspected.output.find("outputs: 1"), std::string::npos) << inspected.output;
  testing::CommandResult compiled =
      RunCli("compile " + dir + "/p.mlirbc -o " + dir + "/p.pjrt");
  ASSERT_EQ(compiled.exit_code, 0) << compiled.output;
}

TEST(BytecodeCliTest, DamagedArtifactIsAnError) {
  const plugrt::testing::TempDir temp_dir("bytecode-cli-damaged");
  const std::string dir = temp_dir.path();
  std::string bytes = ReadFile(CorpusDir() / "vhlo" / "vhlo_emit_version_api.1_1_0.mlir.bc");
  bytes.resize(bytes.size() / 2);
  {
    std::ofstream out(dir + "/bad.mlir.bc", std::ios::binary);
    out << bytes;
  }
  testing::CommandResult r = RunCli("convert " + dir + "/bad.mlir.bc --to text -o " + dir + "/x");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("INVALID_ARGUMENT: bytecode: at byte"), std::string::npos) << r.output;
  testing::CommandResult w = RunCli("convert " + dir + "/bad.mlir.bc -o " + dir + "/x");
  EXPECT_EQ(w.exit_code, 1);
  EXPECT_NE(w.output.find("INVALID_ARGUMENT: bytecode: at byte"), std::string::npos) << w.output;
}

TEST(BytecodeCliTest, ConvertWritesArtifactsForATargetVersion) {
  const plugrt::testing::TempDir temp_dir("bytecode-cli-write");
  const std::string dir = temp_dir.path();
  fs::path text = CorpusDir() / "vhlo" / "stablehlo_legalize_to_vhlo.0_9_0.mlir";
  testing::CommandResult t = RunCli("convert " + text.string() + " --to text -o " + dir + "/t.mlir");
  ASSERT_EQ(t.exit_code, 0) << t.output;
  for (const char* target : {"", " --target 0.9.0", " --target 1.20.0"}) {
    testing::CommandResult w =
        RunCli("convert " + text.string() + " -o " + dir + "/p.mlirbc" + target);
    ASSERT_EQ(w.exit_code, 0) << target << ": " << w.output;
    std::string bytes = ReadFile(dir + "/p.mlirbc");
    ASSERT_GT(bytes.size(), 4u);
    EXPECT_EQ(bytes.substr(0, 4), std::string("ML\xEFR", 4));
    testing::CommandResult r =
        RunCli("convert " + dir + "/p.mlirbc --to text -o " + dir + "/r.mlir");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(ReadFile(dir + "/r.mlir"), ReadFile(dir + "/t.mlir")) << target;
  }
  testing::CommandResult bad =
      RunCli("convert " + text.string() + " -o " + dir + "/p.mlirbc --target 3.0.0");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.output.find("INVALID_ARGUMENT"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("3.0.0"), std::string::npos) << bad.output;
  testing::CommandResult mixed =
      RunCli("convert " + text.string() + " --to text -o " + dir + "/x --target 1.0.0");
  EXPECT_EQ(mixed.exit_code, 1);
  EXPECT_NE(mixed.output.find("--target applies to --to bytecode only"), std::string::npos)
      << mixed.output;
}

// JAX's self-checking programs written as artifacts for the oldest and the
// newest target (bytecode formats 0 and 6) still compile, run and pass
// their checks: every 64th non-CHLO file of testdata/.
TEST(BytecodeCliTest, WrittenArtifactsPassConformance) {
  const plugrt::testing::TempDir temp_dir("bytecode-cli-conformance");
  const std::string dir = temp_dir.path();
  std::vector<fs::path> files = testutil::MlirFiles(CorpusDir() / "testdata");
  std::vector<fs::path> sample;
  for (size_t i = 0; i < files.size(); i += 64) {
    if (files[i].filename().string().find("chlo") == std::string::npos) sample.push_back(files[i]);
  }
  ASSERT_GT(sample.size(), 20u);
  std::string written;
  for (const fs::path& file : sample) {
    for (const char* target : {"0.9.0", "1.20.0"}) {
      std::string out = dir + "/" + file.stem().string() + "." + target + ".mlirbc";
      testing::CommandResult w =
          RunCli("convert " + file.string() + " -o " + out + " --target " + target);
      ASSERT_EQ(w.exit_code, 0) << file << " @" << target << ": " << w.output;
      written += " " + out;
    }
  }
  testing::CommandResult r = RunCli("conformance" + written + " --jobs 2");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(StrCat(2 * sample.size(), " passed, 0 failed")), std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace plugrt
