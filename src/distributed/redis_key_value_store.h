// plugrt distributed: a key-value store on a Redis server (Debian's
// redis-server), through hiredis. Values are Redis strings under
// `prefix` + key; Get polls GET until the key appears.
#ifndef PLUGRT_DISTRIBUTED_REDIS_KEY_VALUE_STORE_H_
#define PLUGRT_DISTRIBUTED_REDIS_KEY_VALUE_STORE_H_

#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "common/key_value_store.h"
#include "common/status.h"

struct redisContext;

namespace plugrt::distributed {

class RedisKeyValueStore final : public KeyValueStore {
 public:
  // Connects (UNAVAILABLE naming host:port when the server does not answer
  // within `io_timeout_ms`). Every command also fails after that long.
  static StatusOr<std::unique_ptr<RedisKeyValueStore>> Connect(std::string host, int port,
                                                               std::string prefix = "",
                                                               int io_timeout_ms = 5000);
  ~RedisKeyValueStore() override;

  StatusOr<std::string> Get(std::string_view key, int timeout_ms) override;
  StatusOr<std::string> TryGet(std::string_view key) override;
  Status Put(std::string_view key, std::string_view value) override;

  // "redis://host:port" (with "/prefix" when there is one), for messages.
  std::string address() const;

 private:
  RedisKeyValueStore(std::string host, int port, std::string prefix, int io_timeout_ms);
  // Opens the connection when there is none (the first call, or after a
  // failure dropped it). Needs mu_.
  Status EnsureConnected();
  // One GET; NOT_FOUND when absent. Needs mu_.
  StatusOr<std::string> GetOnce(std::string_view key);

  const std::string host_;
  const int port_;
  const std::string prefix_;
  const int io_timeout_ms_;
  std::mutex mu_;
  redisContext* context_ = nullptr;
};

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_REDIS_KEY_VALUE_STORE_H_
