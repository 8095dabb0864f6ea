#include "client/key_value_store.h"

#include <chrono>

namespace plugrt {

StatusOr<std::string> InMemoryKeyValueStore::Get(std::string_view key, int timeout_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    auto it = values_.find(key);
    if (it != values_.end()) return it->second;
    if (changed_.wait_until(lock, deadline) == std::cv_status::timeout) {
      it = values_.find(key);
      if (it != values_.end()) return it->second;
      return MakeError(StatusCode::kDeadlineExceeded, "key '", key, "' did not appear within ",
                       timeout_ms, " ms");
    }
  }
}

StatusOr<std::string> InMemoryKeyValueStore::TryGet(std::string_view key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = values_.find(key);
  if (it == values_.end()) return NotFound("key '", key, "' not found");
  return it->second;
}

Status InMemoryKeyValueStore::Put(std::string_view key, std::string_view value) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    values_.insert_or_assign(std::string(key), std::string(value));
  }
  changed_.notify_all();
  return OkStatus();
}

}  // namespace plugrt
