// plugrt: the key-value store interface of multi-process coordination, as
// PJRT_Client_Create's kv_get/kv_try_get/kv_put callbacks carry it. One
// interface for both sides of the ABI: the client adapts a store to the
// callbacks (client/key_value_callbacks.h), the SDK adapts the callbacks
// back to a store for the backend (sdk/plugin.h). A store (in memory, file,
// network) is written once against this class.
#ifndef PLUGRT_COMMON_KEY_VALUE_STORE_H_
#define PLUGRT_COMMON_KEY_VALUE_STORE_H_

#include <string>
#include <string_view>

#include "common/status.h"

namespace plugrt {

// Thread-safe; called from plugin threads.
class KeyValueStore {
 public:
  virtual ~KeyValueStore() = default;
  // Waits up to `timeout_ms` for `key`; DEADLINE_EXCEEDED when it never came.
  virtual StatusOr<std::string> Get(std::string_view key, int timeout_ms) = 0;
  // NOT_FOUND at once when `key` is absent.
  virtual StatusOr<std::string> TryGet(std::string_view key) = 0;
  virtual Status Put(std::string_view key, std::string_view value) = 0;
};

}  // namespace plugrt

#endif  // PLUGRT_COMMON_KEY_VALUE_STORE_H_
