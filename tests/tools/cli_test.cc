// The plugrt command line as a user runs it: help, exit codes, `devices`.
#include <gtest/gtest.h>

#include <csignal>
#include <string>

#include "testutil/run_command.h"

namespace plugrt::testing {
namespace {

size_t Count(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

TEST(CliTest, HelpListsSubcommands) {
  CommandResult result = RunCli("--help");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("devices"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("Usage"), std::string::npos) << result.output;
}

TEST(CliTest, SubcommandHelpListsOptions) {
  CommandResult result = RunCli("devices --help");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("--plugin"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("--devices"), std::string::npos) << result.output;
}

TEST(CliTest, VersionFlag) {
  CommandResult result = RunCli("--version");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("plugrt "), std::string::npos) << result.output;
}

// What every CLI failure test relies on: a crash is never the failure it
// expected, whether the signal ends the shell or the shell reports it.
TEST(CliTest, FailedWithRefusesCrashesAndOtherCodes) {
  CommandResult killed = RunCommand("echo oops; kill -SEGV $$");
  EXPECT_NE(killed.signal, 0);
  EXPECT_FALSE(FailedWith(killed, 1, "oops"));
  CommandResult reported = RunCommand("sh -c 'echo oops; kill -ABRT $$'");
  EXPECT_EQ(reported.signal, SIGABRT);
  EXPECT_FALSE(FailedWith(reported, 1, "oops"));
  CommandResult clean = RunCommand("echo oops; exit 1");
  EXPECT_TRUE(FailedWith(clean, 1, "oops"));
  EXPECT_FALSE(FailedWith(clean, 2, "oops"));
  EXPECT_FALSE(FailedWith(clean, 1, "something else"));
}

TEST(CliTest, UsageErrorsExitTwo) {
  EXPECT_TRUE(FailedWith(RunCli(""), 2, "A subcommand is required"));
  EXPECT_TRUE(FailedWith(RunCli("no-such-command"), 2, "A subcommand is required"));
  EXPECT_TRUE(FailedWith(RunCli("devices --devices 0"), 2, "--devices: Value 0 not in range"));
  EXPECT_TRUE(FailedWith(RunCli("devices --devices four"), 2, "--devices: Value four not in range"));
}

TEST(CliTest, DevicesPrintsEveryDevice) {
  CommandResult result = RunCli("devices --devices 4");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string& out = result.output;
  EXPECT_NE(out.find("platform: cpu"), std::string::npos) << out;
  EXPECT_NE(out.find("xla_version="), std::string::npos) << out;
  EXPECT_NE(out.find("stablehlo_current_version=["), std::string::npos) << out;
  EXPECT_NE(out.find("devices: 4 (4 addressable)"), std::string::npos) << out;
  for (int id = 0; id < 4; ++id) {
    EXPECT_NE(out.find("device " + std::to_string(id) + ": cpu"), std::string::npos) << out;
  }
  EXPECT_EQ(Count(out, "memory stats: bytes_in_use="), 4u) << out;
  EXPECT_EQ(Count(out, ": pinned_host"), 4u) << out;
  EXPECT_EQ(Count(out, ": unpinned_host"), 4u) << out;
  EXPECT_EQ(Count(out, "[default]"), 4u) << out;
}

TEST(CliTest, DefaultIsOneDevice) {
  CommandResult result = RunCli("devices");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("devices: 1 (1 addressable)"), std::string::npos) << result.output;
}

TEST(CliTest, MissingPluginIsAClearError) {
  CommandResult result = RunCli("devices --plugin /nonexistent/libnothing.so");
  EXPECT_TRUE(FailedWith(result, 1, "/nonexistent/libnothing.so"));
}

}  // namespace
}  // namespace plugrt::testing
