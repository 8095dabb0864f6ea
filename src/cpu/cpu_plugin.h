// plugrt CPU backend: the plugin object behind libplugrt_cpu.so.
#ifndef PLUGRT_CPU_CPU_PLUGIN_H_
#define PLUGRT_CPU_CPU_PLUGIN_H_

#include "sdk/plugin.h"

namespace plugrt::cpu {

class CpuPlugin final : public sdk::Plugin {
 public:
  CpuPlugin();

  const sdk::Attributes& attributes() const override { return attributes_; }
  // PJRT's FFI extension (cpu_ffi_extension.cc).
  PJRT_Extension_Base* extensions() const override;
  StatusOr<std::unique_ptr<sdk::Client>> CreateClient(const sdk::ClientOptions& options) override;
  // Names "cpu" (one device) and "cpu:N" (N devices); an empty name is
  // "cpu". Accepts the same options as CreateClient (cpu_device_count),
  // which must agree with a count in the name.
  StatusOr<std::unique_ptr<sdk::TopologyDescription>> CreateTopology(
      std::string_view name, const sdk::Attributes& options) override;
  StatusOr<std::unique_ptr<sdk::TopologyDescription>> DeserializeTopology(
      std::string_view serialized) override;
  // Compiles "mlir" programs that need at most the topology's device count
  // (replicas x partitions, and any device assignment within its ids).
  StatusOr<std::shared_ptr<sdk::Executable>> CompileForTopology(
      const sdk::TopologyDescription& topology, const sdk::Program& program,
      std::string_view compile_options) override;

 private:
  sdk::Attributes attributes_;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_PLUGIN_H_
