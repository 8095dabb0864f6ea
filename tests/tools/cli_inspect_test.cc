// `plugrt inspect` on program text and on a serialized executable, and its
// errors, through the CLI binary and the dlopen-loaded CPU plugin.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "client/client.h"
#include "client/executable.h"
#include "testutil/plugin_env.h"
#include "testutil/programs.h"
#include "testutil/run_command.h"
#include "testutil/temp_dir.h"

namespace plugrt {
namespace {

using plugrt::testing::TempPath;

using ::testing::HasSubstr;

using testing::kCostProgram;

void WriteFile(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

std::string Fingerprint(const std::string& output) {
  std::smatch match;
  static const std::regex kLine("fingerprint: ([0-9a-f]{32})");
  if (!std::regex_search(output, match, kLine)) return "";
  return match[1];
}

TEST(CliInspectTest, ProgramTextAndSerializedFileAgree) {
  const std::string program = TempPath("costly.mlir");
  WriteFile(program, kCostProgram);
  testing::CommandResult text = testing::RunCli("inspect " + program);
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_THAT(text.output, HasSubstr("name: costly"));
  EXPECT_THAT(text.output, HasSubstr("replicas: 1"));
  EXPECT_THAT(text.output, HasSubstr("partitions: 1"));
  EXPECT_THAT(text.output, HasSubstr("outputs: 2"));
  EXPECT_THAT(text.output, HasSubstr("output 0: f32[2,4] (memory device)"));
  EXPECT_THAT(text.output, HasSubstr("output 1: f32[2,3]"));
  EXPECT_THAT(text.output, HasSubstr("flops: 48\n"));
  EXPECT_THAT(text.output, HasSubstr("transcendentals: 6\n"));
  EXPECT_THAT(text.output, HasSubstr("bytes accessed: 152\n"));
  EXPECT_THAT(text.output, HasSubstr("arguments: 72\n"));
  EXPECT_THAT(text.output, HasSubstr("outputs: 56\n"));
  EXPECT_THAT(text.output, HasSubstr("generated code size: "));
  const std::string fingerprint = Fingerprint(text.output);
  ASSERT_FALSE(fingerprint.empty()) << text.output;

  // The same program serialized in this process: same metadata and
  // fingerprint from the file.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, testing::CreateCpuClient(1));
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable loaded, client->Compile(kCostProgram));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string bytes, loaded.Serialize());
  const std::string serialized = TempPath("costly.plugrtex");
  WriteFile(serialized, bytes);
  testing::CommandResult file = testing::RunCli("inspect " + serialized);
  ASSERT_EQ(file.exit_code, 0) << file.output;
  EXPECT_EQ(file.output, text.output);
  EXPECT_EQ(Fingerprint(file.output), fingerprint);
}

TEST(CliInspectTest, BadFilesAreClearErrors) {
  const std::string corrupt = TempPath("corrupt.plugrtex");
  // Magic and version 1, then too few bytes for the payload length.
  WriteFile(corrupt, std::string("PLUGRTEX\x01\x00\x00\x00garbage", 19));
  testing::CommandResult result = testing::RunCli("inspect " + corrupt);
  EXPECT_TRUE(testing::FailedWith(result, 1, "loading the serialized executable failed"));
  EXPECT_THAT(result.output, HasSubstr("truncated"));

  testing::CommandResult missing = testing::RunCli("inspect " + TempPath("does_not_exist.mlir"));
  EXPECT_TRUE(testing::FailedWith(missing, 1, "cannot open"));
}

}  // namespace
}  // namespace plugrt
