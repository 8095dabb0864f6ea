// plugrt SDK: the interfaces a backend implements for devices and memories.
// Objects returned by these interfaces are owned by the backend's Client (or
// TopologyDescription) and must stay valid, at a fixed address, for its
// lifetime: the SDK hands out PJRT handles that point at them.
#ifndef PLUGRT_SDK_DEVICE_H_
#define PLUGRT_SDK_DEVICE_H_

#include <string_view>
#include <vector>

#include "common/status.h"
#include "sdk/types.h"

namespace plugrt::sdk {

class Device;

class DeviceDescription {
 public:
  virtual ~DeviceDescription() = default;
  virtual int id() const = 0;
  virtual int process_index() const = 0;
  virtual std::string_view kind() const = 0;
  virtual std::string_view debug_string() const = 0;
  virtual std::string_view to_string() const = 0;
  virtual const Attributes& attributes() const = 0;
};

class Memory {
 public:
  virtual ~Memory() = default;
  virtual int id() const = 0;
  virtual std::string_view kind() const = 0;
  virtual int kind_id() const = 0;
  virtual std::string_view debug_string() const = 0;
  virtual std::string_view to_string() const = 0;
  virtual std::vector<Device*> addressable_by_devices() const = 0;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const DeviceDescription& description() const = 0;
  virtual bool is_addressable() const = 0;
  virtual int local_hardware_id() const = 0;
  virtual std::vector<Memory*> memories() const = 0;
  virtual StatusOr<Memory*> default_memory() const = 0;
  virtual StatusOr<MemoryStats> memory_stats() const {
    return Unimplemented("memory statistics are not tracked by this backend");
  }
};

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_DEVICE_H_
