#include "testutil/plugin_env.h"

namespace plugrt::testing {

const char* CpuPluginPath() { return PLUGRT_CPU_PLUGIN_PATH; }

StatusOr<std::shared_ptr<Plugin>> CpuPlugin() {
  static const StatusOr<std::shared_ptr<Plugin>>* plugin =
      new StatusOr<std::shared_ptr<Plugin>>(Plugin::Load(CpuPluginPath()));
  return *plugin;
}

namespace {

StatusOr<std::unique_ptr<Client>> CreateClient(int device_count, bool conformance_harness) {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, CpuPlugin());
  ClientOptions options;
  if (device_count > 0) {
    options.create_options.push_back({"cpu_device_count", int64_t{device_count}});
  }
  if (conformance_harness) options.create_options.push_back({"conformance_harness", true});
  return Client::Create(plugin, options);
}

}  // namespace

StatusOr<std::unique_ptr<Client>> CreateCpuClient(int device_count) {
  return CreateClient(device_count, /*conformance_harness=*/false);
}

StatusOr<std::unique_ptr<Client>> CreateHarnessCpuClient(int device_count) {
  return CreateClient(device_count, /*conformance_harness=*/true);
}

void CpuClientTest::SetUp() {
  PLUGRT_ASSERT_OK_AND_ASSIGN(plugin_, CpuPlugin());
  PLUGRT_ASSERT_OK_AND_ASSIGN(client_, CreateCpuClient(kDeviceCount));
  PLUGRT_ASSERT_OK_AND_ASSIGN(devices_, client_->addressable_devices());
  ASSERT_EQ(devices_.size(), static_cast<size_t>(kDeviceCount));
}

void CpuClientTest::TearDown() {
  devices_.clear();
  client_.reset();
}

}  // namespace plugrt::testing
