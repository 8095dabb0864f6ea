#include "cpu/cpu_device.h"

namespace plugrt::cpu {

CpuDevice::CpuDevice(const CpuDeviceDescription* description, int local_hardware_id,
                     int first_memory_id)
    : description_(description), local_hardware_id_(local_hardware_id) {
  for (int k = 0; k < kNumMemoryKinds; ++k) {
    memories_[k] = std::make_unique<CpuMemory>(first_memory_id + k, static_cast<MemoryKind>(k), this);
  }
}

std::vector<sdk::Memory*> CpuDevice::memories() const {
  std::vector<sdk::Memory*> result;
  for (const auto& memory : memories_) result.push_back(memory.get());
  return result;
}

StatusOr<sdk::Memory*> CpuDevice::default_memory() const {
  return static_cast<sdk::Memory*>(device_memory());
}

StatusOr<sdk::MemoryStats> CpuDevice::memory_stats() const {
  return device_memory()->accounting()->Stats();
}

}  // namespace plugrt::cpu
