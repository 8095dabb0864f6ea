// plugrt client: a simple in-process key-value store. The interface
// (KeyValueStore) is common/key_value_store.h, shared with the SDK.
#ifndef PLUGRT_CLIENT_KEY_VALUE_STORE_H_
#define PLUGRT_CLIENT_KEY_VALUE_STORE_H_

#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "common/key_value_store.h"
#include "common/status.h"

namespace plugrt {

// A store in this process's memory (single-process clients and tests).
class InMemoryKeyValueStore : public KeyValueStore {
 public:
  StatusOr<std::string> Get(std::string_view key, int timeout_ms) override;
  StatusOr<std::string> TryGet(std::string_view key) override;
  Status Put(std::string_view key, std::string_view value) override;

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  std::map<std::string, std::string, std::less<>> values_;
};

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_KEY_VALUE_STORE_H_
