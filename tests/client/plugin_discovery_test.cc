// Plugins found by name (client/plugin_discovery.h) and through the CLI's
// --plugin NAME and `plugrt plugins`.
#include "client/plugin_discovery.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "testutil/run_command.h"
#include "testutil/temp_dir.h"

namespace plugrt::testing {
namespace {

namespace fs = std::filesystem;

// FindPlugin's path, or its error message (which no test expects as a path).
std::string Found(std::string_view name) {
  StatusOr<std::string> path = FindPlugin(name);
  return path.ok() ? *path : path.status().ToString();
}

// A temporary plugin directory, and the discovery variables set for the
// test's duration.
class PluginDiscoveryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("PJRT_NAMES_AND_LIBRARY_PATHS");
    unsetenv("PLUGRT_PLUGIN_PATH");
  }
  void TearDown() override {
    unsetenv("PJRT_NAMES_AND_LIBRARY_PATHS");
    unsetenv("PLUGRT_PLUGIN_PATH");
  }
  // `file` in the directory, a link to the CPU plugin.
  std::string LinkCpuPlugin(const std::string& file) {
    fs::create_symlink(PLUGRT_CPU_PLUGIN_PATH, dir_ / file);
    return (dir_ / file).string();
  }
  std::string WriteJunk(const std::string& file) {
    std::ofstream(dir_ / file) << "not a shared library";
    return (dir_ / file).string();
  }
  const plugrt::testing::TempDir temp_dir_{"discovery"};
  const fs::path dir_ = temp_dir_.path();
};

TEST(PluginNameTest, FileNamesFollowTheConventions) {
  EXPECT_EQ(PluginNameFromFile("libplugrt_cpu.so"), "cpu");
  EXPECT_EQ(PluginNameFromFile("pjrt_c_api_cpu_plugin.so"), "cpu");
  EXPECT_EQ(PluginNameFromFile("libpjrt_plugin_tpu.so"), "tpu");
  EXPECT_EQ(PluginNameFromFile("libvendor.so"), "vendor");
  EXPECT_EQ(PluginNameFromFile("libvendor.so.1"), "");
  EXPECT_EQ(PluginNameFromFile("README"), "");
  EXPECT_TRUE(IsPluginPath("./libx.so"));
  EXPECT_TRUE(IsPluginPath("libx.so"));
  EXPECT_FALSE(IsPluginPath("cpu"));
}

TEST_F(PluginDiscoveryTest, TheBuildTreeOffersTheCpuPlugin) {
  StatusOr<std::string> path = FindPlugin("cpu");
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  EXPECT_TRUE(fs::equivalent(*path, PLUGRT_CPU_PLUGIN_PATH)) << *path;
}

TEST_F(PluginDiscoveryTest, SearchPathNamesLoad) {
  std::string linked = LinkCpuPlugin("libplugrt_mine.so");
  setenv("PLUGRT_PLUGIN_PATH", ("/nonexistent:" + dir_.string()).c_str(), 1);
  StatusOr<std::string> path = FindPlugin("mine");
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  EXPECT_EQ(*path, linked);
  StatusOr<std::shared_ptr<Plugin>> plugin = LoadPlugin("mine");
  ASSERT_TRUE(plugin.ok()) << plugin.status().ToString();
  EXPECT_EQ((*plugin)->major_version(), PJRT_API_MAJOR);
  PluginDiscovery discovery = DiscoverPlugins();
  ASSERT_FALSE(discovery.problems.empty());
  EXPECT_NE(discovery.problems[0].find("/nonexistent"), std::string::npos);
}

TEST_F(PluginDiscoveryTest, NamesVariableComesFirstAndShadows) {
  std::string junk = WriteJunk("libplugrt_cpu.so");
  setenv("PLUGRT_PLUGIN_PATH", dir_.c_str(), 1);
  // The search path's junk "cpu" comes before the build tree's.
  EXPECT_EQ(Found("cpu"), junk);
  setenv("PJRT_NAMES_AND_LIBRARY_PATHS",
         (std::string("other:/x/libother.so, cpu:") + PLUGRT_CPU_PLUGIN_PATH + ",broken").c_str(),
         1);
  EXPECT_EQ(Found("cpu"), PLUGRT_CPU_PLUGIN_PATH);
  EXPECT_EQ(Found("other"), "/x/libother.so");
  PluginDiscovery discovery = DiscoverPlugins();
  int cpu_entries = 0;
  for (const PluginLocation& location : discovery.plugins) {
    if (location.name != "cpu") continue;
    EXPECT_EQ(location.shadowed, cpu_entries++ > 0) << location.path;
  }
  EXPECT_EQ(cpu_entries, 3);  // variable, search path, build tree
  ASSERT_EQ(discovery.problems.size(), 1u);
  EXPECT_NE(discovery.problems[0].find("\"broken\" is not name:path"), std::string::npos);
}

TEST_F(PluginDiscoveryTest, UnknownNameSaysWhereItLooked) {
  setenv("PLUGRT_PLUGIN_PATH", dir_.c_str(), 1);
  StatusOr<std::string> path = FindPlugin("nosuch");
  ASSERT_FALSE(path.ok());
  EXPECT_EQ(path.status().code(), StatusCode::kNotFound);
  EXPECT_NE(path.status().message().find("\"nosuch\""), std::string::npos);
  EXPECT_NE(path.status().message().find(dir_.string()), std::string::npos);
  EXPECT_NE(path.status().message().find("cpu"), std::string::npos);  // what exists
  // A path is taken as it is, even when nothing is there (Plugin::Load reports it).
  EXPECT_EQ(Found("/no/such/libx.so"), "/no/such/libx.so");
}

TEST_F(PluginDiscoveryTest, CliTakesNamesAndListsPlugins) {
  LinkCpuPlugin("libplugrt_mine.so");
  WriteJunk("libbroken.so");
  const std::string env = "PLUGRT_PLUGIN_PATH=" + dir_.string() + " ";
  CommandResult devices = RunCommand(env + PLUGRT_CLI_PATH + " devices --plugin mine");
  EXPECT_EQ(devices.exit_code, 0) << devices.output;
  EXPECT_NE(devices.output.find("libplugrt_mine.so"), std::string::npos) << devices.output;

  EXPECT_TRUE(FailedWith(RunCommand(env + PLUGRT_CLI_PATH + " devices --plugin nosuch"), 1,
                         "no PJRT plugin named \"nosuch\""));

  // The default is plugrt's own CPU plugin, whatever the environment calls
  // "cpu"; --plugin cpu follows the environment.
  const std::string other_cpu = "PJRT_NAMES_AND_LIBRARY_PATHS=cpu:/nonexistent/libother.so ";
  CommandResult by_default = RunCommand(other_cpu + PLUGRT_CLI_PATH + " devices");
  EXPECT_EQ(by_default.exit_code, 0) << by_default.output;
  EXPECT_TRUE(FailedWith(RunCommand(other_cpu + PLUGRT_CLI_PATH + " devices --plugin cpu"), 1,
                         "/nonexistent/libother.so"));

  CommandResult list = RunCommand(env + PLUGRT_CLI_PATH + " plugins");
  EXPECT_EQ(list.exit_code, 0) << list.output;
  EXPECT_NE(list.output.find("mine: " + (dir_ / "libplugrt_mine.so").string()), std::string::npos)
      << list.output;
  EXPECT_NE(list.output.find("PJRT C API 0."), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("plugrt_version="), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("broken: "), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("failed to load:"), std::string::npos) << list.output;

  CommandResult json = RunCommand(env + PLUGRT_CLI_PATH + " plugins --json");
  EXPECT_EQ(json.exit_code, 0) << json.output;
  EXPECT_NE(json.output.find("\"name\":\"broken\""), std::string::npos) << json.output;
  EXPECT_NE(json.output.find("\"loaded\":false"), std::string::npos) << json.output;
  EXPECT_NE(json.output.find("\"api_version\":{\"major\":0"), std::string::npos) << json.output;
}

}  // namespace
}  // namespace plugrt::testing
