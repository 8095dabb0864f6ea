#include "client/event.h"

#include <memory>
#include <utility>

#include "client/api_call.h"

namespace plugrt {

using internal::Call;
using internal::NewArgs;

Future& Future::operator=(Future&& other) noexcept {
  if (this != &other) {
    Reset();
    api_ = other.api_;
    event_ = std::exchange(other.event_, nullptr);
  }
  return *this;
}

void Future::Reset() {
  if (event_ == nullptr) return;
  auto args = NewArgs<PJRT_Event_Destroy_Args>();
  args.event = std::exchange(event_, nullptr);
  // A destructor has nowhere to report a failed destroy.
  Call(api_, args).IgnoreError();
}

PJRT_Event* Future::release() { return std::exchange(event_, nullptr); }

Status Future::Await() {
  if (event_ == nullptr) return OkStatus();
  auto args = NewArgs<PJRT_Event_Await_Args>();
  args.event = event_;
  return Call(api_, args);
}

StatusOr<bool> Future::IsReady() const {
  if (event_ == nullptr) return true;
  auto args = NewArgs<PJRT_Event_IsReady_Args>();
  args.event = event_;
  PLUGRT_RETURN_IF_ERROR(Call(api_, args));
  return args.is_ready;
}

namespace {

struct OnReadyContext {
  const PJRT_Api* api;
  std::function<void(Status)> callback;
};

void OnReadyTrampoline(PJRT_Error* error, void* user_arg) {
  std::unique_ptr<OnReadyContext> context(static_cast<OnReadyContext*>(user_arg));
  Status status = StatusFromPjrtError(context->api, error);
  // Exceptions must not unwind into the plugin's C frames.
  try {
    context->callback(std::move(status));
  } catch (...) {
  }
}

}  // namespace

Status Future::OnReady(std::function<void(Status)> callback) {
  if (!callback) return InvalidArgument("Future::OnReady needs a callback");
  if (event_ == nullptr) {
    callback(OkStatus());
    return OkStatus();
  }
  auto context = std::make_unique<OnReadyContext>(OnReadyContext{api_, std::move(callback)});
  auto args = NewArgs<PJRT_Event_OnReady_Args>();
  args.event = event_;
  args.callback = &OnReadyTrampoline;
  args.user_arg = context.get();
  Status status = Call(api_, args);
  // On success the trampoline owns the context; on failure the plugin never
  // registered it.
  if (status.ok()) context.release();
  return status;
}

}  // namespace plugrt
