// plugrt CPU backend: the device layout of a CPU client (N virtual devices in
// one process), available with or without a client.
#ifndef PLUGRT_CPU_CPU_TOPOLOGY_H_
#define PLUGRT_CPU_CPU_TOPOLOGY_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cpu/cpu_device_description.h"
#include "compiler/passes/optimizer_plugins.h"
#include "sdk/topology.h"

namespace plugrt::kernels_abi {
class KernelPlugins;
}  // namespace plugrt::kernels_abi

namespace plugrt::cpu {

// Topology names: "cpu" (one device) and "cpu:N" (N devices, 1..1024).
//
// Serialized form (version 1, 20 bytes, integers little-endian):
//   magic "PRTCPUTP" (8 bytes) | u32 format version | u32 device count |
//   u32 checksum (FNV-1a of the 16 bytes before it)
// The host's core count and memory are not part of it: they describe the
// machine the topology is read on.
class CpuTopology final : public sdk::TopologyDescription {
 public:
  // 1 <= num_devices <= kMaxCpuDevices (cpu_options.h).
  explicit CpuTopology(int num_devices);
  // The devices of a multi-process job (cpu_cluster.h): node n's
  // devices_per_node[n] devices, numbered after those of the nodes before
  // it. Such a topology does not serialize (UNIMPLEMENTED).
  explicit CpuTopology(const std::vector<int>& devices_per_node);

  // The kernel plugins programs compiled for this topology may call (the
  // topology's create options); null for none. Not serialized.
  void set_kernel_plugins(std::shared_ptr<kernels_abi::KernelPlugins> plugins) {
    kernel_plugins_ = std::move(plugins);
  }
  // The optimizer plugins and pass switches its create options gave.
  void set_passes(std::shared_ptr<passes::OptimizerPlugins> optimizers,
                  passes::PassSwitches user_passes) {
    optimizers_ = std::move(optimizers);
    user_passes_ = user_passes;
  }
  const std::shared_ptr<passes::OptimizerPlugins>& optimizers() const { return optimizers_; }
  const passes::PassSwitches& user_passes() const { return user_passes_; }
  const std::shared_ptr<kernels_abi::KernelPlugins>& kernel_plugins() const {
    return kernel_plugins_;
  }

  // The device count a topology name asks for: "cpu" -> 1, "cpu:N" -> N.
  // INVALID_ARGUMENT naming `name` for any other name or a count outside
  // 1..kMaxCpuDevices.
  static StatusOr<int> DeviceCountFromName(std::string_view name);
  // Reads Serialize() output; INVALID_ARGUMENT for truncated, corrupted,
  // foreign or version-mismatched bytes.
  static StatusOr<std::unique_ptr<CpuTopology>> Deserialize(std::string_view bytes);
  StatusOr<std::string> Serialize() const override;

  std::string_view platform_name() const override;
  std::string_view platform_version() const override;
  std::vector<const sdk::DeviceDescription*> device_descriptions() const override;
  const sdk::Attributes& attributes() const override { return attributes_; }

  int num_devices() const { return static_cast<int>(descriptions_.size()); }
  int num_nodes() const { return num_nodes_; }
  const CpuDeviceDescription* description(int index) const { return descriptions_[index].get(); }

 private:
  std::vector<std::unique_ptr<CpuDeviceDescription>> descriptions_;
  sdk::Attributes attributes_;
  std::shared_ptr<kernels_abi::KernelPlugins> kernel_plugins_;
  std::shared_ptr<passes::OptimizerPlugins> optimizers_;
  passes::PassSwitches user_passes_;
  int num_nodes_ = 1;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_TOPOLOGY_H_
