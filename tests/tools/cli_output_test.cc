// What scripts rely on in plugrt's output: --json on devices and inspect
// (parsed here by Python's json module), nothing on standard error unless a
// log level asks for it, and the bash completion made from the CLI.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "client/client.h"
#include "testutil/run_command.h"

namespace plugrt::testing {
namespace {

const std::string kCli = PLUGRT_CLI_PATH;

// `command`'s standard output piped into a Python check of the JSON it holds.
CommandResult CheckJson(const std::string& command, const std::string& python) {
  return RunCommand(command + " 2>/dev/null | python3 -c 'import json, sys; d = json.load(sys.stdin); " +
                    python + "'");
}

TEST(CliOutputTest, DevicesJson) {
  CommandResult result = CheckJson(
      kCli + " devices --json --devices 2",
      "assert d[\"platform\"] == \"cpu\", d; assert len(d[\"devices\"]) == 2; "
      "assert d[\"api_version\"][\"major\"] == 0; "
      "m = d[\"devices\"][1][\"memories\"]; assert sum(x[\"default\"] for x in m) == 1, m; "
      "assert d[\"devices\"][0][\"memory_stats\"][\"bytes_in_use\"] >= 0; print(\"ok\")");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output, "ok\n");
}

TEST(CliOutputTest, InspectJson) {
  const std::string program =
      (std::filesystem::temp_directory_path() / ("plugrt-inspect-json-" + std::to_string(getpid()) + ".mlir"))
          .string();
  std::ofstream(program) << "func.func @main(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {\n"
                            "  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
                            "  return %t : tensor<3x2xf32>\n}\n";
  CommandResult result = CheckJson(
      kCli + " inspect --json " + program,
      "o = d[\"outputs\"]; assert o == [{\"element_type\": \"f32\", \"dimensions\": [3, 2], "
      "\"memory_kind\": o[0].get(\"memory_kind\")}], o; assert d[\"replicas\"] == 1; "
      "assert isinstance(d[\"fingerprint\"], str) or \"fingerprint\" in d[\"unavailable\"]; print(\"ok\")");
  std::filesystem::remove(program);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output, "ok\n");
}

TEST(CliOutputTest, StandardErrorIsQuietUnlessALogLevelIsSet) {
  CommandResult quiet = RunCommand("(env -u PLUGRT_LOG_LEVEL " + kCli + " devices >/dev/null)");
  EXPECT_EQ(quiet.exit_code, 0) << quiet.output;
  EXPECT_EQ(quiet.output, "");
  CommandResult info = RunCommand("(PLUGRT_LOG_LEVEL=info " + kCli + " devices >/dev/null)");
  EXPECT_EQ(info.exit_code, 0) << info.output;
  EXPECT_NE(info.output.find("plugrt cpu: client created: 1 device(s)"), std::string::npos)
      << info.output;
}

TEST(CliOutputTest, LogLevelCreateOption) {
  StatusOr<std::shared_ptr<Plugin>> plugin = Plugin::Load(PLUGRT_CPU_PLUGIN_PATH);
  ASSERT_TRUE(plugin.ok()) << plugin.status().ToString();
  ClientOptions bad;
  bad.create_options.push_back({"log_level", std::string("loud")});
  StatusOr<std::unique_ptr<Client>> refused = Client::Create(*plugin, bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("log_level"), std::string::npos);

  ClientOptions info;
  info.create_options.push_back({"log_level", std::string("info")});
  ::testing::internal::CaptureStderr();
  StatusOr<std::unique_ptr<Client>> client = Client::Create(*plugin, info);
  std::string logged = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  EXPECT_NE(logged.find("plugrt cpu: client created"), std::string::npos) << logged;

  ClientOptions off;
  off.create_options.push_back({"log_level", std::string("off")});
  ::testing::internal::CaptureStderr();
  client = Client::Create(*plugin, off);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  ASSERT_TRUE(client.ok()) << client.status().ToString();
}

// Runs the completion function on "plugrt `words`" (the cursor at the end;
// the program's own path stands for plugrt, which is not on PATH here).
std::string Complete(const std::string& words) {
  CommandResult result = RunCommand(
      "bash -c 'source <(\"$0\" completion bash) && COMP_WORDS=(\"$0\" " + words +
      ") && COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _plugrt; echo \"${COMPREPLY[*]}\"' " + kCli);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  return result.output;
}

TEST(CliOutputTest, BashCompletionFollowsTheCommandLine) {
  EXPECT_EQ(Complete("dev"), "devices\n");
  EXPECT_EQ(Complete("plu"), "plugins\n");
  EXPECT_EQ(Complete("devices --js"), "--json\n");
  EXPECT_NE(Complete("inspect --").find("--entry"), std::string::npos);
  // Plugin names come from `plugrt plugins --names`.
  EXPECT_NE(Complete("devices --plugin c").find("cpu"), std::string::npos);
  // Hidden subcommands are not offered.
  EXPECT_EQ(Complete("conformance-f"), "\n");
  EXPECT_TRUE(FailedWith(RunCli("completion zsh"), 2, "zsh"));
}

}  // namespace
}  // namespace plugrt::testing
