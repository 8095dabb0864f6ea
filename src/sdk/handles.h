// plugrt SDK: the definitions of the ABI's opaque handle types. Each wraps an
// sdk object and caches whatever arrays and strings the ABI hands out, so
// that they live exactly as long as the object they describe.
//
// Ownership (one place for all of it):
// - PJRT_Client owns its sdk::Client and one handle per device, device
//   description and memory (created at client creation, valid for the
//   client's lifetime), plus the client's topology handle.
// - PJRT_Buffer owns its sdk::Buffer and knows its PJRT_Client.
// - PJRT_LoadedExecutable owns its sdk::LoadedExecutable; PJRT_Executable
//   shares its sdk::Executable, so it may outlive the loaded executable.
// - PJRT_Event shares an sdk::Event; every call that returns an event returns
//   a new PJRT_Event that the caller destroys.
// - PJRT_Error owns a Status.
#ifndef PLUGRT_SDK_HANDLES_H_
#define PLUGRT_SDK_HANDLES_H_

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/status.h"
#include "pjrt_c_api.h"
#include "sdk/api_named_values.h"
#include "sdk/buffer.h"
#include "common/recycled.h"
#include "common/typed_user_data.h"
#include "sdk/client.h"
#include "sdk/device.h"
#include "sdk/event.h"
#include "sdk/executable.h"
#include "sdk/topology.h"

struct PJRT_Error {
  plugrt::Status status;
};

// What a framework attaches to executions (PJRT_ExecuteContext_Create; the
// FFI extension adds user data). Executions launched with it share the data,
// which lives until the handle is destroyed and those executions end.
struct PJRT_ExecuteContext {
  std::shared_ptr<plugrt::TypedUserData> user_data = std::make_shared<plugrt::TypedUserData>();
};

// Event and buffer handles are made and destroyed on every execute: their
// memory is recycled per thread (common/recycled.h).
struct PJRT_Event : plugrt::Recycled<PJRT_Event> {
  plugrt::sdk::EventRef event;
  // Only events made by PJRT_Event_Create may be completed by the caller.
  bool settable = false;
};

struct PJRT_DeviceDescription {
  explicit PJRT_DeviceDescription(const plugrt::sdk::DeviceDescription& d);
  const plugrt::sdk::DeviceDescription* description;
  std::string kind;
  std::string debug_string;
  std::string to_string;
  plugrt::sdk::NamedValueArray attributes;
};

struct PJRT_Device {
  PJRT_Device(plugrt::sdk::Device* d, PJRT_Client* c)
      : device(d), client(c), description(d->description()) {}
  plugrt::sdk::Device* device;
  PJRT_Client* client;
  PJRT_DeviceDescription description;
  std::vector<PJRT_Memory*> memories;
};

struct PJRT_Memory {
  PJRT_Memory(plugrt::sdk::Memory* m, PJRT_Client* c);
  plugrt::sdk::Memory* memory;
  PJRT_Client* client;
  std::string kind;
  std::string debug_string;
  std::string to_string;
  std::vector<PJRT_Device*> devices;
};

struct PJRT_TopologyDescription {
  // Wraps `topology`; `owned` holds it unless the client owns it.
  static plugrt::StatusOr<std::unique_ptr<PJRT_TopologyDescription>> Create(
      const plugrt::sdk::TopologyDescription* topology,
      std::unique_ptr<plugrt::sdk::TopologyDescription> owned);

  std::unique_ptr<plugrt::sdk::TopologyDescription> owned;
  const plugrt::sdk::TopologyDescription* topology = nullptr;
  std::string platform_name;
  std::string platform_version;
  std::vector<std::unique_ptr<PJRT_DeviceDescription>> description_storage;
  std::vector<PJRT_DeviceDescription*> descriptions;
  std::unique_ptr<plugrt::sdk::NamedValueArray> attributes;
};

struct PJRT_Client {
  // Creates the handles of every device and memory of `client`.
  static plugrt::StatusOr<std::unique_ptr<PJRT_Client>> Create(
      std::unique_ptr<plugrt::sdk::Client> client);

  // The handle of a backend object; INTERNAL if the backend returned an
  // object the client did not list.
  plugrt::StatusOr<PJRT_Device*> DeviceHandle(const plugrt::sdk::Device* device) const;
  plugrt::StatusOr<PJRT_Memory*> MemoryHandle(const plugrt::sdk::Memory* memory) const;
  plugrt::StatusOr<std::vector<PJRT_Device*>> DeviceHandles(
      const std::vector<plugrt::sdk::Device*>& devices) const;
  // Whether a caller-given handle belongs to this client (checked without
  // dereferencing it).
  bool Owns(const PJRT_Device* device) const { return own_devices.count(device) != 0; }
  bool Owns(const PJRT_Memory* memory) const { return own_memories.count(memory) != 0; }

  // Declared first so it is destroyed last, after the handles pointing into it.
  std::unique_ptr<plugrt::sdk::Client> client;
  std::string platform_name;
  std::string platform_version;
  std::vector<std::unique_ptr<PJRT_Device>> device_storage;
  std::vector<std::unique_ptr<PJRT_Memory>> memory_storage;
  std::vector<PJRT_Device*> devices;
  std::vector<PJRT_Device*> addressable_devices;
  std::vector<PJRT_Memory*> addressable_memories;
  std::unordered_map<const plugrt::sdk::Device*, PJRT_Device*> device_map;
  std::unordered_map<const plugrt::sdk::Memory*, PJRT_Memory*> memory_map;
  std::unordered_set<const PJRT_Device*> own_devices;
  std::unordered_set<const PJRT_Memory*> own_memories;

  std::mutex topology_mu;
  std::unique_ptr<PJRT_TopologyDescription> topology;  // made on first request
};

struct PJRT_Buffer : plugrt::Recycled<PJRT_Buffer> {
  PJRT_Buffer(std::unique_ptr<plugrt::sdk::Buffer> b, PJRT_Client* c)
      : buffer(std::move(b)), client(c) {}
  std::unique_ptr<plugrt::sdk::Buffer> buffer;
  PJRT_Client* client;

  // Arrays handed to callers; each is filled once and then never changes.
  std::mutex mu;
  std::optional<std::vector<int64_t>> unpadded_dims;
  std::optional<std::vector<size_t>> dynamic_dims;
  struct LayoutData {
    plugrt::sdk::Layout layout;
    std::vector<int64_t> tile_dims;  // all tiles, concatenated
    std::vector<size_t> tile_dim_sizes;
  };
  std::optional<LayoutData> layout;
};

struct PJRT_Executable {
  explicit PJRT_Executable(std::shared_ptr<plugrt::sdk::Executable> e) : executable(std::move(e)) {}
  std::shared_ptr<plugrt::sdk::Executable> executable;

  // Arrays handed to callers; each is filled once and then never changes.
  std::mutex mu;
  std::optional<std::string> name;
  std::optional<std::vector<PJRT_Buffer_Type>> output_types;
  std::optional<std::vector<int64_t>> output_dims;
  std::vector<size_t> output_dim_sizes;
  std::optional<std::vector<std::string>> memory_kinds;
  std::vector<const char*> memory_kind_ptrs;
  std::vector<size_t> memory_kind_sizes;
  std::optional<std::string> fingerprint;
  std::unique_ptr<plugrt::sdk::NamedValueArray> cost_analysis;
  std::optional<std::string> optimized_code;
  std::string optimized_format;
};

struct PJRT_LoadedExecutable {
  // Wraps a backend result bound to `client`; INTERNAL for a null result.
  static plugrt::StatusOr<PJRT_LoadedExecutable*> Create(
      std::unique_ptr<plugrt::sdk::LoadedExecutable> loaded, PJRT_Client* client);

  std::unique_ptr<plugrt::sdk::LoadedExecutable> loaded;
  PJRT_Client* client = nullptr;
  std::vector<PJRT_Device*> addressable_devices;
  std::mutex mu;
  std::optional<std::string> fingerprint;
};

// Results whose bytes the caller frees through a deleter we hand out.
struct PJRT_SerializedTopology {
  std::string bytes;
};
struct PJRT_SerializedExecutable {
  std::string bytes;
};
struct PJRT_Device_Attributes {
  explicit PJRT_Device_Attributes(plugrt::sdk::Attributes values) : values(std::move(values)) {}
  plugrt::sdk::NamedValueArray values;
};

namespace plugrt::sdk {

// A new PJRT_Error for a non-OK status; nullptr for OK.
PJRT_Error* ToPjrtError(Status status);
// The PJRT_CallbackError a plugin hands to a caller's callbacks (key-value
// store, host-to-device streams) so that they can return a PJRT_Error. Any
// code outside the enum, and OK (an error is never OK), becomes UNKNOWN.
PJRT_CallbackError* CallbackErrorFactory();
// A new PJRT_Event wrapping `event`.
PJRT_Event* ToPjrtEvent(EventRef event);

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_HANDLES_H_
