#include "eager/placement.h"

namespace plugrt::eager {

const NamedDevice* FindNamedDevice(std::span<const NamedDevice> devices, const Device& device) {
  for (const NamedDevice& d : devices) {
    if (d.device == device) return &d;
  }
  return nullptr;
}

Status PlaceOp(std::string_view op, const std::optional<NamedDevice>& requested,
               std::span<const Tensor> inputs, std::span<const NamedDevice> devices,
               const NamedDevice& default_device,
               PlacementPolicy policy, Placement& placement) {
  const Tensor* first = inputs.empty() ? nullptr : &inputs.front();
  if (requested) {
    placement.device = *requested;
  } else if (first != nullptr) {
    const NamedDevice* found = FindNamedDevice(devices, first->device());
    if (found == nullptr) {
      return FailedPrecondition(op, ": input 0 is on ", first->device_name(),
                                ", which is not a device of this context (any more)");
    }
    placement.device = *found;
  } else {
    placement.device = default_device;
  }
  for (size_t index = 0; index < inputs.size(); ++index) {
    const Tensor& input = inputs[index];
    if (input.device() == placement.device.device) continue;
    if (policy == PlacementPolicy::kRefuse) {
      return InvalidArgument(op, ": input ", index, " is on ", input.device_name(),
                             " but the op runs on ", placement.device.name,
                             " (the context's placement policy refuses copies; copy it first)");
    }
    placement.copies.push_back(index);
    if (policy == PlacementPolicy::kWarn) {
      placement.warnings.push_back(std::string(op) + ": copying input " + std::to_string(index) +
                                   " from " + input.device_name() + " to " +
                                   placement.device.name);
    }
  }
  return OkStatus();
}

}  // namespace plugrt::eager
