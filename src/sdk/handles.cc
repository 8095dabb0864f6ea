#include "sdk/handles.h"

#include "sdk/api_args.h"

PJRT_DeviceDescription::PJRT_DeviceDescription(const plugrt::sdk::DeviceDescription& d)
    : description(&d),
      kind(d.kind()),
      debug_string(d.debug_string()),
      to_string(d.to_string()),
      attributes(d.attributes()) {}

PJRT_Memory::PJRT_Memory(plugrt::sdk::Memory* m, PJRT_Client* c)
    : memory(m),
      client(c),
      kind(m->kind()),
      debug_string(m->debug_string()),
      to_string(m->to_string()) {}

plugrt::StatusOr<std::unique_ptr<PJRT_TopologyDescription>> PJRT_TopologyDescription::Create(
    const plugrt::sdk::TopologyDescription* topology,
    std::unique_ptr<plugrt::sdk::TopologyDescription> owned) {
  if (topology == nullptr) return plugrt::Internal("the backend returned a null topology");
  auto handle = std::make_unique<PJRT_TopologyDescription>();
  handle->owned = std::move(owned);
  handle->topology = topology;
  handle->platform_name = std::string(topology->platform_name());
  handle->platform_version = std::string(topology->platform_version());
  for (const plugrt::sdk::DeviceDescription* d : topology->device_descriptions()) {
    if (d == nullptr) return plugrt::Internal("the backend's topology lists a null device description");
    handle->description_storage.push_back(std::make_unique<PJRT_DeviceDescription>(*d));
    handle->descriptions.push_back(handle->description_storage.back().get());
  }
  handle->attributes = std::make_unique<plugrt::sdk::NamedValueArray>(topology->attributes());
  return handle;
}

plugrt::StatusOr<std::unique_ptr<PJRT_Client>> PJRT_Client::Create(
    std::unique_ptr<plugrt::sdk::Client> backend) {
  using plugrt::Internal;
  if (backend == nullptr) return Internal("the backend returned a null client");
  auto c = std::make_unique<PJRT_Client>();
  c->client = std::move(backend);
  const plugrt::sdk::Client& b = *c->client;
  c->platform_name = std::string(b.platform_name());
  c->platform_version = std::string(b.platform_version());

  auto add_device = [&](plugrt::sdk::Device* d) -> PJRT_Device* {
    auto it = c->device_map.find(d);
    if (it != c->device_map.end()) return it->second;
    c->device_storage.push_back(std::make_unique<PJRT_Device>(d, c.get()));
    PJRT_Device* handle = c->device_storage.back().get();
    c->device_map.emplace(d, handle);
    c->own_devices.insert(handle);
    return handle;
  };
  auto add_memory = [&](plugrt::sdk::Memory* m) -> PJRT_Memory* {
    auto it = c->memory_map.find(m);
    if (it != c->memory_map.end()) return it->second;
    c->memory_storage.push_back(std::make_unique<PJRT_Memory>(m, c.get()));
    PJRT_Memory* handle = c->memory_storage.back().get();
    c->memory_map.emplace(m, handle);
    c->own_memories.insert(handle);
    return handle;
  };

  for (plugrt::sdk::Device* d : b.devices()) {
    if (d == nullptr) return Internal("the backend's client lists a null device");
    c->devices.push_back(add_device(d));
  }
  for (plugrt::sdk::Device* d : b.addressable_devices()) {
    if (d == nullptr) return Internal("the backend's client lists a null addressable device");
    c->addressable_devices.push_back(add_device(d));
  }
  for (plugrt::sdk::Memory* m : b.addressable_memories()) {
    if (m == nullptr) return Internal("the backend's client lists a null memory");
    c->addressable_memories.push_back(add_memory(m));
  }
  // Devices' memories may include some the client does not list; they get
  // handles too. Copy the storage list first: add_* may grow it.
  std::vector<PJRT_Device*> all_devices;
  for (auto& d : c->device_storage) all_devices.push_back(d.get());
  for (PJRT_Device* d : all_devices) {
    for (plugrt::sdk::Memory* m : d->device->memories()) {
      if (m == nullptr) return Internal("the backend's device lists a null memory");
      d->memories.push_back(add_memory(m));
    }
  }
  for (auto& m : c->memory_storage) {
    for (plugrt::sdk::Device* d : m->memory->addressable_by_devices()) {
      auto it = c->device_map.find(d);
      if (it == c->device_map.end()) {
        return Internal("memory '", m->debug_string,
                        "' is addressable by a device its client does not list");
      }
      m->devices.push_back(it->second);
    }
  }
  return c;
}

plugrt::StatusOr<PJRT_Device*> PJRT_Client::DeviceHandle(const plugrt::sdk::Device* device) const {
  auto it = device_map.find(device);
  if (it == device_map.end()) {
    return plugrt::Internal("the backend returned a device its client does not list");
  }
  return it->second;
}

plugrt::StatusOr<PJRT_Memory*> PJRT_Client::MemoryHandle(const plugrt::sdk::Memory* memory) const {
  auto it = memory_map.find(memory);
  if (it == memory_map.end()) {
    return plugrt::Internal("the backend returned a memory its client does not list");
  }
  return it->second;
}

plugrt::StatusOr<std::vector<PJRT_Device*>> PJRT_Client::DeviceHandles(
    const std::vector<plugrt::sdk::Device*>& list) const {
  std::vector<PJRT_Device*> result;
  result.reserve(list.size());
  for (const plugrt::sdk::Device* d : list) {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Device* handle, DeviceHandle(d));
    result.push_back(handle);
  }
  return result;
}

plugrt::StatusOr<PJRT_LoadedExecutable*> PJRT_LoadedExecutable::Create(
    std::unique_ptr<plugrt::sdk::LoadedExecutable> loaded, PJRT_Client* client) {
  if (loaded == nullptr) return plugrt::Internal("the backend returned no executable");
  auto handle = std::make_unique<PJRT_LoadedExecutable>();
  handle->client = client;
  PLUGRT_ASSIGN_OR_RETURN(handle->addressable_devices,
                          client->DeviceHandles(loaded->addressable_devices()));
  handle->loaded = std::move(loaded);
  return handle.release();
}

namespace plugrt::sdk {

namespace {

PJRT_Error* MakeCallbackError(PJRT_Error_Code code, const char* message, size_t message_size) {
  try {
    int64_t value = RawEnum(code);
    if (value <= PJRT_Error_Code_OK || value > PJRT_Error_Code_UNAUTHENTICATED) {
      value = PJRT_Error_Code_UNKNOWN;
    }
    return ToPjrtError(Status(static_cast<StatusCode>(value),
                              message ? std::string(message, message_size) : std::string()));
  } catch (...) {
    return nullptr;
  }
}
PJRT_CallbackError g_callback_error = MakeCallbackError;

}  // namespace

PJRT_CallbackError* CallbackErrorFactory() { return &g_callback_error; }

PJRT_Error* ToPjrtError(Status status) {
  if (status.ok()) return nullptr;
  return new PJRT_Error{std::move(status)};
}

PJRT_Event* ToPjrtEvent(EventRef event) {
  auto* handle = new PJRT_Event;
  handle->event = std::move(event);
  return handle;
}

}  // namespace plugrt::sdk
