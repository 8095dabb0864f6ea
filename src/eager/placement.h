// plugrt eager: where an op runs. The device asked for, else the device of
// its first input, else the context's default; inputs on another device are
// copied there silently, copied with a warning, or refused, as the policy
// says.
#ifndef PLUGRT_EAGER_PLACEMENT_H_
#define PLUGRT_EAGER_PLACEMENT_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "client/device.h"
#include "common/status.h"
#include "eager/tensor.h"

namespace plugrt::eager {

enum class PlacementPolicy {
  kCopy,    // copy inputs to the op's device
  kWarn,    // copy, and report each copy through the context's warning sink
  kRefuse,  // an error naming both devices
};

struct NamedDevice {
  Device device;
  std::string name;
};

struct Placement {
  NamedDevice device;
  // Indices (into the flat input list) of inputs to copy to `device`.
  std::vector<size_t> copies;
  // One line per copy under kWarn.
  std::vector<std::string> warnings;
};

// `inputs`: the op's inputs (physical tensors), flat; `copies` index them.
// Reads the devices in place (no list is built per op).
// Fills `placement` (empty on entry; an out-parameter, so that the per-op
// path moves no Placement around).
Status PlaceOp(std::string_view op, const std::optional<NamedDevice>& requested,
               std::span<const Tensor> inputs, const NamedDevice& default_device,
               PlacementPolicy policy, Placement& placement);

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_PLACEMENT_H_
