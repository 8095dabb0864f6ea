// plugrt client: DeviceDescription, Device and Memory, light non-owning
// handles valid while the Client (or topology) they came from lives.
#ifndef PLUGRT_CLIENT_DEVICE_H_
#define PLUGRT_CLIENT_DEVICE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/memory_stats.h"
#include "common/named_value.h"
#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

class Device;
class Memory;

class DeviceDescription {
 public:
  DeviceDescription() = default;
  DeviceDescription(const PJRT_Api* api, PJRT_DeviceDescription* raw) : api_(api), raw_(raw) {}

  StatusOr<int> id() const;
  StatusOr<int> process_index() const;
  StatusOr<std::string> kind() const;
  StatusOr<std::string> debug_string() const;
  StatusOr<std::string> to_string() const;
  StatusOr<std::vector<NamedValue>> attributes() const;

  PJRT_DeviceDescription* raw() const { return raw_; }
  const PJRT_Api* api() const { return api_; }

 private:
  const PJRT_Api* api_ = nullptr;
  PJRT_DeviceDescription* raw_ = nullptr;
};

class Device {
 public:
  Device() = default;
  Device(const PJRT_Api* api, PJRT_Device* raw) : api_(api), raw_(raw) {}

  StatusOr<DeviceDescription> description() const;
  // Shortcuts through description().
  StatusOr<int> id() const;
  StatusOr<int> process_index() const;
  StatusOr<std::string> kind() const;
  StatusOr<std::string> debug_string() const;
  StatusOr<std::string> to_string() const;
  StatusOr<std::vector<NamedValue>> attributes() const;

  StatusOr<bool> is_addressable() const;
  StatusOr<int> local_hardware_id() const;
  StatusOr<std::vector<Memory>> memories() const;
  StatusOr<Memory> default_memory() const;
  StatusOr<MemoryStats> memory_stats() const;

  PJRT_Device* raw() const { return raw_; }
  const PJRT_Api* api() const { return api_; }
  friend bool operator==(const Device& a, const Device& b) { return a.raw_ == b.raw_; }

 private:
  const PJRT_Api* api_ = nullptr;
  PJRT_Device* raw_ = nullptr;
};

class Memory {
 public:
  Memory() = default;
  Memory(const PJRT_Api* api, PJRT_Memory* raw) : api_(api), raw_(raw) {}

  StatusOr<int> id() const;
  StatusOr<std::string> kind() const;
  StatusOr<int> kind_id() const;
  StatusOr<std::string> debug_string() const;
  StatusOr<std::string> to_string() const;
  StatusOr<std::vector<Device>> addressable_by_devices() const;

  PJRT_Memory* raw() const { return raw_; }
  const PJRT_Api* api() const { return api_; }
  friend bool operator==(const Memory& a, const Memory& b) { return a.raw_ == b.raw_; }

 private:
  const PJRT_Api* api_ = nullptr;
  PJRT_Memory* raw_ = nullptr;
};

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_DEVICE_H_
