// XLA FFI handlers (include/plugrt/xla_ffi_c_api.h) registered through
// PJRT's FFI extension (include/plugrt/pjrt_ffi_extension.h), as JAX does:
// the test finds the extension in the CPU plugin's PJRT_Api, registers
// handlers written here against the C API alone, and runs StableHLO
// programs that call them with api_version = 4.
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "client/client.h"
#include "plugrt/pjrt_ffi_extension.h"
#include "plugrt/xla_custom_call_status.h"
#include "plugrt/xla_ffi_c_api.h"
#include "testutil/plugin_env.h"

namespace plugrt {
namespace {

using testing::CpuPlugin;
using testing::Upload;

// ----------------------------------------------------------------------------
// Layout facts of upstream's headers on LP64 (x86_64 Linux), worked out from
// upstream's field lists: a handler built against upstream's headers must
// find every field and slot where plugrt's header puts it.
static_assert(sizeof(void*) != 8 || (sizeof(XLA_FFI_Api) == 192 && XLA_FFI_Api_STRUCT_SIZE == 192 &&
                                     offsetof(XLA_FFI_Api, internal_api) == 40 &&
                                     offsetof(XLA_FFI_Api, XLA_FFI_Error_Create) == 48 &&
                                     offsetof(XLA_FFI_Api, XLA_FFI_ThreadPool_Schedule) == 136 &&
                                     offsetof(XLA_FFI_Api, XLA_FFI_DeviceOrdinal_Get) == 184));
static_assert(sizeof(void*) != 8 || (offsetof(XLA_FFI_CallFrame, stage) == 32 &&
                                     offsetof(XLA_FFI_CallFrame, args) == 40 &&
                                     offsetof(XLA_FFI_CallFrame, rets) == 80 &&
                                     offsetof(XLA_FFI_CallFrame, attrs) == 120 &&
                                     offsetof(XLA_FFI_CallFrame, future) == 168 &&
                                     XLA_FFI_CallFrame_STRUCT_SIZE == 168));
static_assert(sizeof(void*) != 8 || (offsetof(XLA_FFI_Buffer, dtype) == 16 &&
                                     offsetof(XLA_FFI_Buffer, data) == 24 &&
                                     offsetof(XLA_FFI_Buffer, dims) == 40 &&
                                     sizeof(XLA_FFI_Array) == 24 && sizeof(XLA_FFI_Scalar) == 16));
static_assert(sizeof(void*) != 8 || (offsetof(XLA_FFI_Handler_Register_Args, bundle) == 48 &&
                                     XLA_FFI_Handler_Register_Args_STRUCT_SIZE == 84));
static_assert(sizeof(void*) != 8 || (offsetof(PJRT_FFI_Register_Handler_Args, handler) == 32 &&
                                     PJRT_FFI_Register_Handler_Args_STRUCT_SIZE == 60 &&
                                     offsetof(PJRT_FFI_Extension, register_handler) == 40 &&
                                     sizeof(PJRT_FFI_UserData_Add_Args) == 48));
static_assert(XLA_FFI_DataType_BF16 == 16 && XLA_FFI_DataType_C64 == 15 &&
              XLA_FFI_DataType_C128 == 18 && XLA_FFI_DataType_F8E8M0FNU == 33 &&
              XLA_FFI_ExecutionStage_EXECUTE == 3 && PJRT_Extension_Type_FFI == 5);

// ----------------------------------------------------------------------------
// Handlers, written as a user of the C API would.

XLA_FFI_Error* MakeError(const XLA_FFI_CallFrame* frame, XLA_FFI_Error_Code code,
                         const char* message) {
  XLA_FFI_Error_Create_Args args{};
  args.struct_size = XLA_FFI_Error_Create_Args_STRUCT_SIZE;
  args.message = message;
  args.errc = code;
  return frame->api->XLA_FFI_Error_Create(&args);
}

// The attribute `name` (binary search: attributes arrive sorted), or null.
const void* FindAttr(const XLA_FFI_Attrs& attrs, std::string_view name, XLA_FFI_AttrType* type) {
  int64_t lo = 0, hi = attrs.size;
  while (lo < hi) {
    const int64_t mid = (lo + hi) / 2;
    const std::string_view at(attrs.names[mid]->ptr, attrs.names[mid]->len);
    if (at == name) {
      *type = attrs.types[mid];
      return attrs.attrs[mid];
    }
    if (at < name) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return nullptr;
}

// out = x * scale + offset over f32 buffers of one shape; `scale` an f32
// scalar, `offset` an i64 scalar.
XLA_FFI_Error* ScaleOffset(XLA_FFI_CallFrame* frame) {
  if (frame->stage != XLA_FFI_ExecutionStage_EXECUTE) {
    return MakeError(frame, XLA_FFI_Error_Code_INTERNAL, "unexpected stage");
  }
  if (frame->args.size != 1 || frame->rets.size != 1 ||
      frame->args.types[0] != XLA_FFI_ArgType_BUFFER ||
      frame->rets.types[0] != XLA_FFI_RetType_BUFFER) {
    return MakeError(frame, XLA_FFI_Error_Code_INVALID_ARGUMENT, "one argument, one result");
  }
  auto* x = static_cast<XLA_FFI_Buffer*>(frame->args.args[0]);
  auto* out = static_cast<XLA_FFI_Buffer*>(frame->rets.rets[0]);
  if (x->dtype != XLA_FFI_DataType_F32 || out->dtype != XLA_FFI_DataType_F32 ||
      x->rank != out->rank) {
    return MakeError(frame, XLA_FFI_Error_Code_INVALID_ARGUMENT, "f32 buffers of one rank");
  }
  int64_t n = 1;
  for (int64_t d = 0; d < x->rank; ++d) n *= x->dims[d];
  XLA_FFI_AttrType type;
  auto* scale = static_cast<const XLA_FFI_Scalar*>(FindAttr(frame->attrs, "scale", &type));
  if (scale == nullptr || type != XLA_FFI_AttrType_SCALAR || scale->dtype != XLA_FFI_DataType_F32) {
    return MakeError(frame, XLA_FFI_Error_Code_INVALID_ARGUMENT, "scale must be an f32 scalar");
  }
  auto* offset = static_cast<const XLA_FFI_Scalar*>(FindAttr(frame->attrs, "offset", &type));
  if (offset == nullptr || type != XLA_FFI_AttrType_SCALAR || offset->dtype != XLA_FFI_DataType_S64) {
    return MakeError(frame, XLA_FFI_Error_Code_INVALID_ARGUMENT, "offset must be an i64 scalar");
  }
  const float s = *static_cast<const float*>(scale->value);
  const int64_t o = *static_cast<const int64_t*>(offset->value);
  if (s < 0) return MakeError(frame, XLA_FFI_Error_Code_OUT_OF_RANGE, "scale is negative");
  const float* in = static_cast<const float*>(x->data);
  float* result = static_cast<float*>(out->data);
  for (int64_t i = 0; i < n; ++i) result[i] = in[i] * s + static_cast<float>(o);
  return nullptr;
}

// What AttrsProbe saw, as text, one line per attribute (nested dictionary
// entries prefixed with the dictionary's name).
std::mutex g_seen_mu;
std::string g_seen;

std::string Describe(const XLA_FFI_Attrs& attrs, const std::string& prefix) {
  std::string text;
  for (int64_t i = 0; i < attrs.size; ++i) {
    const std::string name = prefix + std::string(attrs.names[i]->ptr, attrs.names[i]->len);
    switch (attrs.types[i]) {
      case XLA_FFI_AttrType_SCALAR: {
        auto* scalar = static_cast<const XLA_FFI_Scalar*>(attrs.attrs[i]);
        text += name + " scalar " + std::to_string(scalar->dtype) + " ";
        switch (scalar->dtype) {
          case XLA_FFI_DataType_PRED:
            text += std::to_string(*static_cast<const uint8_t*>(scalar->value));
            break;
          case XLA_FFI_DataType_S32:
            text += std::to_string(*static_cast<const int32_t*>(scalar->value));
            break;
          case XLA_FFI_DataType_U8:
            text += std::to_string(*static_cast<const uint8_t*>(scalar->value));
            break;
          case XLA_FFI_DataType_S64:
            text += std::to_string(*static_cast<const int64_t*>(scalar->value));
            break;
          case XLA_FFI_DataType_F32:
            text += std::to_string(*static_cast<const float*>(scalar->value));
            break;
          case XLA_FFI_DataType_F64:
            text += std::to_string(*static_cast<const double*>(scalar->value));
            break;
          default:
            text += "?";
        }
        break;
      }
      case XLA_FFI_AttrType_STRING: {
        auto* span = static_cast<const XLA_FFI_ByteSpan*>(attrs.attrs[i]);
        text += name + " string " + std::string(span->ptr, span->len);
        break;
      }
      case XLA_FFI_AttrType_ARRAY: {
        auto* array = static_cast<const XLA_FFI_Array*>(attrs.attrs[i]);
        text += name + " array " + std::to_string(array->dtype);
        for (size_t k = 0; k < array->size; ++k) {
          if (array->dtype == XLA_FFI_DataType_S64) {
            text += " " + std::to_string(static_cast<const int64_t*>(array->data)[k]);
          } else if (array->dtype == XLA_FFI_DataType_S32) {
            text += " " + std::to_string(static_cast<const int32_t*>(array->data)[k]);
          } else if (array->dtype == XLA_FFI_DataType_F32) {
            text += " " + std::to_string(static_cast<const float*>(array->data)[k]);
          } else {
            text += " ?";
          }
        }
        break;
      }
      case XLA_FFI_AttrType_DICTIONARY:
        text += name + " dict\n";
        text += Describe(*static_cast<const XLA_FFI_Attrs*>(attrs.attrs[i]), name + ".");
        continue;
    }
    text += "\n";
  }
  return text;
}

XLA_FFI_Error* AttrsProbe(XLA_FFI_CallFrame* frame) {
  std::lock_guard<std::mutex> lock(g_seen_mu);
  g_seen = Describe(frame->attrs, "");
  return nullptr;
}

// Writes [device ordinal, run id != 0, 8-byte aligned scratch worked] as i64
// into its one result, using the context's functions.
XLA_FFI_Error* ContextProbe(XLA_FFI_CallFrame* frame) {
  auto* out = static_cast<XLA_FFI_Buffer*>(frame->rets.rets[0]);
  int64_t* result = static_cast<int64_t*>(out->data);
  XLA_FFI_DeviceOrdinal_Get_Args ordinal{};
  ordinal.struct_size = XLA_FFI_DeviceOrdinal_Get_Args_STRUCT_SIZE;
  ordinal.ctx = frame->ctx;
  if (XLA_FFI_Error* error = frame->api->XLA_FFI_DeviceOrdinal_Get(&ordinal)) return error;
  XLA_FFI_RunId_Get_Args run{};
  run.struct_size = XLA_FFI_RunId_Get_Args_STRUCT_SIZE;
  run.ctx = frame->ctx;
  if (XLA_FFI_Error* error = frame->api->XLA_FFI_RunId_Get(&run)) return error;
  XLA_FFI_DeviceMemory_Allocate_Args allocate{};
  allocate.struct_size = XLA_FFI_DeviceMemory_Allocate_Args_STRUCT_SIZE;
  allocate.ctx = frame->ctx;
  allocate.size = 1024;
  allocate.alignment = 64;
  if (XLA_FFI_Error* error = frame->api->XLA_FFI_DeviceMemory_Allocate(&allocate)) return error;
  std::memset(allocate.data, 7, 1024);
  const bool aligned = reinterpret_cast<uintptr_t>(allocate.data) % 64 == 0;
  XLA_FFI_DeviceMemory_Free_Args release{};
  release.struct_size = XLA_FFI_DeviceMemory_Free_Args_STRUCT_SIZE;
  release.ctx = frame->ctx;
  release.size = 1024;
  release.data = allocate.data;
  if (XLA_FFI_Error* error = frame->api->XLA_FFI_DeviceMemory_Free(&release)) return error;
  // Freeing it twice is an error the handler gets back.
  XLA_FFI_Error* twice = frame->api->XLA_FFI_DeviceMemory_Free(&release);
  const bool refused = twice != nullptr;
  if (twice != nullptr) {
    XLA_FFI_Error_Destroy_Args destroy{};
    destroy.struct_size = XLA_FFI_Error_Destroy_Args_STRUCT_SIZE;
    destroy.error = twice;
    frame->api->XLA_FFI_Error_Destroy(&destroy);
  }
  result[0] = ordinal.device_ordinal;
  result[1] = run.run_id != 0;
  result[2] = aligned && refused;
  return nullptr;
}

// Finishes later: returns a future that another thread completes after
// writing the result (42), or with an error when `fail` is set.
std::vector<std::thread>* g_completers = new std::vector<std::thread>;
std::mutex g_completers_mu;

XLA_FFI_Error* AsyncAnswer(XLA_FFI_CallFrame* frame) {
  XLA_FFI_Future_Create_Args create{};
  create.struct_size = sizeof(create);
  if (XLA_FFI_Error* error = frame->api->XLA_FFI_Future_Create(&create)) return error;
  XLA_FFI_AttrType type;
  auto* fail = static_cast<const XLA_FFI_Scalar*>(FindAttr(frame->attrs, "fail", &type));
  const bool should_fail = fail != nullptr && *static_cast<const uint8_t*>(fail->value) != 0;
  auto* out = static_cast<XLA_FFI_Buffer*>(frame->rets.rets[0]);
  int32_t* result = static_cast<int32_t*>(out->data);
  const XLA_FFI_Api* api = frame->api;
  XLA_FFI_Future* future = create.future;
  frame->future = future;
  std::lock_guard<std::mutex> lock(g_completers_mu);
  g_completers->emplace_back([api, future, result, should_fail] {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (should_fail) {
      XLA_FFI_Error_Create_Args error{};
      error.struct_size = XLA_FFI_Error_Create_Args_STRUCT_SIZE;
      error.message = "the answer was lost";
      error.errc = XLA_FFI_Error_Code_DATA_LOSS;
      XLA_FFI_Future_SetError_Args set{};
      set.struct_size = XLA_FFI_Future_SetError_Args_STRUCT_SIZE;
      set.future = future;
      set.error = api->XLA_FFI_Error_Create(&error);
      api->XLA_FFI_Future_SetError(&set);
    } else {
      *result = 42;
      XLA_FFI_Future_SetAvailable_Args set{};
      set.struct_size = XLA_FFI_Future_SetAvailable_Args_STRUCT_SIZE;
      set.future = future;
      api->XLA_FFI_Future_SetAvailable(&set);
    }
  });
  return nullptr;
}

// A bundle with an instantiate stage: instantiate keeps the attribute
// `base` as the call site's state (counting instantiations); execute adds
// the state to a counter of calls and writes it. Registered through the
// XLA_FFI_Api's own XLA_FFI_Handler_Register (the table a handler gets).
std::atomic<int> g_instantiations{0};
std::atomic<const XLA_FFI_Api*> g_api{nullptr};
XLA_FFI_TypeId g_counter_type{0};

XLA_FFI_Error* CounterInstantiate(XLA_FFI_CallFrame* frame) {
  if (frame->stage != XLA_FFI_ExecutionStage_INSTANTIATE || frame->args.size != 0) {
    return MakeError(frame, XLA_FFI_Error_Code_INTERNAL, "instantiate sees no buffers");
  }
  XLA_FFI_AttrType type;
  auto* base = static_cast<const XLA_FFI_Scalar*>(FindAttr(frame->attrs, "base", &type));
  if (base == nullptr) return MakeError(frame, XLA_FFI_Error_Code_INVALID_ARGUMENT, "needs base");
  XLA_FFI_State_Set_Args set{};
  set.struct_size = XLA_FFI_State_Set_Args_STRUCT_SIZE;
  set.ctx = frame->ctx;
  set.type_id = &g_counter_type;
  set.state = new int64_t(*static_cast<const int64_t*>(base->value));
  set.deleter = [](void* state) { delete static_cast<int64_t*>(state); };
  if (XLA_FFI_Error* error = frame->api->XLA_FFI_State_Set(&set)) {
    set.deleter(set.state);
    return error;
  }
  g_instantiations.fetch_add(1);
  return nullptr;
}

XLA_FFI_Error* CounterExecute(XLA_FFI_CallFrame* frame) {
  XLA_FFI_State_Get_Args get{};
  get.struct_size = XLA_FFI_State_Get_Args_STRUCT_SIZE;
  get.ctx = frame->ctx;
  get.type_id = &g_counter_type;
  if (XLA_FFI_Error* error = frame->api->XLA_FFI_State_Get(&get)) return error;
  int64_t* state = static_cast<int64_t*>(get.state);
  *state += 1;
  *static_cast<int64_t*>(static_cast<XLA_FFI_Buffer*>(frame->rets.rets[0])->data) = *state;
  return nullptr;
}

// Writes the int64 user data of type g_counter_type's sibling
// g_user_type (attached through PJRT_FFI_UserData_Add) into its result.
XLA_FFI_TypeId g_user_type{0};
std::atomic<int> g_user_data_deleted{0};

XLA_FFI_Error* ReadUserData(XLA_FFI_CallFrame* frame) {
  XLA_FFI_ExecutionContext_Get_Args get{};
  get.struct_size = XLA_FFI_ExecutionContext_Get_Args_STRUCT_SIZE;
  get.ctx = frame->ctx;
  get.type_id = &g_user_type;
  if (XLA_FFI_Error* error = frame->api->XLA_FFI_ExecutionContext_Get(&get)) return error;
  *static_cast<int64_t*>(static_cast<XLA_FFI_Buffer*>(frame->rets.rets[0])->data) =
      *static_cast<const int64_t*>(get.data);
  return nullptr;
}

XLA_FFI_Error* CaptureApi(XLA_FFI_CallFrame* frame) {
  g_api.store(frame->api);
  return nullptr;
}

XLA_FFI_Error* Throws(XLA_FFI_CallFrame*) { throw std::runtime_error("handler exploded"); }

XLA_FFI_Error* Other(XLA_FFI_CallFrame*) { return nullptr; }

// ----------------------------------------------------------------------------
// The client side.

const PJRT_FFI_Extension* FindFfiExtension(const PJRT_Api* api) {
  for (const PJRT_Extension_Base* ext = api->extension_start; ext != nullptr; ext = ext->next) {
    if (ext->type == PJRT_Extension_Type_FFI) return reinterpret_cast<const PJRT_FFI_Extension*>(ext);
  }
  return nullptr;
}

// The error's code and message, destroying it (OK for null).
Status TakePjrtError(const PJRT_Api* api, PJRT_Error* error) {
  if (error == nullptr) return OkStatus();
  PJRT_Error_GetCode_Args code{};
  code.struct_size = PJRT_Error_GetCode_Args_STRUCT_SIZE;
  code.error = error;
  api->PJRT_Error_GetCode(&code);
  PJRT_Error_Message_Args message{};
  message.struct_size = PJRT_Error_Message_Args_STRUCT_SIZE;
  message.error = error;
  api->PJRT_Error_Message(&message);
  Status status(static_cast<StatusCode>(code.code), std::string(message.message, message.message_size));
  PJRT_Error_Destroy_Args destroy{};
  destroy.struct_size = PJRT_Error_Destroy_Args_STRUCT_SIZE;
  destroy.error = error;
  api->PJRT_Error_Destroy(&destroy);
  return status;
}

Status Register(const PJRT_Api* api, const std::string& target, XLA_FFI_Handler* handler,
                int api_version = 1, const std::string& platform = "Host") {
  const PJRT_FFI_Extension* ffi = FindFfiExtension(api);
  if (ffi == nullptr) return NotFound("no FFI extension");
  PJRT_FFI_Register_Handler_Args args{};
  args.struct_size = PJRT_FFI_Register_Handler_Args_STRUCT_SIZE;
  args.target_name = target.data();
  args.target_name_size = target.size();
  args.api_version = api_version;
  args.handler = reinterpret_cast<void*>(handler);
  args.platform_name = platform.data();
  args.platform_name_size = platform.size();
  return TakePjrtError(api, ffi->register_handler(&args));
}

// Untyped ("legacy") custom calls with XLA's CPU signatures: shapes are
// fixed by the code, as such functions know them.

// api_version 1: out[f32 x4] = in0 + in1.
void LegacyAdd(void* out, const void** in) {
  const auto* a = static_cast<const float*>(in[0]);
  const auto* b = static_cast<const float*>(in[1]);
  for (int i = 0; i < 4; ++i) static_cast<float*>(out)[i] = a[i] + b[i];
}

// api_version 2, two results (so `out` is an array of two pointers):
// quotient and product of f32 x4 operands; fails on a zero divisor.
void LegacyDivMul(void* out, const void** in, XlaCustomCallStatus* status) {
  const auto* a = static_cast<const float*>(in[0]);
  const auto* b = static_cast<const float*>(in[1]);
  void** results = static_cast<void**>(out);
  for (int i = 0; i < 4; ++i) {
    if (b[i] == 0) {
      static const char kMessage[] = "division by zero at element 12345";
      // The length cuts the message: only its first bytes are kept.
      XlaCustomCallStatusSetFailure(status, kMessage, sizeof("division by zero") - 1);
      return;
    }
    static_cast<float*>(results[0])[i] = a[i] / b[i];
    static_cast<float*>(results[1])[i] = a[i] * b[i];
  }
  XlaCustomCallStatusSetSuccess(status);
}

// api_version 3: out[i32 x3] = in0 * N, N parsed from the opaque string
// "times=N"; anything else fails naming what it got.
void LegacyOpaqueScale(void* out, const void** in, const char* opaque, size_t opaque_len,
                       XlaCustomCallStatus* status) {
  const std::string config(opaque, opaque_len);
  if (config.rfind("times=", 0) != 0) {
    const std::string message = "bad opaque '" + config + "'";
    XlaCustomCallStatusSetFailure(status, message.c_str(), message.size());
    return;
  }
  const int factor = std::stoi(config.substr(6));
  for (int i = 0; i < 3; ++i) {
    static_cast<int32_t*>(out)[i] = static_cast<const int32_t*>(in[0])[i] * factor;
  }
}

Status RegisterUntyped(const PJRT_Api* api, const std::string& target, void* fn) {
  const PJRT_FFI_Extension* ffi = FindFfiExtension(api);
  if (ffi == nullptr) return NotFound("no FFI extension");
  PJRT_FFI_Register_Handler_Args args{};
  args.struct_size = PJRT_FFI_Register_Handler_Args_STRUCT_SIZE;
  args.target_name = target.data();
  args.target_name_size = target.size();
  args.api_version = 0;
  args.handler = fn;
  args.platform_name = "Host";
  args.platform_name_size = 4;
  return TakePjrtError(api, ffi->register_handler(&args));
}

class XlaFfiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, CpuPlugin());
    ClientOptions options;
    options.create_options.push_back({"cpu_device_count", int64_t{2}});
    PLUGRT_ASSERT_OK_AND_ASSIGN(client_, Client::Create(plugin, options));
    api_ = client_->api();
    ASSERT_NE(FindFfiExtension(api_), nullptr);
    PLUGRT_ASSERT_OK(Register(api_, "test.ffi.scale_offset", &ScaleOffset));
    PLUGRT_ASSERT_OK(Register(api_, "test.ffi.attrs", &AttrsProbe));
    PLUGRT_ASSERT_OK(Register(api_, "test.ffi.context", &ContextProbe, 1, "cpu"));
    PLUGRT_ASSERT_OK(Register(api_, "test.ffi.async", &AsyncAnswer));
    PLUGRT_ASSERT_OK(Register(api_, "test.ffi.throws", &Throws));
    PLUGRT_ASSERT_OK(Register(api_, "test.ffi.capture_api", &CaptureApi));
    PLUGRT_ASSERT_OK(Register(api_, "test.ffi.user_data", &ReadUserData));
    PLUGRT_ASSERT_OK(RegisterUntyped(api_, "test.legacy.add", reinterpret_cast<void*>(&LegacyAdd)));
    PLUGRT_ASSERT_OK(
        RegisterUntyped(api_, "test.legacy.div_mul", reinterpret_cast<void*>(&LegacyDivMul)));
    PLUGRT_ASSERT_OK(RegisterUntyped(api_, "test.legacy.opaque_scale",
                                     reinterpret_cast<void*>(&LegacyOpaqueScale)));
  }
  static void TearDownTestSuite() {
    std::lock_guard<std::mutex> lock(g_completers_mu);
    for (std::thread& thread : *g_completers) thread.join();
    g_completers->clear();
  }

  // Runs `program` on device `device` with `inputs` and returns result 0's bytes.
  StatusOr<std::vector<std::byte>> Run(const std::string& program, std::vector<Buffer*> inputs = {},
                                       size_t device = 0) {
    PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable executable, client_->Compile(program));
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, client_->addressable_devices());
    ExecuteOptions options;
    options.execute_device = devices[device];
    PLUGRT_ASSIGN_OR_RETURN(auto results, executable.Execute({inputs}, options));
    return results[0][0].ToHostVector();
  }

  std::unique_ptr<Client> client_;
  const PJRT_Api* api_ = nullptr;
};

template <typename T>
std::vector<T> As(const std::vector<std::byte>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

std::string CallProgram(const std::string& target, const std::string& result_type,
                        const std::string& attributes) {
  return "func.func @main() -> " + result_type + " {\n  %0 = stablehlo.custom_call @" + target +
         "() {api_version = 4 : i32" + attributes + "} : () -> " + result_type +
         "\n  return %0 : " + result_type + "\n}\n";
}

constexpr const char* kScaleOffset = R"(
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.custom_call @test.ffi.scale_offset(%x) {api_version = 4 : i32,
      backend_config = {scale = 2.0 : f32, offset = 1 : i64}}
      : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.add %0, %x : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
})";

TEST_F(XlaFfiTest, RunsATypedHandlerOnBuffersWithAttributes) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client_->addressable_devices());
  Buffer x = Upload<float>(*client_, devices[0], PJRT_Buffer_Type_F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> bytes, Run(kScaleOffset, {&x}));
  // (2x + 1) + x
  EXPECT_EQ(As<float>(bytes), (std::vector<float>{4, 7, 10, 13, 16, 19}));
}

TEST_F(XlaFfiTest, ThePluginObjectRegistersHandlersForItsClients) {
  // plugrt's C++ client registers through the same extension (Plugin::RegisterFfiHandler).
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::shared_ptr<Plugin> plugin, Plugin::FromApi(api_, "cpu"));
  PLUGRT_ASSERT_OK(plugin->RegisterFfiHandler("test.ffi.via_plugin",
                                              reinterpret_cast<void*>(&ScaleOffset)));
  std::string program = kScaleOffset;
  program.replace(program.find("test.ffi.scale_offset"), sizeof("test.ffi.scale_offset") - 1,
                  "test.ffi.via_plugin");
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client_->addressable_devices());
  Buffer x = Upload<float>(*client_, devices[0], PJRT_Buffer_Type_F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> bytes, Run(program, {&x}));
  EXPECT_EQ(As<float>(bytes), (std::vector<float>{4, 7, 10, 13, 16, 19}));
  // Another handler under the taken name is the plugin's error, passed on.
  Status taken =
      plugin->RegisterFfiHandler("test.ffi.via_plugin", reinterpret_cast<void*>(&Other));
  EXPECT_EQ(taken.code(), StatusCode::kAlreadyExists) << taken.ToString();
}

TEST_F(XlaFfiTest, AttributesArriveSortedAndTyped) {
  const std::string program = CallProgram(
      "test.ffi.attrs", "tensor<f32>",
      ", backend_config = {zeta = \"last\", alpha = true, count = 7 : i32, small = 200 : ui8,"
      " big = -5 : i64, ratio = 0.5 : f32, precise = 0.25 : f64, dims = array<i64: 3, 4>,"
      " widths = array<i32: 1, 2>, weights = dense<[1.5, 2.5]> : tensor<2xf32>,"
      " inner = {b = 2 : i64, a = \"x\"}}");
  PLUGRT_ASSERT_OK(Run(program).status());
  std::lock_guard<std::mutex> lock(g_seen_mu);
  EXPECT_EQ(g_seen,
            "alpha scalar 1 1\n"
            "big scalar 5 -5\n"
            "count scalar 4 7\n"
            "dims array 5 3 4\n"
            "inner dict\n"
            "inner.a string x\n"
            "inner.b scalar 5 2\n"
            "precise scalar 12 0.250000\n"
            "ratio scalar 11 0.500000\n"
            "small scalar 6 200\n"
            "weights array 11 1.500000 2.500000\n"
            "widths array 4 1 2\n"
            "zeta string last\n");
}

TEST_F(XlaFfiTest, ContextGivesDeviceRunIdAndMemory) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> on0,
                              Run(CallProgram("test.ffi.context", "tensor<3xi64>", ""), {}, 0));
  EXPECT_EQ(As<int64_t>(on0), (std::vector<int64_t>{0, 1, 1}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> on1,
                              Run(CallProgram("test.ffi.context", "tensor<3xi64>", ""), {}, 1));
  EXPECT_EQ(As<int64_t>(on1), (std::vector<int64_t>{1, 1, 1}));
}

TEST_F(XlaFfiTest, AsynchronousHandlersCompleteThroughFutures) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> answer,
                              Run(CallProgram("test.ffi.async", "tensor<i32>", "")));
  EXPECT_EQ(As<int32_t>(answer), (std::vector<int32_t>{42}));
  StatusOr<std::vector<std::byte>> lost =
      Run(CallProgram("test.ffi.async", "tensor<i32>", ", backend_config = {fail = true}"));
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(lost.status().message().find("the answer was lost"), std::string::npos)
      << lost.status().ToString();
}

TEST_F(XlaFfiTest, HandlerErrorsAndExceptionsFailTheExecution) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client_->addressable_devices());
  Buffer x = Upload<float>(*client_, devices[0], PJRT_Buffer_Type_F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  std::string negative = kScaleOffset;
  negative.replace(negative.find("2.0 : f32"), 3, "-2.0");
  StatusOr<std::vector<std::byte>> failed = Run(negative, {&x});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kOutOfRange);
  for (const char* part : {"test.ffi.scale_offset", "scale is negative"}) {
    EXPECT_NE(failed.status().message().find(part), std::string::npos)
        << part << " missing from " << failed.status().ToString();
  }
  // An attribute of the wrong type: the handler's own check.
  std::string wrong = kScaleOffset;
  wrong.replace(wrong.find("1 : i64"), 7, "1 : i32");
  StatusOr<std::vector<std::byte>> mistyped = Run(wrong, {&x});
  ASSERT_FALSE(mistyped.ok());
  EXPECT_EQ(mistyped.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(mistyped.status().message().find("offset must be an i64 scalar"), std::string::npos);
  StatusOr<std::vector<std::byte>> threw = Run(CallProgram("test.ffi.throws", "tensor<f32>", ""));
  ASSERT_FALSE(threw.ok());
  EXPECT_EQ(threw.status().code(), StatusCode::kInternal);
  EXPECT_NE(threw.status().message().find("handler exploded"), std::string::npos)
      << threw.status().ToString();
  // The client still works.
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> bytes, Run(kScaleOffset, {&x}));
  EXPECT_EQ(As<float>(bytes).size(), 6u);
}

TEST_F(XlaFfiTest, CompileTimeErrorsNameTheTarget) {
  // No handler registered.
  StatusOr<LoadedExecutable> missing =
      client_->Compile(CallProgram("test.ffi.nobody", "tensor<f32>", ""));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kUnimplemented);
  for (const char* part : {"test.ffi.nobody", "PJRT_FFI_Register_Handler"}) {
    EXPECT_NE(missing.status().message().find(part), std::string::npos)
        << part << " missing from " << missing.status().ToString();
  }
  // A typed handler called with an older API version.
  StatusOr<LoadedExecutable> old_version = client_->Compile(
      "func.func @main() -> tensor<f32> {\n  %0 = stablehlo.custom_call @test.ffi.attrs() "
      "{api_version = 2 : i32} : () -> tensor<f32>\n  return %0 : tensor<f32>\n}\n");
  ASSERT_FALSE(old_version.ok());
  EXPECT_NE(old_version.status().message().find("api_version = 4"), std::string::npos)
      << old_version.status().ToString();
  // An attribute XLA FFI cannot carry.
  StatusOr<LoadedExecutable> list =
      client_->Compile(CallProgram("test.ffi.attrs", "tensor<f32>", ", backend_config = {l = [1, \"a\"]}"));
  ASSERT_FALSE(list.ok());
  EXPECT_NE(list.status().message().find("'l'"), std::string::npos) << list.status().ToString();
}

TEST_F(XlaFfiTest, RegistrationErrors) {
  // The same handler again is fine; another one for the name is not.
  PLUGRT_EXPECT_OK(Register(api_, "test.ffi.scale_offset", &ScaleOffset));
  Status taken = Register(api_, "test.ffi.scale_offset", &Other);
  EXPECT_EQ(taken.code(), StatusCode::kAlreadyExists) << taken.ToString();
  EXPECT_NE(taken.message().find("test.ffi.scale_offset"), std::string::npos);
  Status unknown_version = Register(api_, "test.ffi.version2", &Other, 2);
  EXPECT_EQ(unknown_version.code(), StatusCode::kInvalidArgument) << unknown_version.ToString();
  // Untyped functions: the same rules in their own registry.
  PLUGRT_EXPECT_OK(RegisterUntyped(api_, "test.legacy.add", reinterpret_cast<void*>(&LegacyAdd)));
  Status untyped_taken =
      RegisterUntyped(api_, "test.legacy.add", reinterpret_cast<void*>(&LegacyDivMul));
  EXPECT_EQ(untyped_taken.code(), StatusCode::kAlreadyExists) << untyped_taken.ToString();
  EXPECT_EQ(RegisterUntyped(api_, "test.legacy.null", nullptr).code(),
            StatusCode::kInvalidArgument);
  Status null_handler = Register(api_, "test.ffi.null", nullptr);
  EXPECT_EQ(null_handler.code(), StatusCode::kInvalidArgument) << null_handler.ToString();
  // A handler for another platform is kept but never serves the CPU plugin.
  PLUGRT_EXPECT_OK(Register(api_, "test.ffi.gpu_only", &Other, 1, "CUDA"));
  StatusOr<LoadedExecutable> gpu = client_->Compile(CallProgram("test.ffi.gpu_only", "tensor<f32>", ""));
  EXPECT_FALSE(gpu.ok());
  // User data needs a context.
  PJRT_FFI_UserData_Add_Args add{};
  add.struct_size = PJRT_FFI_UserData_Add_Args_STRUCT_SIZE;
  Status user_data = TakePjrtError(api_, FindFfiExtension(api_)->user_data_add(&add));
  EXPECT_EQ(user_data.code(), StatusCode::kInvalidArgument) << user_data.ToString();
}

TEST_F(XlaFfiTest, InstantiateStageKeepsStatePerCallSite) {
  // The XLA_FFI_Api table, as a handler receives it.
  PLUGRT_ASSERT_OK(Run(CallProgram("test.ffi.capture_api", "tensor<f32>", "")).status());
  const XLA_FFI_Api* ffi = g_api.load();
  ASSERT_NE(ffi, nullptr);
  EXPECT_EQ(ffi->api_version.major_version, XLA_FFI_API_MAJOR);
  EXPECT_EQ(ffi->api_version.minor_version, XLA_FFI_API_MINOR);
  XLA_FFI_TypeId_Register_Args type{};
  type.struct_size = XLA_FFI_TypeId_Register_Args_STRUCT_SIZE;
  type.name = XLA_FFI_ByteSpan{"test.Counter", 12};
  type.type_id = &g_counter_type;
  ASSERT_EQ(ffi->XLA_FFI_TypeId_Register(&type), nullptr);
  XLA_FFI_Handler_Register_Args args{};
  args.struct_size = XLA_FFI_Handler_Register_Args_STRUCT_SIZE;
  args.name = XLA_FFI_ByteSpan{"test.ffi.counter", 16};
  args.platform = XLA_FFI_ByteSpan{"Host", 4};
  args.bundle.instantiate = &CounterInstantiate;
  args.bundle.execute = &CounterExecute;
  ASSERT_EQ(ffi->XLA_FFI_Handler_Register(&args), nullptr);

  const int before = g_instantiations.load();
  // Two call sites: each instantiated once when compiled, each with its own
  // state, which every execution of the program then sees.
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      LoadedExecutable executable,
      client_->Compile("func.func @main() -> (tensor<i64>, tensor<i64>) {\n"
                       "  %0 = stablehlo.custom_call @test.ffi.counter() {api_version = 4 : i32,"
                       " backend_config = {base = 100 : i64}} : () -> tensor<i64>\n"
                       "  %1 = stablehlo.custom_call @test.ffi.counter() {api_version = 4 : i32,"
                       " backend_config = {base = 200 : i64}} : () -> tensor<i64>\n"
                       "  return %0, %1 : tensor<i64>, tensor<i64>\n}\n"));
  EXPECT_EQ(g_instantiations.load(), before + 2);
  for (int64_t run = 1; run <= 3; ++run) {
    PLUGRT_ASSERT_OK_AND_ASSIGN(auto results, executable.Execute({{}}));
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> first, results[0][0].ToHostVector());
    PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> second, results[0][1].ToHostVector());
    EXPECT_EQ(As<int64_t>(first), (std::vector<int64_t>{100 + run}));
    EXPECT_EQ(As<int64_t>(second), (std::vector<int64_t>{200 + run}));
  }
  EXPECT_EQ(g_instantiations.load(), before + 2);
  // An instantiate failure fails the compile, naming the target.
  StatusOr<LoadedExecutable> no_base =
      client_->Compile(CallProgram("test.ffi.counter", "tensor<i64>", ""));
  ASSERT_FALSE(no_base.ok());
  EXPECT_NE(no_base.status().message().find("needs base"), std::string::npos)
      << no_base.status().ToString();
  EXPECT_NE(no_base.status().message().find("test.ffi.counter"), std::string::npos);
}

TEST_F(XlaFfiTest, UserDataReachesHandlersThroughTheExecuteContext) {
  const PJRT_FFI_Extension* ffi = FindFfiExtension(api_);
  PJRT_FFI_TypeID_Register_Args type{};
  type.struct_size = PJRT_FFI_TypeID_Register_Args_STRUCT_SIZE;
  type.type_name = "test.UserValue";
  type.type_name_size = 14;
  PLUGRT_ASSERT_OK(TakePjrtError(api_, ffi->type_id_register(&type)));
  g_user_type.type_id = type.type_id;

  PJRT_ExecuteContext_Create_Args create{};
  create.struct_size = PJRT_ExecuteContext_Create_Args_STRUCT_SIZE;
  PLUGRT_ASSERT_OK(TakePjrtError(api_, api_->PJRT_ExecuteContext_Create(&create)));
  PJRT_FFI_UserData_Add_Args add{};
  add.struct_size = PJRT_FFI_UserData_Add_Args_STRUCT_SIZE;
  add.context = create.context;
  add.user_data.type_id = type.type_id;
  add.user_data.data = new int64_t(1234);
  add.user_data.deleter = [](void* data) {
    delete static_cast<int64_t*>(data);
    g_user_data_deleted.fetch_add(1);
  };
  PLUGRT_ASSERT_OK(TakePjrtError(api_, ffi->user_data_add(&add)));
  // A second value of one type is refused (and not taken).
  int64_t other = 5;
  PJRT_FFI_UserData_Add_Args again = add;
  again.user_data.data = &other;
  again.user_data.deleter = nullptr;
  EXPECT_EQ(TakePjrtError(api_, ffi->user_data_add(&again)).code(), StatusCode::kAlreadyExists);

  PLUGRT_ASSERT_OK_AND_ASSIGN(
      LoadedExecutable executable,
      client_->Compile(CallProgram("test.ffi.user_data", "tensor<i64>", "")));
  ExecuteOptions options;
  options.context = create.context;
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto results, executable.Execute({{}}, options));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> bytes, results[0][0].ToHostVector());
  EXPECT_EQ(As<int64_t>(bytes), (std::vector<int64_t>{1234}));
  // Without the context the handler's lookup fails, naming the target.
  StatusOr<std::vector<std::vector<Buffer>>> without = executable.Execute({{}});
  ASSERT_FALSE(without.ok());
  EXPECT_EQ(without.status().code(), StatusCode::kNotFound);
  EXPECT_NE(without.status().message().find("test.ffi.user_data"), std::string::npos)
      << without.status().ToString();

  const int deleted = g_user_data_deleted.load();
  PJRT_ExecuteContext_Destroy_Args destroy{};
  destroy.struct_size = PJRT_ExecuteContext_Destroy_Args_STRUCT_SIZE;
  destroy.context = create.context;
  PLUGRT_ASSERT_OK(TakePjrtError(api_, api_->PJRT_ExecuteContext_Destroy(&destroy)));
  EXPECT_EQ(g_user_data_deleted.load(), deleted + 1);
}

TEST_F(XlaFfiTest, UntypedCustomCallsRunWithXlaCpuConventions) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client_->addressable_devices());
  Buffer a = Upload<float>(*client_, devices[0], PJRT_Buffer_Type_F32, {4}, {1, 2, 3, 4});
  Buffer b = Upload<float>(*client_, devices[0], PJRT_Buffer_Type_F32, {4}, {2, 4, 6, 8});
  // api_version 1, one result: out is the result's buffer.
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      std::vector<std::byte> sum,
      Run("func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {\n"
          "  %0 = stablehlo.custom_call @test.legacy.add(%a, %b) {api_version = 1 : i32}"
          " : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n",
          {&a, &b}));
  EXPECT_EQ(As<float>(sum), (std::vector<float>{3, 6, 9, 12}));
  // api_version 2, two results: out is the array of their buffers.
  const std::string div_mul =
      "func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {\n"
      "  %0:2 = stablehlo.custom_call @test.legacy.div_mul(%a, %b) {api_version = 2 : i32}"
      " : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)\n"
      "  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>\n}\n";
  PLUGRT_ASSERT_OK_AND_ASSIGN(LoadedExecutable executable, client_->Compile(div_mul));
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto results, executable.Execute({{&b, &a}}));
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> quotient, results[0][0].ToHostVector());
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> product, results[0][1].ToHostVector());
  EXPECT_EQ(As<float>(quotient), (std::vector<float>{2, 2, 2, 2}));
  EXPECT_EQ(As<float>(product), (std::vector<float>{2, 8, 18, 32}));
  // api_version 3: the backend_config string arrives as the opaque bytes.
  Buffer ints = Upload<int32_t>(*client_, devices[0], PJRT_Buffer_Type_S32, {3}, {1, -2, 3});
  const std::string scale =
      "func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
      "  %0 = stablehlo.custom_call @test.legacy.opaque_scale(%x) {api_version = 3 : i32,"
      " backend_config = \"times=7\"} : (tensor<3xi32>) -> tensor<3xi32>\n"
      "  return %0 : tensor<3xi32>\n}\n";
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<std::byte> scaled, Run(scale, {&ints}));
  EXPECT_EQ(As<int32_t>(scaled), (std::vector<int32_t>{7, -14, 21}));
}

TEST_F(XlaFfiTest, UntypedCustomCallFailuresFailTheExecution) {
  PLUGRT_ASSERT_OK_AND_ASSIGN(std::vector<Device> devices, client_->addressable_devices());
  Buffer a = Upload<float>(*client_, devices[0], PJRT_Buffer_Type_F32, {4}, {1, 2, 3, 4});
  Buffer zero = Upload<float>(*client_, devices[0], PJRT_Buffer_Type_F32, {4}, {1, 0, 1, 1});
  PLUGRT_ASSERT_OK_AND_ASSIGN(
      LoadedExecutable div_mul,
      client_->Compile(
          "func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {\n"
          "  %0:2 = stablehlo.custom_call @test.legacy.div_mul(%a, %b) {api_version = 2 : i32}"
          " : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)\n"
          "  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>\n}\n"));
  StatusOr<std::vector<std::vector<Buffer>>> failed = div_mul.Execute({{&a, &zero}});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kInternal);
  const std::string message(failed.status().message());
  EXPECT_NE(message.find("test.legacy.div_mul"), std::string::npos) << message;
  EXPECT_NE(message.find("division by zero"), std::string::npos) << message;
  EXPECT_EQ(message.find("12345"), std::string::npos) << "message_len not honoured: " << message;
  // api_version 3's failure carries the handler's own text.
  Buffer ints = Upload<int32_t>(*client_, devices[0], PJRT_Buffer_Type_S32, {3}, {1, 2, 3});
  StatusOr<std::vector<std::byte>> bad_opaque = Run(
      "func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
      "  %0 = stablehlo.custom_call @test.legacy.opaque_scale(%x) {api_version = 3 : i32,"
      " backend_config = \"double\"} : (tensor<3xi32>) -> tensor<3xi32>\n"
      "  return %0 : tensor<3xi32>\n}\n",
      {&ints});
  ASSERT_FALSE(bad_opaque.ok());
  EXPECT_EQ(bad_opaque.status().code(), StatusCode::kInternal);
  EXPECT_NE(bad_opaque.status().message().find("bad opaque 'double'"), std::string::npos)
      << bad_opaque.status().ToString();
  // A typed call to an untyped function fails the compile.
  StatusOr<LoadedExecutable> typed = client_->Compile(
      "func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
      "  %0 = stablehlo.custom_call @test.legacy.opaque_scale(%x) {api_version = 4 : i32}"
      " : (tensor<3xi32>) -> tensor<3xi32>\n  return %0 : tensor<3xi32>\n}\n");
  ASSERT_FALSE(typed.ok());
  EXPECT_EQ(typed.status().code(), StatusCode::kInvalidArgument) << typed.status().ToString();
  EXPECT_NE(typed.status().message().find("untyped"), std::string::npos);
  // The client still works.
  PLUGRT_ASSERT_OK_AND_ASSIGN(auto again, div_mul.Execute({{&a, &a}}));
  EXPECT_EQ(again[0].size(), 2u);
}

TEST_F(XlaFfiTest, TypeIdsAreProcessWide) {
  const PJRT_FFI_Extension* ffi = FindFfiExtension(api_);
  auto register_type = [&](const std::string& name, int64_t id) -> StatusOr<int64_t> {
    PJRT_FFI_TypeID_Register_Args args{};
    args.struct_size = PJRT_FFI_TypeID_Register_Args_STRUCT_SIZE;
    args.type_name = name.data();
    args.type_name_size = name.size();
    args.type_id = id;
    PLUGRT_RETURN_IF_ERROR(TakePjrtError(api_, ffi->type_id_register(&args)));
    return args.type_id;
  };
  PLUGRT_ASSERT_OK_AND_ASSIGN(int64_t first, register_type("test.TypeA", 0));
  EXPECT_NE(first, 0);
  PLUGRT_ASSERT_OK_AND_ASSIGN(int64_t again, register_type("test.TypeA", 0));
  EXPECT_EQ(again, first);
  PLUGRT_ASSERT_OK_AND_ASSIGN(int64_t second, register_type("test.TypeB", 0));
  EXPECT_NE(second, first);
  EXPECT_FALSE(register_type("test.TypeA", second).ok());
}

}  // namespace
}  // namespace plugrt
