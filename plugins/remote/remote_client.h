// plugrt remote plugin: a PJRT client whose devices are a worker's. Every
// call becomes a request to the worker context this client opened
// (remote_connection.h); nothing runs locally.
#ifndef PLUGRT_PLUGINS_REMOTE_REMOTE_CLIENT_H_
#define PLUGRT_PLUGINS_REMOTE_REMOTE_CLIENT_H_

#include <memory>
#include <string>
#include <vector>

#include "plugins/remote/remote_connection.h"
#include "plugins/remote/remote_device.h"
#include "sdk/client.h"

namespace plugrt::remote {

class RemoteClient : public sdk::Client {
 public:
  static StatusOr<std::unique_ptr<RemoteClient>> Create(const ConnectionOptions& options);
  ~RemoteClient() override;

  const std::shared_ptr<Connection>& connection() const { return connection_; }
  // The device with the worker's id `id`; an error naming the worker if it
  // has none.
  StatusOr<RemoteDevice*> DeviceById(int id) const;
  // `device` if it is one of this client's, else an error.
  StatusOr<RemoteDevice*> Own(sdk::Device* device) const;

  std::string_view platform_name() const override { return platform_; }
  std::string_view platform_version() const override { return version_; }
  int process_index() const override { return 0; }
  const std::vector<sdk::Device*>& devices() const override { return devices_; }
  const std::vector<sdk::Device*>& addressable_devices() const override { return devices_; }
  const std::vector<sdk::Memory*>& addressable_memories() const override { return memories_; }
  StatusOr<sdk::Device*> LookupDevice(int id) const override;
  StatusOr<sdk::Device*> LookupAddressableDevice(int local_hardware_id) const override;
  StatusOr<std::vector<int>> DefaultDeviceAssignment(int num_replicas,
                                                     int num_partitions) const override;
  StatusOr<const sdk::TopologyDescription*> topology() const override { return topology_.get(); }

  StatusOr<sdk::HostBufferResult> BufferFromHostBuffer(const sdk::HostBufferArgs& args) override;
  StatusOr<std::unique_ptr<sdk::LoadedExecutable>> Compile(
      const sdk::Program& program, std::string_view compile_options) override;
  StatusOr<std::unique_ptr<sdk::LoadedExecutable>> DeserializeAndLoad(
      std::string_view serialized, std::string_view compile_options) override;

 private:
  RemoteClient() = default;

  std::shared_ptr<Connection> connection_;
  std::string platform_, version_;
  std::vector<std::unique_ptr<RemoteDevice>> owned_devices_;
  std::vector<sdk::Device*> devices_;
  std::vector<sdk::Memory*> memories_;
  std::unique_ptr<RemoteTopology> topology_;
};

}  // namespace plugrt::remote

#endif  // PLUGRT_PLUGINS_REMOTE_REMOTE_CLIENT_H_
