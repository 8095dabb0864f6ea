// plugrt SDK: the interface a backend implements for a topology description.
#ifndef PLUGRT_SDK_TOPOLOGY_H_
#define PLUGRT_SDK_TOPOLOGY_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "sdk/device.h"

namespace plugrt::sdk {

class TopologyDescription {
 public:
  virtual ~TopologyDescription() = default;
  virtual std::string_view platform_name() const = 0;
  virtual std::string_view platform_version() const = 0;
  // Owned by the topology, valid for its lifetime.
  virtual std::vector<const DeviceDescription*> device_descriptions() const = 0;
  virtual const Attributes& attributes() const = 0;
  virtual StatusOr<std::string> Serialize() const {
    return Unimplemented("PJRT_TopologyDescription_Serialize is not supported by this backend");
  }
};

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_TOPOLOGY_H_
