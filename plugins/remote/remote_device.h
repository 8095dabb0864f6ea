// plugrt remote plugin: a worker's devices as the plugin shows them. Each
// device has one memory ("device"); names and ids are the worker's, with
// the worker's address among the attributes.
#ifndef PLUGRT_PLUGINS_REMOTE_REMOTE_DEVICE_H_
#define PLUGRT_PLUGINS_REMOTE_REMOTE_DEVICE_H_

#include <string>
#include <vector>

#include "sdk/device.h"
#include "sdk/topology.h"

namespace plugrt::remote {

struct RemoteDeviceInfo {
  int id = 0;
  int process_index = 0;
  int local_hardware_id = 0;
  std::string kind, debug_string, to_string;
};

class RemoteDeviceDescription : public sdk::DeviceDescription {
 public:
  RemoteDeviceDescription(RemoteDeviceInfo info, const std::string& address)
      : info_(std::move(info)), attributes_{{"remote_address", address}} {}
  int id() const override { return info_.id; }
  int process_index() const override { return info_.process_index; }
  std::string_view kind() const override { return info_.kind; }
  std::string_view debug_string() const override { return info_.debug_string; }
  std::string_view to_string() const override { return info_.to_string; }
  const sdk::Attributes& attributes() const override { return attributes_; }
  int local_hardware_id() const { return info_.local_hardware_id; }

 private:
  RemoteDeviceInfo info_;
  sdk::Attributes attributes_;
};

class RemoteMemory : public sdk::Memory {
 public:
  RemoteMemory(sdk::Device* device, int id, const std::string& device_name)
      : device_(device), id_(id), debug_(device_name + ":device"),
        text_("RemoteMemory(device=" + device_name + ")") {}
  int id() const override { return id_; }
  std::string_view kind() const override { return "device"; }
  int kind_id() const override { return 0; }
  std::string_view debug_string() const override { return debug_; }
  std::string_view to_string() const override { return text_; }
  std::vector<sdk::Device*> addressable_by_devices() const override { return {device_}; }
  sdk::Device* device() const { return device_; }

 private:
  sdk::Device* device_;
  int id_;
  std::string debug_, text_;
};

class RemoteDevice : public sdk::Device {
 public:
  RemoteDevice(RemoteDeviceInfo info, const std::string& address)
      : description_(std::move(info), address),
        memory_(this, description_.id(), std::string(description_.debug_string())) {}
  const sdk::DeviceDescription& description() const override { return description_; }
  bool is_addressable() const override { return true; }
  int local_hardware_id() const override { return description_.local_hardware_id(); }
  std::vector<sdk::Memory*> memories() const override { return {memory()}; }
  StatusOr<sdk::Memory*> default_memory() const override { return memory(); }
  RemoteMemory* memory() const { return const_cast<RemoteMemory*>(&memory_); }

 private:
  RemoteDeviceDescription description_;
  RemoteMemory memory_;
};

class RemoteTopology : public sdk::TopologyDescription {
 public:
  RemoteTopology(std::string platform, std::string version,
                 std::vector<const sdk::DeviceDescription*> devices)
      : platform_(std::move(platform)), version_(std::move(version)),
        devices_(std::move(devices)) {}
  std::string_view platform_name() const override { return platform_; }
  std::string_view platform_version() const override { return version_; }
  std::vector<const sdk::DeviceDescription*> device_descriptions() const override {
    return devices_;
  }
  const sdk::Attributes& attributes() const override { return attributes_; }

 private:
  std::string platform_, version_;
  std::vector<const sdk::DeviceDescription*> devices_;
  sdk::Attributes attributes_;
};

}  // namespace plugrt::remote

#endif  // PLUGRT_PLUGINS_REMOTE_REMOTE_DEVICE_H_
