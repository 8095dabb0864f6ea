// plugrt CPU backend: a memory space of one CPU device. Every kind lives in
// host RAM; the kinds exist so that frameworks can place arrays by kind
// ("device", "pinned_host", "unpinned_host") as on accelerators.
#ifndef PLUGRT_CPU_CPU_MEMORY_H_
#define PLUGRT_CPU_CPU_MEMORY_H_

#include <memory>
#include <string>

#include "cpu/memory_accounting.h"
#include "sdk/device.h"

namespace plugrt::cpu {

class CpuDevice;

enum class MemoryKind : int { kDevice = 0, kPinnedHost = 1, kUnpinnedHost = 2 };
inline constexpr int kNumMemoryKinds = 3;
std::string_view MemoryKindName(MemoryKind kind);

class CpuMemory final : public sdk::Memory {
 public:
  // `id` is unique across the client.
  CpuMemory(int id, MemoryKind kind, CpuDevice* device);

  int id() const override { return id_; }
  std::string_view kind() const override { return MemoryKindName(kind_); }
  // Stable per kind, the same on every device.
  int kind_id() const override { return static_cast<int>(kind_); }
  std::string_view debug_string() const override { return debug_string_; }
  std::string_view to_string() const override { return to_string_; }
  std::vector<sdk::Device*> addressable_by_devices() const override;

  MemoryKind memory_kind() const { return kind_; }
  CpuDevice* device() const { return device_; }
  // Allocations in this memory report here.
  const std::shared_ptr<MemoryAccounting>& accounting() const { return accounting_; }

 private:
  int id_;
  MemoryKind kind_;
  CpuDevice* device_;
  std::shared_ptr<MemoryAccounting> accounting_;
  std::string debug_string_;  // "cpu:0/pinned_host"
  std::string to_string_;     // "CpuMemory(id=1, kind=pinned_host, device=0)"
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_MEMORY_H_
