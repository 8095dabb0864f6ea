#include "client/topology.h"

#include <utility>

#include "client/api_call.h"
#include "client/handle_list.h"
#include "client/named_value_c.h"
#include "client/plugin.h"

namespace plugrt {

using internal::Call;
using internal::NewArgs;
using internal::StringFromC;

TopologyDescription::TopologyDescription(const PJRT_Api* api, PJRT_TopologyDescription* raw,
                                         bool owned, std::shared_ptr<const void> keepalive)
    : api_(api), raw_(raw), owned_(owned), keepalive_(std::move(keepalive)) {}

TopologyDescription::~TopologyDescription() { Reset(); }

TopologyDescription::TopologyDescription(TopologyDescription&& other) noexcept
    : api_(other.api_),
      raw_(std::exchange(other.raw_, nullptr)),
      owned_(other.owned_),
      keepalive_(std::move(other.keepalive_)) {}

TopologyDescription& TopologyDescription::operator=(TopologyDescription&& other) noexcept {
  if (this != &other) {
    Reset();
    api_ = other.api_;
    raw_ = std::exchange(other.raw_, nullptr);
    owned_ = other.owned_;
    keepalive_ = std::move(other.keepalive_);
  }
  return *this;
}

void TopologyDescription::Reset() {
  if (raw_ != nullptr && owned_) {
    auto args = NewArgs<PJRT_TopologyDescription_Destroy_Args>();
    args.topology = raw_;
    // A destructor has nowhere to report a failed destroy.
    Call(api_, args).IgnoreError();
  }
  raw_ = nullptr;
  keepalive_.reset();
}

StatusOr<TopologyDescription> TopologyDescription::Create(std::shared_ptr<Plugin> plugin,
                                                          std::string_view name,
                                                          const std::vector<NamedValue>& options) {
  if (plugin == nullptr) return InvalidArgument("TopologyDescription::Create needs a plugin");
  internal::CNamedValues c_options(options);
  auto args = NewArgs<PJRT_TopologyDescription_Create_Args>();
  args.topology_name = name.data();
  args.topology_name_size = name.size();
  args.create_options = c_options.data();
  args.num_options = c_options.size();
  PLUGRT_RETURN_IF_ERROR(Call(plugin->api(), args));
  if (args.topology == nullptr) return Internal("plugin created a null topology");
  return TopologyDescription(plugin->api(), args.topology, /*owned=*/true, nullptr);
}

StatusOr<TopologyDescription> TopologyDescription::Deserialize(std::shared_ptr<Plugin> plugin,
                                                               std::string_view serialized) {
  if (plugin == nullptr) return InvalidArgument("TopologyDescription::Deserialize needs a plugin");
  auto args = NewArgs<PJRT_TopologyDescription_Deserialize_Args>();
  args.serialized_topology = serialized.data();
  args.serialized_topology_size = serialized.size();
  PLUGRT_RETURN_IF_ERROR(Call(plugin->api(), args));
  if (args.topology == nullptr) return Internal("plugin deserialized a null topology");
  return TopologyDescription(plugin->api(), args.topology, /*owned=*/true, nullptr);
}

StatusOr<std::string> TopologyDescription::platform_name() const {
  auto args = NewArgs<PJRT_TopologyDescription_PlatformName_Args>();
  args.topology = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return StringFromC(args.platform_name, args.platform_name_size);
}

StatusOr<std::string> TopologyDescription::platform_version() const {
  auto args = NewArgs<PJRT_TopologyDescription_PlatformVersion_Args>();
  args.topology = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return StringFromC(args.platform_version, args.platform_version_size);
}

StatusOr<std::vector<DeviceDescription>> TopologyDescription::device_descriptions() const {
  auto args = NewArgs<PJRT_TopologyDescription_GetDeviceDescriptions_Args>();
  args.topology = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return internal::WrapHandles<DeviceDescription>(api_, args.descriptions, args.num_descriptions,
                                                  "device description");
}

StatusOr<std::vector<NamedValue>> TopologyDescription::attributes() const {
  auto args = NewArgs<PJRT_TopologyDescription_Attributes_Args>();
  args.topology = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return internal::NamedValuesFromC(args.attributes, args.num_attributes);
}

StatusOr<std::string> TopologyDescription::Serialize() const {
  auto args = NewArgs<PJRT_TopologyDescription_Serialize_Args>();
  args.topology = raw_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  std::string bytes = StringFromC(args.serialized_bytes, args.serialized_bytes_size);
  if (args.serialized_topology_deleter != nullptr) {
    args.serialized_topology_deleter(args.serialized_topology);
  }
  return bytes;
}

}  // namespace plugrt
