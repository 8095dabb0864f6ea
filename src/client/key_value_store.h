// plugrt client: the key-value store a framework hands to a plugin at client
// creation (multi-process coordination), and a simple in-process one.
#ifndef PLUGRT_CLIENT_KEY_VALUE_STORE_H_
#define PLUGRT_CLIENT_KEY_VALUE_STORE_H_

#include <condition_variable>
#include <map>
#include <mutex>
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
