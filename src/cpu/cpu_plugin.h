// plugrt CPU backend: the plugin object behind libplugrt_cpu.so.
#ifndef PLUGRT_CPU_CPU_PLUGIN_H_
#define PLUGRT_CPU_CPU_PLUGIN_H_

#include "sdk/plugin.h"

namespace plugrt::cpu {

class CpuPlugin final : public sdk::Plugin {
 public:
  CpuPlugin();

  const sdk::Attributes& attributes() const override { return attributes_; }
  StatusOr<std::unique_ptr<sdk::Client>> CreateClient(const sdk::ClientOptions& options) override;
  // Accepts the same options as CreateClient (cpu_device_count).
  StatusOr<std::unique_ptr<sdk::TopologyDescription>> CreateTopology(
      std::string_view name, const sdk::Attributes& options) override;

 private:
  sdk::Attributes attributes_;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_PLUGIN_H_
