// plugrt client: TopologyDescription, owned (from PJRT_TopologyDescription_
// Create/Deserialize) or borrowed from a client.
#ifndef PLUGRT_CLIENT_TOPOLOGY_H_
#define PLUGRT_CLIENT_TOPOLOGY_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "client/device.h"
#include "common/named_value.h"
#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

class Plugin;

// Move-only.
class TopologyDescription {
 public:
  // A topology owned by the caller (destroyed with this object).
  static StatusOr<TopologyDescription> Create(std::shared_ptr<Plugin> plugin,
                                              std::string_view name,
                                              const std::vector<NamedValue>& options = {});
  static StatusOr<TopologyDescription> Deserialize(std::shared_ptr<Plugin> plugin,
                                                   std::string_view serialized);

  // `owned`: whether to destroy `raw` on destruction. `keepalive` (may be
  // null) is held as long as this object (the client of a borrowed topology).
  TopologyDescription(const PJRT_Api* api, PJRT_TopologyDescription* raw, bool owned,
                      std::shared_ptr<const void> keepalive);
  ~TopologyDescription();
  TopologyDescription(TopologyDescription&& other) noexcept;
  TopologyDescription& operator=(TopologyDescription&& other) noexcept;
  TopologyDescription(const TopologyDescription&) = delete;
  TopologyDescription& operator=(const TopologyDescription&) = delete;

  StatusOr<std::string> platform_name() const;
  StatusOr<std::string> platform_version() const;
  // Valid while this object lives.
  StatusOr<std::vector<DeviceDescription>> device_descriptions() const;
  StatusOr<std::vector<NamedValue>> attributes() const;
  StatusOr<std::string> Serialize() const;

  PJRT_TopologyDescription* raw() const { return raw_; }

 private:
  void Reset();
  const PJRT_Api* api_ = nullptr;
  PJRT_TopologyDescription* raw_ = nullptr;
  bool owned_ = false;
  std::shared_ptr<const void> keepalive_;
};

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_TOPOLOGY_H_
