#include "cpu/cpu_topology.h"

#include <unistd.h>

#include <thread>

#include "cpu/cpu_version.h"

namespace plugrt::cpu {

namespace {
int64_t HostCoreCount() {
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : static_cast<int64_t>(cores);
}

int64_t HostMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<int64_t>(pages) * static_cast<int64_t>(page_size);
}
}  // namespace

CpuTopology::CpuTopology(int num_devices) {
  const int64_t cores = HostCoreCount();
  const int64_t memory_bytes = HostMemoryBytes();
  for (int id = 0; id < num_devices; ++id) {
    sdk::Attributes attributes = {
        {"core_count", cores},
        {"host_memory_bytes", memory_bytes},
        {"device_ordinal", static_cast<int64_t>(id)},
    };
    descriptions_.push_back(std::make_unique<CpuDeviceDescription>(id, std::move(attributes)));
  }
  attributes_ = {
      {"cpu_device_count", static_cast<int64_t>(num_devices)},
      {"core_count", cores},
      {"host_memory_bytes", memory_bytes},
  };
}

std::string_view CpuTopology::platform_name() const { return kPlatformName; }
std::string_view CpuTopology::platform_version() const { return kPlatformVersion; }

std::vector<const sdk::DeviceDescription*> CpuTopology::device_descriptions() const {
  std::vector<const sdk::DeviceDescription*> result;
  for (const auto& description : descriptions_) result.push_back(description.get());
  return result;
}

}  // namespace plugrt::cpu
