// plugrt XLA FFI: the runtime's side of include/plugrt/xla_ffi_c_api.h. The
// function table handlers receive (XlaFfiApi), the error, future and
// execution-context objects behind its opaque handles, and the process-wide
// registry of user type ids.
#ifndef PLUGRT_KERNELS_ABI_XLA_FFI_API_H_
#define PLUGRT_KERNELS_ABI_XLA_FFI_API_H_

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string_view>

#include "common/status.h"
#include "common/typed_user_data.h"
#include "plugrt/xla_ffi_c_api.h"

// The opaque handles of the C API, defined by the runtime.
struct XLA_FFI_Error {
  plugrt::Status status;
};

namespace plugrt::kernels_abi {

// The state one call site keeps across calls (XLA_FFI_State_Set at the
// instantiate stage): set at most once; its deleter runs when the call site
// (the compiled program) goes away.
class XlaFfiState {
 public:
  XlaFfiState() = default;
  ~XlaFfiState();
  XlaFfiState(const XlaFfiState&) = delete;
  XlaFfiState& operator=(const XlaFfiState&) = delete;

  Status Set(int64_t type_id, void* state, void (*deleter)(void*));
  StatusOr<void*> Get(int64_t type_id) const;

 private:
  mutable std::mutex mu_;
  bool set_ = false;
  int64_t type_id_ = 0;
  void* state_ = nullptr;
  void (*deleter_)(void*) = nullptr;
};

}  // namespace plugrt::kernels_abi

// What a handler's XLA_FFI_ExecutionContext* points to: one call's facts.
// Built by the caller of the handler (one per call) and valid during it.
struct XLA_FFI_ExecutionContext {
  XLA_FFI_ExecutionStage stage = XLA_FFI_ExecutionStage_EXECUTE;
  std::string_view target;
  int32_t device_ordinal = 0;
  int64_t run_id = 0;
  plugrt::kernels_abi::XlaFfiState* state = nullptr;  // the call site's
  const plugrt::TypedUserData* user_data = nullptr;    // the execution's; may be null
  // Blocks from XLA_FFI_DeviceMemory_Allocate not yet freed (address ->
  // alignment); the call's end frees what remains.
  std::mutex allocations_mu;
  std::map<void*, size_t> allocations;

  XLA_FFI_ExecutionContext() = default;
  ~XLA_FFI_ExecutionContext();
  XLA_FFI_ExecutionContext(const XLA_FFI_ExecutionContext&) = delete;
  XLA_FFI_ExecutionContext& operator=(const XLA_FFI_ExecutionContext&) = delete;
};

// A future from XLA_FFI_Future_Create: completed once by the handler (from
// any thread), awaited by the runtime. Two references, the handler's (given
// up when it completes the future) and the runtime's (given up after the
// wait), so either side may finish last.
struct XLA_FFI_Future {
  std::mutex mu;
  std::condition_variable cv;
  bool completed = false;
  plugrt::Status status;
  int references = 2;
};

namespace plugrt::kernels_abi {

// The table every call frame carries (XLA FFI API 0.1).
const XLA_FFI_Api* XlaFfiApi();

// A new error for a handler or the API (the receiver owns it).
XLA_FFI_Error* NewXlaFfiError(Status status);
// The status of `error` (OK for null), deleting it.
Status TakeXlaFfiError(XLA_FFI_Error* error);

// Waits for `future` to complete, releases the runtime's reference and
// returns the future's status.
Status AwaitXlaFfiFuture(XLA_FFI_Future* future);

// The id of the user type `name`: a new one when `type_id` is 0, otherwise
// checks that `name` has (or now gets) exactly `type_id`. Process-wide, as
// handlers of every client share type ids.
StatusOr<int64_t> RegisterXlaFfiTypeId(std::string_view name, int64_t type_id);

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_XLA_FFI_API_H_
