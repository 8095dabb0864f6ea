#include "client/key_value_callbacks.h"

#include <cstring>
#include <exception>
#include <string>

#include "client/key_value_store.h"
#include "common/status.h"

namespace plugrt::internal {
namespace {

// Errors go back through the plugin's own error constructor; a plugin that
// passed none cannot be told, so the value is just left empty.
PJRT_Error* ToPluginError(PJRT_CallbackError* make_error, const Status& status) {
  if (make_error == nullptr || *make_error == nullptr) return nullptr;
  return (*make_error)(static_cast<PJRT_Error_Code>(status.code()), status.message().data(),
                       status.message().size());
}

void DeleteValue(char* value) { delete[] value; }

// The value in memory the plugin releases through DeleteValue.
template <typename Args>
void GiveValue(Args* args, const std::string& value) {
  char* copy = new char[value.size() + 1];
  std::memcpy(copy, value.data(), value.size());
  copy[value.size()] = '\0';
  args->value = copy;
  args->value_size = value.size();
  args->value_deleter_callback = &DeleteValue;
}

// Runs `body` (returning a Status) so that no exception reaches the plugin.
template <typename Body>
Status Guarded(Body&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    return Internal("key-value store threw: ", e.what());
  } catch (...) {
    return Internal("key-value store threw an unknown exception");
  }
}

std::string_view Key(const char* key, size_t size) {
  return key == nullptr ? std::string_view() : std::string_view(key, size);
}

}  // namespace

PJRT_Error* KeyValueGetCallback(PJRT_KeyValueGetCallback_Args* args) {
  if (args == nullptr) return nullptr;
  auto* store = static_cast<KeyValueStore*>(args->user_arg);
  Status status = Guarded([&]() -> Status {
    if (store == nullptr) return FailedPrecondition("no key-value store");
    StatusOr<std::string> value = store->Get(Key(args->key, args->key_size), args->timeout_in_ms);
    if (!value.ok()) return value.status();
    GiveValue(args, *value);
    return OkStatus();
  });
  return status.ok() ? nullptr : ToPluginError(args->callback_error, status);
}

PJRT_Error* KeyValueTryGetCallback(PJRT_KeyValueTryGetCallback_Args* args) {
  if (args == nullptr) return nullptr;
  auto* store = static_cast<KeyValueStore*>(args->user_arg);
  Status status = Guarded([&]() -> Status {
    if (store == nullptr) return FailedPrecondition("no key-value store");
    StatusOr<std::string> value = store->TryGet(Key(args->key, args->key_size));
    if (!value.ok()) return value.status();
    GiveValue(args, *value);
    return OkStatus();
  });
  return status.ok() ? nullptr : ToPluginError(args->callback_error, status);
}

PJRT_Error* KeyValuePutCallback(PJRT_KeyValuePutCallback_Args* args) {
  if (args == nullptr) return nullptr;
  auto* store = static_cast<KeyValueStore*>(args->user_arg);
  Status status = Guarded([&]() -> Status {
    if (store == nullptr) return FailedPrecondition("no key-value store");
    return store->Put(Key(args->key, args->key_size), Key(args->value, args->value_size));
  });
  return status.ok() ? nullptr : ToPluginError(args->callback_error, status);
}

}  // namespace plugrt::internal
