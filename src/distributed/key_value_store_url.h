// plugrt distributed: opening a key-value store from its address, as
// `plugrt launch --store` and the PLUGRT_KV_STORE variable name it:
//   redis://HOST:PORT[/PREFIX]   a Redis server (keys under PREFIX)
//   file:DIR                     a shared directory
#ifndef PLUGRT_DISTRIBUTED_KEY_VALUE_STORE_URL_H_
#define PLUGRT_DISTRIBUTED_KEY_VALUE_STORE_URL_H_

#include <memory>
#include <string_view>

#include "common/key_value_store.h"
#include "common/status.h"

namespace plugrt::distributed {

// INVALID_ARGUMENT for an address of neither form; UNAVAILABLE when the
// store cannot be reached.
StatusOr<std::unique_ptr<KeyValueStore>> OpenKeyValueStore(std::string_view address);

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_KEY_VALUE_STORE_URL_H_
