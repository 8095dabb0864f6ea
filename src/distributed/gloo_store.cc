#include "distributed/gloo_store.h"

#include <gloo/common/error.h>

#include <climits>

namespace plugrt::distributed {
namespace {

[[noreturn]] void Throw(const Status& status) {
  throw gloo::IoException(StrCat("key-value store: ", status.ToString()));
}

int ClampMs(std::chrono::milliseconds ms) {
  return static_cast<int>(std::clamp<int64_t>(ms.count(), 0, INT_MAX));
}

}  // namespace

void GlooStore::set(const std::string& key, const std::vector<char>& data) {
  Status status = store_->Put(prefix_ + key, std::string_view(data.data(), data.size()));
  if (!status.ok()) Throw(status);
}

std::vector<char> GlooStore::get(const std::string& key) {
  StatusOr<std::string> value = store_->Get(prefix_ + key, ClampMs(timeout_));
  if (!value.ok()) Throw(value.status());
  return std::vector<char>(value->begin(), value->end());
}

void GlooStore::wait(const std::vector<std::string>& keys,
                     const std::chrono::milliseconds& timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (const std::string& key : keys) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    StatusOr<std::string> value = store_->Get(prefix_ + key, ClampMs(left));
    if (!value.ok()) Throw(value.status());
  }
}

}  // namespace plugrt::distributed
