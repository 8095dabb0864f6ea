#include "eager/placement.h"

namespace plugrt::eager {

StatusOr<Placement> PlaceOp(std::string_view op, const std::optional<NamedDevice>& requested,
                            std::span<const NamedDevice> inputs,
                            const NamedDevice& default_device, PlacementPolicy policy) {
  Placement placement;
  placement.device = requested ? *requested : !inputs.empty() ? inputs[0] : default_device;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].device == placement.device.device) continue;
    if (policy == PlacementPolicy::kRefuse) {
      return InvalidArgument(op, ": input ", i, " is on ", inputs[i].name, " but the op runs on ",
                             placement.device.name,
                             " (the context's placement policy refuses copies; copy it first)");
    }
    placement.copies.push_back(i);
    if (policy == PlacementPolicy::kWarn) {
      placement.warnings.push_back(std::string(op) + ": copying input " + std::to_string(i) +
                                   " from " + inputs[i].name + " to " + placement.device.name);
    }
  }
  return placement;
}

}  // namespace plugrt::eager
