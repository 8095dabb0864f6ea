// plugrt common: user data keyed by type id, as PJRT's FFI extension attaches
// it to an execution (PJRT_FFI_UserData_Add into a PJRT_ExecuteContext) and
// XLA FFI handlers read it back (XLA_FFI_ExecutionContext_Get). Lives in
// common so the SDK (which owns the context handle) and the executor (which
// hands it to handlers) share it without depending on each other.
#ifndef PLUGRT_COMMON_TYPED_USER_DATA_H_
#define PLUGRT_COMMON_TYPED_USER_DATA_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

#include "common/status.h"

namespace plugrt {

class TypedUserData {
 public:
  using Deleter = void (*)(void*);

  TypedUserData() = default;
  // Runs every deleter once.
  ~TypedUserData() {
    for (auto& [type_id, entry] : entries_) {
      if (entry.deleter != nullptr) entry.deleter(entry.data);
    }
  }
  TypedUserData(const TypedUserData&) = delete;
  TypedUserData& operator=(const TypedUserData&) = delete;

  // ALREADY_EXISTS when `type_id` has data already (the new data is not
  // taken: its deleter does not run).
  Status Add(int64_t type_id, void* data, Deleter deleter) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!entries_.emplace(type_id, Entry{data, deleter}).second) {
      return MakeError(StatusCode::kAlreadyExists, "user data of type id ", type_id,
                       " is attached already");
    }
    return OkStatus();
  }

  // The data of `type_id`, if any.
  std::optional<void*> Find(int64_t type_id) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(type_id);
    if (it == entries_.end()) return std::nullopt;
    return it->second.data;
  }

 private:
  struct Entry {
    void* data;
    Deleter deleter;
  };
  mutable std::mutex mu_;
  std::map<int64_t, Entry> entries_;
};

}  // namespace plugrt

#endif  // PLUGRT_COMMON_TYPED_USER_DATA_H_
