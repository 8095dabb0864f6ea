// plugrt SDK: the interface a backend implements for a client.
#ifndef PLUGRT_SDK_CLIENT_H_
#define PLUGRT_SDK_CLIENT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "sdk/buffer.h"
#include "sdk/device.h"
#include "sdk/event.h"
#include "sdk/executable.h"
#include "sdk/topology.h"
#include "sdk/types.h"

namespace plugrt::sdk {

// Arguments of BufferFromHostBuffer, already checked for null pointers by
// the SDK. Exactly one of `device` / `memory` is set (the SDK resolves the
// default device when the caller gave neither).
struct HostBufferArgs {
  const void* data = nullptr;
  PJRT_Buffer_Type type = PJRT_Buffer_Type_INVALID;
  std::vector<int64_t> dims;
  // Byte strides of the host data, one per dimension; dense row-major when
  // absent.
  std::optional<std::vector<int64_t>> byte_strides;
  PJRT_HostBufferSemantics semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
  Device* device = nullptr;
  Memory* memory = nullptr;
  // Requested on-device layout; backend default when absent.
  std::optional<Layout> device_layout;
};

struct HostBufferResult {
  std::unique_ptr<Buffer> buffer;
  // Fires when the host memory may be reused or freed by the caller.
  EventRef done_with_host_buffer;
};

// Arguments of CreateViewOfDeviceBuffer.
struct ViewArgs {
  void* device_buffer_ptr = nullptr;
  PJRT_Buffer_Type type = PJRT_Buffer_Type_INVALID;
  std::vector<int64_t> dims;
  std::optional<Layout> layout;
  Device* device = nullptr;
  Memory* memory = nullptr;
  // Called once when the view's buffer is deleted or destroyed; may be empty.
  std::function<void()> on_delete;
  intptr_t stream = 0;
};

class Client {
 public:
  virtual ~Client() = default;

  virtual std::string_view platform_name() const = 0;
  virtual std::string_view platform_version() const = 0;
  virtual int process_index() const = 0;
  // All pointers are owned by the client and valid for its lifetime.
  virtual const std::vector<Device*>& devices() const = 0;
  virtual const std::vector<Device*>& addressable_devices() const = 0;
  virtual const std::vector<Memory*>& addressable_memories() const = 0;
  virtual StatusOr<Device*> LookupDevice(int id) const = 0;
  virtual StatusOr<Device*> LookupAddressableDevice(int local_hardware_id) const = 0;
  // Device ids, replica-major: result[r * num_partitions + p].
  virtual StatusOr<std::vector<int>> DefaultDeviceAssignment(int num_replicas,
                                                             int num_partitions) const = 0;
  // Owned by the client.
  virtual StatusOr<const TopologyDescription*> topology() const = 0;

  virtual StatusOr<HostBufferResult> BufferFromHostBuffer(const HostBufferArgs& args) = 0;
  virtual StatusOr<std::unique_ptr<Buffer>> CreateViewOfDeviceBuffer(const ViewArgs& args) {
    (void)args;
    return Unimplemented("PJRT_Client_CreateViewOfDeviceBuffer is not supported by this backend");
  }
  virtual StatusOr<std::unique_ptr<LoadedExecutable>> Compile(const Program& program,
                                                              std::string_view compile_options) {
    (void)program, (void)compile_options;
    return Unimplemented("PJRT_Client_Compile: this backend does not compile programs yet");
  }
  virtual StatusOr<std::unique_ptr<LoadedExecutable>> DeserializeAndLoad(
      std::string_view serialized, std::string_view compile_options) {
    (void)serialized, (void)compile_options;
    return Unimplemented("PJRT_Executable_DeserializeAndLoad is not supported by this backend");
  }
};

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_CLIENT_H_
