#include "cpu/cpu_memory.h"

#include "cpu/cpu_device.h"

namespace plugrt::cpu {

std::string_view MemoryKindName(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::kDevice: return "device";
    case MemoryKind::kPinnedHost: return "pinned_host";
    case MemoryKind::kUnpinnedHost: return "unpinned_host";
  }
  return "unknown";
}

CpuMemory::CpuMemory(int id, MemoryKind kind, CpuDevice* device)
    : id_(id), kind_(kind), device_(device), accounting_(std::make_shared<MemoryAccounting>()) {
  const int device_id = device->description().id();
  debug_string_ = StrCat("cpu:", device_id, "/", MemoryKindName(kind));
  to_string_ = StrCat("CpuMemory(id=", id, ", kind=", MemoryKindName(kind),
                      ", device=", device_id, ")");
}

std::vector<sdk::Device*> CpuMemory::addressable_by_devices() const { return {device_}; }

}  // namespace plugrt::cpu
