// plugrt client: Client, the RAII owner of a PJRT_Client.
#ifndef PLUGRT_CLIENT_CLIENT_H_
#define PLUGRT_CLIENT_CLIENT_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "client/buffer.h"
#include "client/device.h"
#include "client/event.h"
#include "client/executable.h"
#include "client/key_value_store.h"
#include "common/layout.h"
#include "client/plugin.h"
#include "client/topology.h"
#include "compile_options/compile_options.h"
#include "common/named_value.h"
#include "common/status.h"
#include "pjrt_c_api.h"

namespace plugrt {

struct ClientOptions {
  // Passed to PJRT_Client_Create as they are (e.g. cpu_device_count=4).
  std::vector<NamedValue> create_options;
  // Null: no key-value callbacks are given to the plugin.
  std::shared_ptr<KeyValueStore> kv_store;
};

namespace internal {
// The PJRT_Client and what must live as long as it; shared by the Client and
// every Buffer it made, destroyed with the last of them.
struct ClientHandle;
}

class Client {
 public:
  static StatusOr<std::unique_ptr<Client>> Create(std::shared_ptr<Plugin> plugin,
                                                  const ClientOptions& options = {});
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  StatusOr<std::string> platform_name() const;
  StatusOr<std::string> platform_version() const;
  StatusOr<int> process_index() const;
  StatusOr<std::vector<Device>> devices() const;
  StatusOr<std::vector<Device>> addressable_devices() const;
  StatusOr<Device> LookupDevice(int id) const;
  StatusOr<Device> LookupAddressableDevice(int local_hardware_id) const;
  StatusOr<std::vector<Memory>> addressable_memories() const;
  // Device ids, replica-major: result[replica * num_partitions + partition].
  StatusOr<std::vector<int>> DefaultDeviceAssignment(int num_replicas, int num_partitions) const;
  // The client's topology (borrowed: keeps this client's PJRT_Client alive).
  StatusOr<TopologyDescription> topology() const;

  struct HostBuffer {
    HostBuffer() = default;
    HostBuffer(const void* data, PJRT_Buffer_Type type, std::vector<int64_t> dims)
        : data(data), type(type), dims(std::move(dims)) {}

    const void* data = nullptr;
    PJRT_Buffer_Type type = PJRT_Buffer_Type_INVALID;
    std::vector<int64_t> dims;
    // Byte strides of the host data; none: dense row-major.
    std::optional<std::vector<int64_t>> byte_strides;
    PJRT_HostBufferSemantics semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
    std::optional<Layout> device_layout;
  };
  // The Future completes when the plugin no longer needs `host.data`.
  StatusOr<std::pair<Buffer, Future>> BufferFromHostBuffer(const HostBuffer& host,
                                                           const Device& device) const;
  StatusOr<std::pair<Buffer, Future>> BufferFromHostBuffer(const HostBuffer& host,
                                                           const Memory& memory) const;

  // A buffer over memory the caller owns; `on_delete` (may be empty) runs once
  // when the plugin no longer uses it.
  StatusOr<Buffer> CreateViewOfDeviceBuffer(void* device_ptr, PJRT_Buffer_Type type,
                                            const std::vector<int64_t>& dims,
                                            const Device& device,
                                            std::function<void()> on_delete = {},
                                            const std::optional<Layout>& layout = std::nullopt) const;

  // Compiles a program (format "mlir": StableHLO text or bytecode; "hlo")
  // and loads it onto this client's devices. `compile_options` is a
  // serialized xla.CompileOptionsProto, passed through as it is.
  StatusOr<LoadedExecutable> Compile(std::string_view program_text,
                                     std::string_view format = "mlir",
                                     std::string_view compile_options = "") const;
  // The same with options built in C++: encodes them as an
  // xla.CompileOptionsProto.
  StatusOr<LoadedExecutable> Compile(std::string_view program_text, const CompileOptions& options,
                                     std::string_view format = "mlir") const;
  // Loads bytes from Executable::Serialize / LoadedExecutable::Serialize
  // (possibly written by another process) onto this client's devices.
  // `compile_options`, when not empty, is a serialized
  // xla.CompileOptionsProto passed as the overridden options.
  StatusOr<LoadedExecutable> DeserializeAndLoad(std::string_view serialized,
                                                std::string_view compile_options = "") const;

  PJRT_Client* raw() const;
  const PJRT_Api* api() const;
  const std::shared_ptr<Plugin>& plugin() const;

 private:
  explicit Client(std::shared_ptr<internal::ClientHandle> handle);
  StatusOr<std::pair<Buffer, Future>> FromHost(const HostBuffer& host, PJRT_Device* device,
                                               PJRT_Memory* memory) const;
  // Owns `loaded` (freed on error) with its PJRT_Executable.
  StatusOr<LoadedExecutable> AdoptLoaded(PJRT_LoadedExecutable* loaded,
                                         std::string_view operation) const;
  std::shared_ptr<internal::ClientHandle> handle_;
};

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_CLIENT_H_
