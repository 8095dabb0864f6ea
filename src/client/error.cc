#include "client/error.h"

#include <cstddef>
#include <string>

namespace plugrt {
namespace {

// The error slots are checked one by one: this runs for plugins whose table
// may be truncated, and must never read past it.
template <typename Fn>
Fn* ErrorSlot(const PJRT_Api* api, size_t offset, Fn* PJRT_Api::*member) {
  if (api == nullptr || api->struct_size < offset + sizeof(Fn*)) return nullptr;
  return api->*member;
}

}  // namespace

Status StatusFromPjrtError(const PJRT_Api* api, PJRT_Error* error) {
  if (error == nullptr) return OkStatus();
  auto* message_fn =
      ErrorSlot(api, offsetof(PJRT_Api, PJRT_Error_Message), &PJRT_Api::PJRT_Error_Message);
  auto* code_fn =
      ErrorSlot(api, offsetof(PJRT_Api, PJRT_Error_GetCode), &PJRT_Api::PJRT_Error_GetCode);
  auto* destroy_fn =
      ErrorSlot(api, offsetof(PJRT_Api, PJRT_Error_Destroy), &PJRT_Api::PJRT_Error_Destroy);

  std::string message = "(the plugin gave no error message)";
  if (message_fn != nullptr) {
    PJRT_Error_Message_Args args{};
    args.struct_size = PJRT_Error_Message_Args_STRUCT_SIZE;
    args.error = error;
    message_fn(&args);
    if (args.message != nullptr) message.assign(args.message, args.message_size);
  }

  StatusCode code = StatusCode::kUnknown;
  if (code_fn != nullptr) {
    PJRT_Error_GetCode_Args args{};
    args.struct_size = PJRT_Error_GetCode_Args_STRUCT_SIZE;
    args.error = error;
    PJRT_Error* code_error = code_fn(&args);
    if (code_error == nullptr) {
      int value = static_cast<int>(args.code);
      // OK is not an error code: a plugin returning it has lost the real one.
      if (value > 0 && value <= static_cast<int>(StatusCode::kUnauthenticated)) {
        code = static_cast<StatusCode>(value);
      }
    } else if (destroy_fn != nullptr) {
      PJRT_Error_Destroy_Args destroy{};
      destroy.struct_size = PJRT_Error_Destroy_Args_STRUCT_SIZE;
      destroy.error = code_error;
      destroy_fn(&destroy);
    }
  }

  if (destroy_fn != nullptr) {
    PJRT_Error_Destroy_Args args{};
    args.struct_size = PJRT_Error_Destroy_Args_STRUCT_SIZE;
    args.error = error;
    destroy_fn(&args);
  }
  return Status(code, std::move(message));
}

}  // namespace plugrt
