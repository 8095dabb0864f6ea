#include "cpu/cpu_plugin.h"

#include "compile_options/compile_options.h"
#include "cpu/cpu_client.h"
#include "cpu/cpu_executable.h"
#include "cpu/cpu_options.h"
#include "cpu/cpu_topology.h"
#include "cpu/cpu_version.h"

namespace plugrt::cpu {

namespace {
std::vector<int64_t> ToList(const std::array<int64_t, 3>& version) {
  return {version.begin(), version.end()};
}
}  // namespace

CpuPlugin::CpuPlugin()
    : attributes_{
          {"xla_version", kXlaVersion},
          {"stablehlo_current_version", ToList(kStableHloVersions.current)},
          {"stablehlo_minimum_version", ToList(kStableHloVersions.minimum)},
          {"plugrt_version", std::string(kPluginVersion)},
          // Accepts the conformance_harness create option (cpu_options.h),
          // which `plugrt conformance` sets when the plugin says so.
          {std::string(kConformanceHarnessAttribute), true},
      } {}

StatusOr<std::unique_ptr<sdk::Client>> CpuPlugin::CreateClient(const sdk::ClientOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<CpuClient> client, CpuClient::Create(options));
  return std::unique_ptr<sdk::Client>(std::move(client));
}

StatusOr<std::unique_ptr<sdk::TopologyDescription>> CpuPlugin::CreateTopology(
    std::string_view name, const sdk::Attributes& options) {
  PLUGRT_ASSIGN_OR_RETURN(int count, CpuTopology::DeviceCountFromName(
                                         name.empty() ? kPlatformName : name));
  PLUGRT_ASSIGN_OR_RETURN(CpuOptions parsed, ParseCpuOptions(options));
  bool count_option = false;
  for (const sdk::Attribute& option : options) count_option |= option.name == "cpu_device_count";
  if (count_option && name.find(':') != std::string_view::npos && parsed.num_devices != count) {
    return InvalidArgument("topology '", name, "' has ", count,
                           " devices but option cpu_device_count is ", parsed.num_devices);
  }
  if (count_option) count = parsed.num_devices;
  PLUGRT_RETURN_IF_ERROR(LoadKernelPlugins(parsed));
  PLUGRT_RETURN_IF_ERROR(LoadOptimizerPlugins(parsed));
  auto topology = std::make_unique<CpuTopology>(count);
  topology->set_kernel_plugins(parsed.program.kernel_plugins);
  topology->set_passes(parsed.program.pipeline.optimizers, parsed.program.pipeline.user_passes);
  return std::unique_ptr<sdk::TopologyDescription>(std::move(topology));
}

StatusOr<std::unique_ptr<sdk::TopologyDescription>> CpuPlugin::DeserializeTopology(
    std::string_view serialized) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<CpuTopology> topology,
                          CpuTopology::Deserialize(serialized));
  return std::unique_ptr<sdk::TopologyDescription>(std::move(topology));
}

StatusOr<std::shared_ptr<sdk::Executable>> CpuPlugin::CompileForTopology(
    const sdk::TopologyDescription& topology, const sdk::Program& program,
    std::string_view compile_options) {
  const auto* cpu_topology = dynamic_cast<const CpuTopology*>(&topology);
  if (cpu_topology == nullptr) {
    return InvalidArgument("PJRT_Compile: the topology is not a CPU plugin topology");
  }
  const int64_t available = cpu_topology->num_devices();
  // Checked as soon as the counts are known, before the expensive compile.
  auto fits = [&](int64_t replicas, int64_t partitions, const CompileOptions& options) {
    const int64_t needed = replicas * partitions;
    if (needed > available) {
      return InvalidArgument("the program needs ", needed, " devices (", replicas,
                             " replicas x ", partitions, " partitions) but topology '",
                             kPlatformName, ":", available, "' has ", available);
    }
    if (options.device_assignment) {
      for (int64_t id : options.device_assignment->ids) {
        if (id < 0 || id >= available) {
          return InvalidArgument("compile options: the device assignment names device ", id,
                                 ", which is not in topology '", kPlatformName, ":", available,
                                 "' (ids 0..", available - 1, ")");
        }
      }
    }
    return OkStatus();
  };
  // No client: the program options are the defaults (environment included).
  PLUGRT_ASSIGN_OR_RETURN(CpuOptions defaults, ParseCpuOptions({}));
  // The topology's kernel plugins (its create options and the environment).
  defaults.program.kernel_plugins = cpu_topology->kernel_plugins();
  defaults.program.pipeline.optimizers = cpu_topology->optimizers();
  defaults.program.pipeline.user_passes = cpu_topology->user_passes();
  CompileOptions options;
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<CpuExecutable> executable,
                          CpuExecutable::CompileProgram(program, compile_options, &options,
                                                        defaults.program, fits));
  return std::shared_ptr<sdk::Executable>(std::move(executable));
}

}  // namespace plugrt::cpu
