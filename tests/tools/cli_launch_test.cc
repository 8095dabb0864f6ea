// `plugrt launch`: a job of several `plugrt run` processes whose collectives
// span them, output prefixed per process, and the first failure ending the
// job with its status.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "testutil/cross_process_programs.h"
#include "testutil/redis_server.h"
#include "testutil/run_command.h"
#include "testutil/temp_dir.h"

namespace plugrt::testing {
namespace {

std::string WriteProgram(const std::string& dir) {
  const std::string path = dir + "/sum.mlir";
  std::ofstream(path) << kTwoProcessSumProgram;
  return path;
}

void ExpectBothNodesSummed(const CommandResult& result) {
  EXPECT_EQ(result.exit_code, 0) << result.output;
  for (int node = 0; node < 2; ++node) {
    const std::string prefix = "[node " + std::to_string(node) + "] ";
    EXPECT_NE(result.output.find(prefix + "output 0: f32[2]"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find(prefix + "array([ 3., 30.], dtype=float32)"), std::string::npos) << result.output;
  }
}

TEST(CliLaunchTest, RunsOneProgramAcrossProcesses) {
  const plugrt::testing::TempDir temp_dir("cli-launch-run");
  const std::string dir = temp_dir.path();
  ExpectBothNodesSummed(RunCli("launch -n 2 -- plugrt run " + WriteProgram(dir)));
}

TEST(CliLaunchTest, RunsThroughAFileStoreAndRedis) {
  const plugrt::testing::TempDir temp_dir("cli-launch-stores");
  const std::string dir = temp_dir.path();
  const std::string program = WriteProgram(dir);
  ExpectBothNodesSummed(RunCli("launch -n 2 --store file:" + dir + "/kv -- plugrt run " + program));
  RedisServer server;
  if (!server.ok()) GTEST_SKIP() << server.error();
  ExpectBothNodesSummed(
      RunCli("launch -n 2 --store " + server.address() + "/job: -- plugrt run " + program));
}

TEST(CliLaunchTest, TheFirstFailureEndsTheJobWithItsStatus) {
  // Node 1 fails at once; node 0 would run for a minute unless stopped.
  CommandResult result = RunCli(
      "launch -n 2 --grace-ms 500 -- sh -c "
      "'if [ \"$PLUGRT_NODE_ID\" = 1 ]; then echo bye; exit 3; fi; sleep 60'");
  EXPECT_EQ(result.exit_code, 3) << result.output;
  EXPECT_NE(result.output.find("[node 1] bye"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("node 1 exited with status 3 first"), std::string::npos)
      << result.output;
}

TEST(CliLaunchTest, EveryProcessLearnsItsPlace) {
  CommandResult result = RunCli(
      "launch -n 3 -- sh -c 'echo id=$PLUGRT_NODE_ID of=$PLUGRT_NUM_NODES "
      "store=${PLUGRT_KV_STORE%%:*}'");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  for (int node = 0; node < 3; ++node) {
    EXPECT_NE(result.output.find("[node " + std::to_string(node) + "] id=" +
                                 std::to_string(node) + " of=3 store=file"),
              std::string::npos)
        << result.output;
  }
}

TEST(CliLaunchTest, AJobWithoutAStoreIsRefused) {
  const plugrt::testing::TempDir temp_dir("cli-launch-nostore");
  const std::string dir = temp_dir.path();
  CommandResult result = RunCommand("PLUGRT_NUM_NODES=2 PLUGRT_NODE_ID=0 " +
                                    std::string(PLUGRT_CLI_PATH) + " run " + WriteProgram(dir));
  EXPECT_TRUE(FailedWith(result, 1, "PLUGRT_KV_STORE")) << result.output;
}

}  // namespace
}  // namespace plugrt::testing
