// plugrt CPU backend: the device layout of a CPU client (N virtual devices in
// one process), available with or without a client.
#ifndef PLUGRT_CPU_CPU_TOPOLOGY_H_
#define PLUGRT_CPU_CPU_TOPOLOGY_H_

#include <memory>
#include <vector>

#include "cpu/cpu_device_description.h"
#include "sdk/topology.h"

namespace plugrt::cpu {

class CpuTopology final : public sdk::TopologyDescription {
 public:
  explicit CpuTopology(int num_devices);

  std::string_view platform_name() const override;
  std::string_view platform_version() const override;
  std::vector<const sdk::DeviceDescription*> device_descriptions() const override;
  const sdk::Attributes& attributes() const override { return attributes_; }

  int num_devices() const { return static_cast<int>(descriptions_.size()); }
  const CpuDeviceDescription* description(int index) const { return descriptions_[index].get(); }

 private:
  std::vector<std::unique_ptr<CpuDeviceDescription>> descriptions_;
  sdk::Attributes attributes_;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_TOPOLOGY_H_
