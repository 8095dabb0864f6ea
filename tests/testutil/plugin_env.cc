#include "testutil/plugin_env.h"

#include "compile_options/compile_options.h"

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

std::vector<std::vector<float>> RunF32Program(const Client& client, const std::string& program,
                                              const std::vector<F32Input>& inputs,
                                              const std::string& passes) {
  CompileOptions options;
  if (!passes.empty()) options.env_option_overrides[kPassesOverride] = passes;
  StatusOr<LoadedExecutable> executable = client.Compile(program, options);
  EXPECT_TRUE(executable.ok()) << executable.status().ToString() << "\n" << program;
  if (!executable.ok()) return {};
  StatusOr<std::vector<Device>> devices = client.addressable_devices();
  EXPECT_TRUE(devices.ok() && !devices->empty());
  if (!devices.ok() || devices->empty()) return {};
  std::vector<Buffer> buffers;
  for (const auto& [dims, values] : inputs) {
    buffers.push_back(Upload<float>(client, (*devices)[0], PJRT_Buffer_Type_F32, dims, values));
  }
  std::vector<Buffer*> args;
  for (Buffer& b : buffers) args.push_back(&b);
  StatusOr<std::vector<std::vector<Buffer>>> results = executable->Execute({args});
  EXPECT_TRUE(results.ok()) << results.status().ToString();
  std::vector<std::vector<float>> out;
  if (!results.ok()) return out;
  for (Buffer& r : (*results)[0]) out.push_back(Download<float>(r));
  return out;
}

}  // namespace plugrt::testing
