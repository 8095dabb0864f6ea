#include "kernels_abi/xla_ffi_api.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <unordered_map>

#include "kernels_abi/xla_ffi_handlers.h"

namespace plugrt::kernels_abi {
namespace {

// Every entry checks the caller's struct size first: a caller built against
// an older header has fewer fields than this runtime reads.
template <typename Args>
Status CheckArgs(const char* fn, const Args* args, size_t expected) {
  if (args == nullptr) return InvalidArgument(fn, ": the argument struct is null");
  if (args->struct_size < expected) {
    return InvalidArgument(fn, ": struct_size ", args->struct_size, " is smaller than ", expected,
                           " (built against an incompatible XLA FFI header?)");
  }
  return OkStatus();
}

#define PLUGRT_FFI_CHECK_(fn, args)                                                       \
  do {                                                                                    \
    Status plugrt_ffi_status_ = CheckArgs(#fn, args, fn##_Args_STRUCT_SIZE);              \
    if (!plugrt_ffi_status_.ok()) return NewXlaFfiError(std::move(plugrt_ffi_status_)); \
  } while (0)

#define PLUGRT_FFI_NEED_CTX_(fn, args)                                                  \
  do {                                                                                  \
    PLUGRT_FFI_CHECK_(fn, args);                                                        \
    if ((args)->ctx == nullptr) {                                                       \
      return NewXlaFfiError(InvalidArgument(#fn, ": the execution context is null")); \
    }                                                                                   \
  } while (0)

XLA_FFI_Error* ErrorCreate(XLA_FFI_Error_Create_Args* args) {
  // An error that cannot be made faithfully still must be an error: a null
  // result would read as success.
  if (args == nullptr || args->struct_size < XLA_FFI_Error_Create_Args_STRUCT_SIZE) {
    return NewXlaFfiError(InvalidArgument("XLA_FFI_Error_Create: bad argument struct"));
  }
  const int code = static_cast<int>(args->errc);
  if (code <= 0 || code > 16) {
    return NewXlaFfiError(Status(StatusCode::kUnknown,
                                 StrCat("(error code ", code, ") ",
                                        args->message != nullptr ? args->message : "")));
  }
  return NewXlaFfiError(
      Status(static_cast<StatusCode>(code), args->message != nullptr ? args->message : ""));
}

void ErrorGetMessage(XLA_FFI_Error_GetMessage_Args* args) {
  if (args == nullptr || args->struct_size < XLA_FFI_Error_GetMessage_Args_STRUCT_SIZE) return;
  args->message = args->error != nullptr ? args->error->status.message().c_str() : "";
}

void ErrorDestroy(XLA_FFI_Error_Destroy_Args* args) {
  if (args == nullptr || args->struct_size < XLA_FFI_Error_Destroy_Args_STRUCT_SIZE) return;
  delete args->error;
}

XLA_FFI_Error* HandlerRegister(XLA_FFI_Handler_Register_Args* args) {
  PLUGRT_FFI_CHECK_(XLA_FFI_Handler_Register, args);
  return NewXlaFfiError(RegisterXlaFfiHandler(std::string_view(args->name.ptr, args->name.len),
                                              std::string_view(args->platform.ptr,
                                                               args->platform.len),
                                              args->bundle, args->traits));
}

XLA_FFI_Error* StreamGet(XLA_FFI_Stream_Get_Args* args) {
  PLUGRT_FFI_NEED_CTX_(XLA_FFI_Stream_Get, args);
  return NewXlaFfiError(Unimplemented("XLA_FFI_Stream_Get: custom call '", args->ctx->target,
                                      "' runs on plugrt's CPU plugin, which has no device "
                                      "stream"));
}

XLA_FFI_Error* TypeIdRegister(XLA_FFI_TypeId_Register_Args* args) {
  PLUGRT_FFI_CHECK_(XLA_FFI_TypeId_Register, args);
  if (args->type_id == nullptr) {
    return NewXlaFfiError(InvalidArgument("XLA_FFI_TypeId_Register: type_id is null"));
  }
  StatusOr<int64_t> id = RegisterXlaFfiTypeId(std::string_view(args->name.ptr, args->name.len),
                                              args->type_id->type_id);
  if (!id.ok()) return NewXlaFfiError(id.status());
  args->type_id->type_id = *id;
  return nullptr;
}

XLA_FFI_Error* ExecutionContextGet(XLA_FFI_ExecutionContext_Get_Args* args) {
  PLUGRT_FFI_NEED_CTX_(XLA_FFI_ExecutionContext_Get, args);
  if (args->type_id == nullptr) {
    return NewXlaFfiError(InvalidArgument("XLA_FFI_ExecutionContext_Get: type_id is null"));
  }
  std::optional<void*> data;
  if (args->ctx->user_data != nullptr) data = args->ctx->user_data->Find(args->type_id->type_id);
  if (!data) {
    return NewXlaFfiError(NotFound("XLA_FFI_ExecutionContext_Get: custom call '",
                                   args->ctx->target, "': the execution carries no user data of "
                                   "type id ", args->type_id->type_id,
                                   " (attach it with PJRT_FFI_UserData_Add to the "
                                   "PJRT_ExecuteContext given to PJRT_LoadedExecutable_Execute)"));
  }
  args->data = *data;
  return nullptr;
}

XLA_FFI_Error* StateSet(XLA_FFI_State_Set_Args* args) {
  PLUGRT_FFI_NEED_CTX_(XLA_FFI_State_Set, args);
  if (args->type_id == nullptr) {
    return NewXlaFfiError(InvalidArgument("XLA_FFI_State_Set: type_id is null"));
  }
  if (args->ctx->state == nullptr || args->ctx->stage != XLA_FFI_ExecutionStage_INSTANTIATE) {
    return NewXlaFfiError(FailedPrecondition("XLA_FFI_State_Set: custom call '", args->ctx->target,
                                             "': state is set at the instantiate stage only"));
  }
  return NewXlaFfiError(args->ctx->state->Set(args->type_id->type_id, args->state, args->deleter));
}

XLA_FFI_Error* StateGet(XLA_FFI_State_Get_Args* args) {
  PLUGRT_FFI_NEED_CTX_(XLA_FFI_State_Get, args);
  if (args->type_id == nullptr) {
    return NewXlaFfiError(InvalidArgument("XLA_FFI_State_Get: type_id is null"));
  }
  if (args->ctx->state == nullptr) {
    return NewXlaFfiError(NotFound("XLA_FFI_State_Get: custom call '", args->ctx->target,
                                   "' has no state"));
  }
  StatusOr<void*> state = args->ctx->state->Get(args->type_id->type_id);
  if (!state.ok()) {
    return NewXlaFfiError(Status(state.status().code(),
                                 StrCat("XLA_FFI_State_Get: custom call '", args->ctx->target,
                                        "': ", state.status().message())));
  }
  args->state = *state;
  return nullptr;
}

XLA_FFI_Error* DeviceMemoryAllocate(XLA_FFI_DeviceMemory_Allocate_Args* args) {
  PLUGRT_FFI_NEED_CTX_(XLA_FFI_DeviceMemory_Allocate, args);
  size_t alignment = args->alignment == 0 ? 64 : args->alignment;
  if ((alignment & (alignment - 1)) != 0) {
    return NewXlaFfiError(InvalidArgument("XLA_FFI_DeviceMemory_Allocate: alignment ",
                                          args->alignment, " is not a power of two"));
  }
  void* memory = ::operator new(args->size == 0 ? 1 : args->size, std::align_val_t(alignment),
                                std::nothrow);
  if (memory == nullptr) {
    return NewXlaFfiError(ResourceExhausted("XLA_FFI_DeviceMemory_Allocate: custom call '",
                                            args->ctx->target, "': cannot allocate ", args->size,
                                            " bytes"));
  }
  std::lock_guard<std::mutex> lock(args->ctx->allocations_mu);
  args->ctx->allocations.emplace(memory, alignment);
  args->data = memory;
  return nullptr;
}

XLA_FFI_Error* DeviceMemoryFree(XLA_FFI_DeviceMemory_Free_Args* args) {
  PLUGRT_FFI_NEED_CTX_(XLA_FFI_DeviceMemory_Free, args);
  if (args->data == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(args->ctx->allocations_mu);
  auto it = args->ctx->allocations.find(args->data);
  if (it == args->ctx->allocations.end()) {
    return NewXlaFfiError(InvalidArgument("XLA_FFI_DeviceMemory_Free: custom call '",
                                          args->ctx->target,
                                          "': the block was not allocated in this call, or was "
                                          "freed already"));
  }
  ::operator delete(it->first, std::align_val_t(it->second));
  args->ctx->allocations.erase(it);
  return nullptr;
}

// Tasks run on the calling thread, before Schedule returns: XLA allows a
// pool of one thread and the caller's thread, and this never deadlocks a
// handler that waits for its tasks. Handlers see one thread.
XLA_FFI_Error* ThreadPoolSchedule(XLA_FFI_ThreadPool_Schedule_Args* args) {
  PLUGRT_FFI_NEED_CTX_(XLA_FFI_ThreadPool_Schedule, args);
  if (args->task == nullptr) {
    return NewXlaFfiError(InvalidArgument("XLA_FFI_ThreadPool_Schedule: task is null"));
  }
  args->task(args->data);
  return nullptr;
}

XLA_FFI_Error* ThreadPoolNumThreads(XLA_FFI_ThreadPool_NumThreads_Args* args) {
  PLUGRT_FFI_NEED_CTX_(XLA_FFI_ThreadPool_NumThreads, args);
  if (args->num_threads == nullptr) {
    return NewXlaFfiError(InvalidArgument("XLA_FFI_ThreadPool_NumThreads: num_threads is null"));
  }
  *args->num_threads = 1;
  return nullptr;
}

XLA_FFI_Error* FutureCreate(XLA_FFI_Future_Create_Args* args) {
  PLUGRT_FFI_CHECK_(XLA_FFI_Future_Create, args);
  // The size constant stops before `future`, which this entry writes.
  if (args->struct_size < sizeof(XLA_FFI_Future_Create_Args)) {
    return NewXlaFfiError(InvalidArgument("XLA_FFI_Future_Create: struct_size ",
                                          args->struct_size, " has no room for `future`"));
  }
  args->future = new (std::nothrow) XLA_FFI_Future;
  if (args->future == nullptr) {
    return NewXlaFfiError(ResourceExhausted("XLA_FFI_Future_Create: out of memory"));
  }
  return nullptr;
}

// Completes `future` with `status` and gives up the handler's reference.
XLA_FFI_Error* CompleteFuture(const char* fn, XLA_FFI_Future* future, Status status) {
  if (future == nullptr) return NewXlaFfiError(InvalidArgument(fn, ": future is null"));
  bool last = false;
  {
    std::lock_guard<std::mutex> lock(future->mu);
    if (future->completed) {
      return NewXlaFfiError(FailedPrecondition(fn, ": the future is completed already"));
    }
    future->completed = true;
    future->status = std::move(status);
    last = --future->references == 0;
    future->cv.notify_all();
  }
  if (last) delete future;
  return nullptr;
}

XLA_FFI_Error* FutureSetAvailable(XLA_FFI_Future_SetAvailable_Args* args) {
  PLUGRT_FFI_CHECK_(XLA_FFI_Future_SetAvailable, args);
  return CompleteFuture("XLA_FFI_Future_SetAvailable", args->future, OkStatus());
}

XLA_FFI_Error* FutureSetError(XLA_FFI_Future_SetError_Args* args) {
  PLUGRT_FFI_CHECK_(XLA_FFI_Future_SetError, args);
  Status status = TakeXlaFfiError(args->error);
  if (status.ok()) status = Internal("the handler completed its future with a null error");
  return CompleteFuture("XLA_FFI_Future_SetError", args->future, std::move(status));
}

XLA_FFI_Error* RunIdGet(XLA_FFI_RunId_Get_Args* args) {
  PLUGRT_FFI_NEED_CTX_(XLA_FFI_RunId_Get, args);
  args->run_id = args->ctx->run_id;
  return nullptr;
}

XLA_FFI_Error* DeviceOrdinalGet(XLA_FFI_DeviceOrdinal_Get_Args* args) {
  PLUGRT_FFI_NEED_CTX_(XLA_FFI_DeviceOrdinal_Get, args);
  args->device_ordinal = args->ctx->device_ordinal;
  return nullptr;
}

XLA_FFI_Api BuildApi() {
  XLA_FFI_Api api;
  std::memset(static_cast<void*>(&api), 0, sizeof(api));
  api.struct_size = XLA_FFI_Api_STRUCT_SIZE;
  api.api_version.struct_size = XLA_FFI_Api_Version_STRUCT_SIZE;
  api.api_version.major_version = XLA_FFI_API_MAJOR;
  api.api_version.minor_version = XLA_FFI_API_MINOR;
  api.XLA_FFI_Error_Create = &ErrorCreate;
  api.XLA_FFI_Error_GetMessage = &ErrorGetMessage;
  api.XLA_FFI_Error_Destroy = &ErrorDestroy;
  api.XLA_FFI_Handler_Register = &HandlerRegister;
  api.XLA_FFI_Stream_Get = &StreamGet;
  api.XLA_FFI_TypeId_Register = &TypeIdRegister;
  api.XLA_FFI_ExecutionContext_Get = &ExecutionContextGet;
  api.XLA_FFI_State_Set = &StateSet;
  api.XLA_FFI_State_Get = &StateGet;
  api.XLA_FFI_DeviceMemory_Allocate = &DeviceMemoryAllocate;
  api.XLA_FFI_DeviceMemory_Free = &DeviceMemoryFree;
  api.XLA_FFI_ThreadPool_Schedule = &ThreadPoolSchedule;
  api.XLA_FFI_ThreadPool_NumThreads = &ThreadPoolNumThreads;
  api.XLA_FFI_Future_Create = &FutureCreate;
  api.XLA_FFI_Future_SetAvailable = &FutureSetAvailable;
  api.XLA_FFI_Future_SetError = &FutureSetError;
  api.XLA_FFI_RunId_Get = &RunIdGet;
  api.XLA_FFI_DeviceOrdinal_Get = &DeviceOrdinalGet;
  return api;
}

}  // namespace

XlaFfiState::~XlaFfiState() {
  if (set_ && deleter_ != nullptr) deleter_(state_);
}

Status XlaFfiState::Set(int64_t type_id, void* state, void (*deleter)(void*)) {
  std::lock_guard<std::mutex> lock(mu_);
  if (set_) return MakeError(StatusCode::kAlreadyExists, "the call site's state is set already");
  set_ = true;
  type_id_ = type_id;
  state_ = state;
  deleter_ = deleter;
  return OkStatus();
}

StatusOr<void*> XlaFfiState::Get(int64_t type_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!set_) return NotFound("no state was set (at the instantiate stage)");
  if (type_id != type_id_) {
    return InvalidArgument("the state has type id ", type_id_, ", not ", type_id);
  }
  return state_;
}

const XLA_FFI_Api* XlaFfiApi() {
  static const XLA_FFI_Api api = BuildApi();
  return &api;
}

XLA_FFI_Error* NewXlaFfiError(Status status) {
  if (status.ok()) return nullptr;
  return new XLA_FFI_Error{std::move(status)};
}

Status TakeXlaFfiError(XLA_FFI_Error* error) {
  if (error == nullptr) return OkStatus();
  Status status = std::move(error->status);
  delete error;
  return status;
}

Status AwaitXlaFfiFuture(XLA_FFI_Future* future) {
  Status status;
  bool last = false;
  {
    std::unique_lock<std::mutex> lock(future->mu);
    future->cv.wait(lock, [future] { return future->completed; });
    status = future->status;
    last = --future->references == 0;
  }
  if (last) delete future;
  return status;
}

StatusOr<int64_t> RegisterXlaFfiTypeId(std::string_view name, int64_t type_id) {
  static std::mutex mu;
  static std::unordered_map<std::string, int64_t>* ids =
      new std::unordered_map<std::string, int64_t>;  // never freed: outlives every handler
  static int64_t next = 1;
  if (name.empty()) return InvalidArgument("XLA_FFI_TypeId_Register: the type name is empty");
  std::lock_guard<std::mutex> lock(mu);
  auto it = ids->find(std::string(name));
  if (it != ids->end()) {
    if (type_id != 0 && type_id != it->second) {
      return MakeError(StatusCode::kAlreadyExists, "XLA FFI type '", name, "' has id ", it->second, ", not ", type_id);
    }
    return it->second;
  }
  if (type_id == 0) {
    for (const auto& [other, id] : *ids) next = std::max(next, id + 1);
    type_id = next++;
  } else {
    for (const auto& [other, id] : *ids) {
      if (id == type_id) {
        return MakeError(StatusCode::kAlreadyExists, "XLA FFI type id ", type_id, " belongs to '", other, "', not '",
                             name, "'");
      }
    }
  }
  ids->emplace(std::string(name), type_id);
  return type_id;
}

}  // namespace plugrt::kernels_abi

XLA_FFI_ExecutionContext::~XLA_FFI_ExecutionContext() {
  for (const auto& [data, alignment] : allocations) ::operator delete(data, std::align_val_t(alignment));
}
