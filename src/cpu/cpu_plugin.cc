#include "cpu/cpu_plugin.h"

#include "cpu/cpu_client.h"
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
      } {}

StatusOr<std::unique_ptr<sdk::Client>> CpuPlugin::CreateClient(const sdk::ClientOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<CpuClient> client, CpuClient::Create(options));
  return std::unique_ptr<sdk::Client>(std::move(client));
}

StatusOr<std::unique_ptr<sdk::TopologyDescription>> CpuPlugin::CreateTopology(
    std::string_view name, const sdk::Attributes& options) {
  if (!name.empty() && name != kPlatformName) {
    return InvalidArgument("the CPU plugin has no topology named '", name, "'; use \"",
                           kPlatformName, "\" or an empty name");
  }
  PLUGRT_ASSIGN_OR_RETURN(CpuOptions parsed, ParseCpuOptions(options));
  return std::unique_ptr<sdk::TopologyDescription>(
      std::make_unique<CpuTopology>(parsed.num_devices));
}

}  // namespace plugrt::cpu
