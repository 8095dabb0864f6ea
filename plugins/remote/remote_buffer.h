// plugrt remote plugin: a buffer that lives on the worker. The plugin keeps
// its shape and a handle; data moves only in Upload (BufferFromHostBuffer)
// and ToHost, streamed in chunks straight from and into the caller's
// memory.
#ifndef PLUGRT_PLUGINS_REMOTE_REMOTE_BUFFER_H_
#define PLUGRT_PLUGINS_REMOTE_REMOTE_BUFFER_H_

#include <atomic>
#include <memory>
#include <vector>

#include "plugins/remote/remote_connection.h"
#include "plugins/remote/remote_device.h"
#include "sdk/buffer.h"
#include "sdk/client.h"

namespace plugrt::remote {

class RemoteClient;

class RemoteBuffer : public sdk::Buffer {
 public:
  // `ready`: when the worker's buffer holds its data (or its error).
  RemoteBuffer(RemoteClient* client, std::shared_ptr<Connection> connection, uint64_t handle,
               PJRT_Buffer_Type type, std::vector<int64_t> dims, RemoteDevice* device,
               size_t on_device_size, sdk::EventRef ready);
  ~RemoteBuffer() override;

  // Sends a host array to `device` (the BufferFromHostBuffer of RemoteClient).
  static StatusOr<std::unique_ptr<RemoteBuffer>> Upload(RemoteClient* client,
                                                        const sdk::HostBufferArgs& args,
                                                        RemoteDevice* device);

  uint64_t handle() const { return handle_; }
  RemoteClient* client() const { return client_; }
  // The worker consumed the buffer (donation): deleted without a call.
  void MarkDonated() { deleted_ = true; }

  PJRT_Buffer_Type element_type() const override { return type_; }
  const std::vector<int64_t>& dimensions() const override { return dims_; }
  StatusOr<size_t> on_device_size() const override { return on_device_size_; }
  sdk::Device* device() const override { return device_; }
  sdk::Memory* memory() const override { return device_->memory(); }
  void Delete() override;
  bool is_deleted() const override { return deleted_; }
  bool is_on_cpu() const override { return false; }
  StatusOr<sdk::EventRef> ready_event() override;
  StatusOr<std::unique_ptr<sdk::Buffer>> CopyToDevice(sdk::Device* device) override;
  StatusOr<std::unique_ptr<sdk::Buffer>> CopyToMemory(sdk::Memory* memory) override;
  StatusOr<size_t> HostSize(const Layout* host_layout) const override;
  StatusOr<sdk::EventRef> ToHost(void* dst, size_t dst_size, const Layout* host_layout) override;

 private:
  Status Live(std::string_view what) const;

  RemoteClient* client_;
  std::shared_ptr<Connection> connection_;
  const uint64_t handle_;
  const PJRT_Buffer_Type type_;
  const std::vector<int64_t> dims_;
  RemoteDevice* device_;
  const size_t on_device_size_;
  sdk::EventRef ready_;
  std::atomic<bool> deleted_{false};
};

}  // namespace plugrt::remote

#endif  // PLUGRT_PLUGINS_REMOTE_REMOTE_BUFFER_H_
