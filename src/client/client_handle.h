// plugrt client (internal): the PJRT_Client and what must live as long as it.
#ifndef PLUGRT_CLIENT_CLIENT_HANDLE_H_
#define PLUGRT_CLIENT_CLIENT_HANDLE_H_

#include <memory>

#include "client/key_value_store.h"
#include "client/plugin.h"
#include "pjrt_c_api.h"

namespace plugrt::internal {

// Shared by the Client and every Buffer and topology it hands out; the last
// one destroys the PJRT_Client, after all its buffers.
struct ClientHandle {
  std::shared_ptr<Plugin> plugin;
  const PJRT_Api* api = nullptr;
  PJRT_Client* client = nullptr;
  // The plugin may call the key-value callbacks until the client is gone.
  std::shared_ptr<KeyValueStore> kv_store;

  ClientHandle() = default;
  ClientHandle(const ClientHandle&) = delete;
  ClientHandle& operator=(const ClientHandle&) = delete;
  ~ClientHandle();
};

}  // namespace plugrt::internal

#endif  // PLUGRT_CLIENT_CLIENT_HANDLE_H_
