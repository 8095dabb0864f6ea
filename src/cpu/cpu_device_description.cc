#include "cpu/cpu_device_description.h"

namespace plugrt::cpu {

CpuDeviceDescription::CpuDeviceDescription(int id, sdk::Attributes attributes, int process_index)
    : id_(id),
      process_index_(process_index),
      attributes_(std::move(attributes)),
      debug_string_("cpu:" + std::to_string(id)),
      to_string_("CpuDevice(id=" + std::to_string(id) + ")") {}

}  // namespace plugrt::cpu
