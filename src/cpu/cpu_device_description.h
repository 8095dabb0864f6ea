// plugrt CPU backend: what is known about one virtual CPU device without a
// client (ids, kind, attributes).
#ifndef PLUGRT_CPU_CPU_DEVICE_DESCRIPTION_H_
#define PLUGRT_CPU_CPU_DEVICE_DESCRIPTION_H_

#include <string>

#include "sdk/device.h"

namespace plugrt::cpu {

class CpuDeviceDescription final : public sdk::DeviceDescription {
 public:
  // `process_index`: the node of a multi-process job that owns the device.
  CpuDeviceDescription(int id, sdk::Attributes attributes, int process_index = 0);

  int id() const override { return id_; }
  int process_index() const override { return process_index_; }
  std::string_view kind() const override { return "cpu"; }
  std::string_view debug_string() const override { return debug_string_; }
  std::string_view to_string() const override { return to_string_; }
  const sdk::Attributes& attributes() const override { return attributes_; }

 private:
  int id_;
  int process_index_;
  sdk::Attributes attributes_;
  std::string debug_string_;  // "cpu:0"
  std::string to_string_;     // "CpuDevice(id=0)"
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_DEVICE_DESCRIPTION_H_
