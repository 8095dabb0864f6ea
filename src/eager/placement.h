// plugrt eager: where an op runs. The device asked for, else the device of
// its first input, else the context's default; inputs on another device are
// copied there silently, copied with a warning, or refused, as the policy
// says.
#ifndef PLUGRT_EAGER_PLACEMENT_H_
#define PLUGRT_EAGER_PLACEMENT_H_

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "client/device.h"
#include "common/status.h"
#include "eager/task_lease.h"
#include "eager/tensor.h"

namespace plugrt {
class Client;
}

namespace plugrt::eager {

enum class PlacementPolicy {
  kCopy,    // copy inputs to the op's device
  kWarn,    // copy, and report each copy through the context's warning sink
  kRefuse,  // an error naming both devices
};

struct NamedDevice {
  Device device;
  std::string name;
  // The client the device belongs to: the context's own, or a remote
  // task's (cluster.h). Valid while the device is in the context.
  const Client* client = nullptr;
  // A remote task's device: the lease its tensors share; null: local.
  std::shared_ptr<TaskLease> lease;
};

struct Placement {
  NamedDevice device;
  // Indices (into the flat input list) of inputs to copy to `device`.
  std::vector<size_t> copies;
  // One line per copy under kWarn.
  std::vector<std::string> warnings;
};

// The entry of `devices` for `device`, or null.
const NamedDevice* FindNamedDevice(std::span<const NamedDevice> devices, const Device& device);

// `inputs`: the op's inputs (physical tensors), flat; `copies` index them.
// `devices`: the context's, where the first input's device is looked up
// (an input on a device no longer there is an error). Reads the devices in
// place (no list is built per op).
// Fills `placement` (empty on entry; an out-parameter, so that the per-op
// path moves no Placement around).
Status PlaceOp(std::string_view op, const std::optional<NamedDevice>& requested,
               std::span<const Tensor> inputs, std::span<const NamedDevice> devices,
               const NamedDevice& default_device,
               PlacementPolicy policy, Placement& placement);

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_PLACEMENT_H_
