// The CLI reads and writes through the filesystem registry: programs and
// .npy inputs from http:// (a local server the test starts), serialized
// executables to file:// URIs, outputs into a folder it creates, and a
// compile cache that a second process finds.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "client/npy.h"
#include "testutil/http_server.h"
#include "testutil/run_command.h"
#include "testutil/temp_dir.h"
#include "testutil/programs.h"

namespace plugrt {
namespace {

using plugrt::testing::kSquareProgram;

using testing::FailedWith;
using testing::RunCli;

class CliFilesystemTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ofstream(dir_ + "/prog.mlir") << kSquareProgram;
    HostArray x{PJRT_Buffer_Type_F32, {3}, {}};
    const float values[] = {1, -2, 3};
    x.data.resize(sizeof(values));
    std::memcpy(x.data.data(), values, sizeof(values));
    ASSERT_TRUE(WriteNpyFile(dir_ + "/x.npy", x).ok());
  }
  const plugrt::testing::TempDir temp_dir_{"fs-cli"};
  const std::string dir_ = temp_dir_.path();
};

TEST_F(CliFilesystemTest, RunsAProgramAndInputsServedOverHttp) {
  plugrt::testing::LocalHttpServer server(dir_);
  ASSERT_TRUE(server.ok()) << "python3 -m http.server did not start";
  auto result = RunCli("run " + server.Url("prog.mlir") + " --input " + server.Url("x.npy") +
                       " --output file://" + dir_ + "/out/nested");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, ::testing::HasSubstr("array([1., 4., 9.], dtype=float32)"));
  StatusOr<HostArray> out = ReadNpyFile(dir_ + "/out/nested/out0.npy");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->dims, std::vector<int64_t>{3});

  auto missing = RunCli("run " + server.Url("missing.mlir"));
  EXPECT_TRUE(FailedWith(missing, 1, "HTTP 404"));
  auto unknown = RunCli("run nosuch://prog.mlir");
  EXPECT_TRUE(FailedWith(unknown, 1, "no filesystem serves scheme 'nosuch'"));
}

TEST_F(CliFilesystemTest, SerializedExecutablesGoThroughTheRegistry) {
  auto compiled = RunCli("compile " + dir_ + "/prog.mlir -o file://" + dir_ + "/prog.pjrt");
  ASSERT_EQ(compiled.exit_code, 0) << compiled.output;
  ASSERT_TRUE(std::filesystem::exists(dir_ + "/prog.pjrt"));
  plugrt::testing::LocalHttpServer server(dir_);
  ASSERT_TRUE(server.ok());
  auto run = RunCli("run " + server.Url("prog.pjrt") + " --input " + dir_ + "/x.npy");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, ::testing::HasSubstr("array([1., 4., 9.], dtype=float32)"));
}

TEST_F(CliFilesystemTest, TheCompilationCacheServesTheNextProcess) {
  const std::string cache = dir_ + "/cache";
  const std::string env = "PLUGRT_COMPILATION_CACHE_DIR=" + cache + " ";
  auto first = testing::RunCommand(env + PLUGRT_CLI_PATH + std::string(" run ") + dir_ +
                                   "/prog.mlir --input " + dir_ + "/x.npy");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  auto second = testing::RunCommand(env + PLUGRT_CLI_PATH + std::string(" run ") + dir_ +
                                    "/prog.mlir --input " + dir_ + "/x.npy");
  ASSERT_EQ(second.exit_code, 0) << second.output;
  EXPECT_EQ(first.output, second.output);
  int entries = 0, stamps = 0;
  for (const auto& file : std::filesystem::directory_iterator(cache)) {
    entries += file.path().extension() == ".pcc";
    stamps += file.path().extension() == ".used";
  }
  EXPECT_EQ(entries, 1);
  EXPECT_EQ(stamps, 1);  // the second process hit
}

// A filesystem plugin's scheme serves the CLI (programs) and the CPU
// plugin (its cache directory) alike: each loads PLUGRT_FILESYSTEM_PLUGINS.
TEST_F(CliFilesystemTest, APluginSchemeServesProgramsAndTheCache) {
  std::filesystem::create_directory(dir_ + "/sandbox");
  std::filesystem::copy_file(dir_ + "/prog.mlir", dir_ + "/sandbox/prog.mlir");
  const std::string env = std::string("PLUGRT_FILESYSTEM_PLUGINS=") + PLUGRT_TEST_SANDBOX_FS +
                          " PLUGRT_TEST_SANDBOX_ROOT=" + dir_ + "/sandbox" +
                          " PLUGRT_COMPILATION_CACHE_DIR=sandbox://cache ";
  const std::string command = env + PLUGRT_CLI_PATH + std::string(" run sandbox://prog.mlir") +
                              " --input " + dir_ + "/x.npy";
  auto first = testing::RunCommand(command);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_THAT(first.output, ::testing::HasSubstr("array([1., 4., 9.], dtype=float32)"));
  auto second = testing::RunCommand(command);
  ASSERT_EQ(second.exit_code, 0) << second.output;
  int entries = 0, stamps = 0;
  for (const auto& file : std::filesystem::directory_iterator(dir_ + "/sandbox/cache")) {
    entries += file.path().extension() == ".pcc";
    stamps += file.path().extension() == ".used";
  }
  EXPECT_EQ(entries, 1);
  EXPECT_EQ(stamps, 1);
  // Without the plugin the scheme is unknown, and the error says how to load one.
  auto without = RunCli("run sandbox://prog.mlir");
  EXPECT_TRUE(FailedWith(without, 1, "PLUGRT_FILESYSTEM_PLUGINS"));
}

}  // namespace
}  // namespace plugrt
