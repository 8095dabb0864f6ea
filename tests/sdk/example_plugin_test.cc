// The SDK example plugin (examples/sdk_plugin) driven through the client and
// the CLI like any third-party PJRT plugin: proves that a vendor's plugin
// built on the SDK alone is complete and loadable.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>

#include "client/client.h"
#include "testutil/plugin_env.h"
#include "testutil/run_command.h"

namespace plugrt {
namespace {

TEST(ExamplePluginTest, LoadsAndMovesData) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin,
                              Plugin::Load(PLUGRT_EXAMPLE_PLUGIN_PATH));
  EXPECT_EQ(plugin->major_version(), PJRT_API_MAJOR);
  EXPECT_EQ(plugin->minor_version(), PJRT_API_MINOR);
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Client> client, Client::Create(plugin));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::string platform, client->platform_name());
  EXPECT_EQ(platform, "example");
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client->addressable_devices());
  ASSERT_EQ(devices.size(), 1u);

  std::array<int32_t, 4> data = {7, -1, 42, 9};
  Client::HostBuffer host{data.data(), PJRT_Buffer_Type_S32, {2, 2}};
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto uploaded, client->BufferFromHostBuffer(host, devices[0]));
  PLUGRT_ASSERT_OK(uploaded.second.Await());
  std::array<int32_t, 4> back{};
  PLUGRT_ASSERT_OK(uploaded.first.ToHost(back.data(), sizeof(back)));
  EXPECT_EQ(back, data);

  // What the example leaves out reaches the caller as UNIMPLEMENTED.
  Layout column_major = Layout::ColumnMajor(2);
  Status transposed = uploaded.first.ToHost(back.data(), sizeof(back), &column_major);
  EXPECT_EQ(transposed.code(), StatusCode::kUnimplemented) << transposed.ToString();
}

TEST(ExamplePluginTest, RejectsUnknownCreateOption) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin,
                              Plugin::Load(PLUGRT_EXAMPLE_PLUGIN_PATH));
  ClientOptions options;
  options.create_options.push_back({"cpu_device_count", int64_t{2}});
  auto client = Client::Create(plugin, options);
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(client.status().message().find("cpu_device_count"), std::string::npos);
}

TEST(ExamplePluginTest, CliDevicesWithPlugin) {
  // Appended, not `std::string(...) + PATH`: g++ 12 warns falsely
  // (-Warray-bounds) on that concatenation inlined here.
  std::string command = "devices --plugin ";
  command.append(PLUGRT_EXAMPLE_PLUGIN_PATH);
  testing::CommandResult result = testing::RunCli(command);
  const std::string& output = result.output;
  EXPECT_EQ(result.exit_code, 0) << output;
  EXPECT_NE(output.find("platform: example"), std::string::npos) << output;
  EXPECT_NE(output.find("example_plugin_version=1"), std::string::npos) << output;
  EXPECT_NE(output.find("ExampleDevice(id=0)"), std::string::npos) << output;
}

}  // namespace
}  // namespace plugrt
