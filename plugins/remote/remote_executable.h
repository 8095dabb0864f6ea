// plugrt remote plugin: a program compiled and loaded on the worker. The
// plugin keeps what the worker reported at compile time (name, counts,
// output shapes) and a handle; Execute sends buffer handles and gets output
// handles back, with events the connection completes when the worker's
// execution ends.
#ifndef PLUGRT_PLUGINS_REMOTE_REMOTE_EXECUTABLE_H_
#define PLUGRT_PLUGINS_REMOTE_REMOTE_EXECUTABLE_H_

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "plugins/remote/remote_connection.h"
#include "sdk/executable.h"

namespace plugrt::remote {

class RemoteClient;

class RemoteExecutable : public sdk::Executable {
 public:
  RemoteExecutable(std::shared_ptr<Connection> connection, const wire::ExecutableInfo& info);
  std::string_view name() const override { return name_; }
  int64_t num_replicas() const override { return num_replicas_; }
  int64_t num_partitions() const override { return num_partitions_; }
  size_t num_outputs() const override { return num_outputs_; }
  StatusOr<std::vector<PJRT_Buffer_Type>> output_element_types() const override;
  StatusOr<std::vector<std::vector<int64_t>>> output_dimensions() const override;
  StatusOr<std::string> Serialize() const override;
  StatusOr<std::string> fingerprint() const override;
  uint64_t handle() const { return handle_; }

 private:
  std::shared_ptr<Connection> connection_;
  uint64_t handle_;
  std::string name_;
  int64_t num_replicas_, num_partitions_;
  size_t num_outputs_;
  bool has_output_shapes_;
  std::vector<PJRT_Buffer_Type> output_types_;
  std::vector<std::vector<int64_t>> output_dims_;
  std::string fingerprint_;
};

class RemoteLoadedExecutable : public sdk::LoadedExecutable {
 public:
  static StatusOr<std::unique_ptr<RemoteLoadedExecutable>> Create(
      RemoteClient* client, const wire::ExecutableInfo& info);
  ~RemoteLoadedExecutable() override;

  std::shared_ptr<sdk::Executable> executable() const override { return executable_; }
  std::vector<sdk::Device*> addressable_devices() const override { return devices_; }
  void Delete() override;
  bool is_deleted() const override { return deleted_; }
  StatusOr<sdk::ExecuteResult> Execute(const std::vector<std::vector<sdk::Buffer*>>& argument_lists,
                                       sdk::Device* execute_device,
                                       const sdk::ExecuteOptions& options) override;

 private:
  RemoteLoadedExecutable() = default;

  RemoteClient* client_ = nullptr;
  std::shared_ptr<Connection> connection_;
  std::shared_ptr<RemoteExecutable> executable_;
  std::vector<sdk::Device*> devices_;
  std::atomic<bool> deleted_{false};
};

}  // namespace plugrt::remote

#endif  // PLUGRT_PLUGINS_REMOTE_REMOTE_EXECUTABLE_H_
