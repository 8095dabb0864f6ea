// plugrt CPU backend: one virtual CPU device of a client, with its memories.
#ifndef PLUGRT_CPU_CPU_DEVICE_H_
#define PLUGRT_CPU_CPU_DEVICE_H_

#include <array>
#include <memory>

#include "cpu/cpu_device_description.h"
#include "cpu/cpu_memory.h"
#include "sdk/device.h"

namespace plugrt::cpu {

class CpuDevice final : public sdk::Device {
 public:
  // `description` is owned by the client's topology and outlives the device.
  // Memory ids are first_memory_id, first_memory_id + 1, ... per kind.
  CpuDevice(const CpuDeviceDescription* description, int local_hardware_id,
            int first_memory_id);

  const sdk::DeviceDescription& description() const override { return *description_; }
  bool is_addressable() const override { return true; }
  int local_hardware_id() const override { return local_hardware_id_; }
  std::vector<sdk::Memory*> memories() const override;
  StatusOr<sdk::Memory*> default_memory() const override;
  // Figures of the device-kind memory, where device buffers live.
  StatusOr<sdk::MemoryStats> memory_stats() const override;

  int id() const { return description_->id(); }
  CpuMemory* memory(MemoryKind kind) const { return memories_[static_cast<int>(kind)].get(); }
  CpuMemory* device_memory() const { return memory(MemoryKind::kDevice); }

 private:
  const CpuDeviceDescription* description_;
  int local_hardware_id_;
  std::array<std::unique_ptr<CpuMemory>, kNumMemoryKinds> memories_;
};

// A device of another process of a multi-process job (cpu_cluster.h): listed
// by the client with its description, never addressable, without memories.
class RemoteCpuDevice final : public sdk::Device {
 public:
  explicit RemoteCpuDevice(const CpuDeviceDescription* description) : description_(description) {}

  const sdk::DeviceDescription& description() const override { return *description_; }
  bool is_addressable() const override { return false; }
  int local_hardware_id() const override { return -1; }
  std::vector<sdk::Memory*> memories() const override { return {}; }
  StatusOr<sdk::Memory*> default_memory() const override {
    return FailedPrecondition(description_->debug_string(), " belongs to process ",
                              description_->process_index(),
                              " and has no memory this process can address");
  }

 private:
  const CpuDeviceDescription* description_;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_DEVICE_H_
