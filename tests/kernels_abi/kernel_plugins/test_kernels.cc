// A kernel plugin for tests/kernels_abi/kernel_plugin_test.cc, built as separate shared
// libraries: TEST_KERNELS_KIND 0 is a working plugin; the other kinds are
// broken in one way each (tests/CMakeLists.txt builds every kind).
//
//   0 good      1 wrong major version   2 no init symbol   3 registers
//   test.scale_add (which the good plugin has)   4 init returns an error
//   5 registers a built-in target   6 init throws   7 registers a target
//   with both a kernel handler and an XLA FFI handler
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <thread>
#include <string>

#include "plugrt/kernel_c_api.h"
#include "plugrt/xla_ffi_c_api.h"

#ifndef TEST_KERNELS_KIND
#define TEST_KERNELS_KIND 0
#endif

namespace {

std::atomic<int64_t> g_created{0};
std::atomic<int64_t> g_deleted{0};

struct Counter {
  std::atomic<int64_t> value{0};
};

// out[f32] = scale * x + y (+ offset when given): attributes read typed.
void ScaleAdd(PLUGRT_KernelContext* ctx, void*) {
  const PLUGRT_KernelApi* api = ctx->api;
  PLUGRT_KERNEL_REQUIRES(ctx, api->Context_NumInputs(ctx) == 2 && api->Context_NumOutputs(ctx) == 1,
                         PLUGRT_KernelCode_INVALID_ARGUMENT, "scale_add takes 2 inputs, 1 output");
  const PLUGRT_KernelInput* x = api->Context_Input(ctx, 0);
  const PLUGRT_KernelInput* y = api->Context_Input(ctx, 1);
  const PLUGRT_KernelOutput* out = api->Context_Output(ctx, 0);
  PLUGRT_KERNEL_REQUIRES(ctx, x->type == PLUGRT_KernelType_F32 && y->type == PLUGRT_KernelType_F32,
                         PLUGRT_KernelCode_INVALID_ARGUMENT, "scale_add takes f32");
  double scale = 0;
  PLUGRT_KERNEL_REQUIRES_OK(ctx, api->Context_GetFloat(ctx, "scale", &scale));
  int64_t offset = 0;
  if (api->Context_FindAttr(ctx, "offset") != nullptr) {
    PLUGRT_KERNEL_REQUIRES_OK(ctx, api->Context_GetInt(ctx, "offset", &offset));
  }
  const size_t n = out->size_in_bytes / sizeof(float);
  const float* a = static_cast<const float*>(x->data);
  const float* b = static_cast<const float*>(y->data);
  float* o = static_cast<float*>(out->data);
  for (size_t i = 0; i < n; ++i) o[i] = static_cast<float>(scale * a[i] + b[i] + offset);
}

// out[f64 x 10] summarizes the attributes: i, f, b, str length, sum of ints,
// sum of floats, sum of the dense f32 literal, the nested dict's field "k",
// the number of attributes, the backend_config string's length.
void Attrs(PLUGRT_KernelContext* ctx, void*) {
  const PLUGRT_KernelApi* api = ctx->api;
  double* o = static_cast<double*>(api->Context_Output(ctx, 0)->data);
  int64_t i = 0;
  double f = 0;
  int b = 0;
  const char* s = nullptr;
  size_t s_size = 0;
  PLUGRT_KERNEL_REQUIRES_OK(ctx, api->Context_GetInt(ctx, "i", &i));
  PLUGRT_KERNEL_REQUIRES_OK(ctx, api->Context_GetFloat(ctx, "f", &f));
  PLUGRT_KERNEL_REQUIRES_OK(ctx, api->Context_GetBool(ctx, "b", &b));
  PLUGRT_KERNEL_REQUIRES_OK(ctx, api->Context_GetString(ctx, "s", &s, &s_size));
  o[0] = static_cast<double>(i);
  o[1] = f;
  o[2] = b;
  o[3] = static_cast<double>(s_size) + (std::strlen(s) == s_size ? 0 : 1000);
  const PLUGRT_KernelAttr* ints = api->Context_FindAttr(ctx, "ints");
  PLUGRT_KERNEL_REQUIRES(ctx, ints && ints->kind == PLUGRT_KernelAttr_INT_ARRAY,
                         PLUGRT_KernelCode_INVALID_ARGUMENT, "ints");
  for (size_t k = 0; k < ints->count; ++k) o[4] += static_cast<double>(ints->ints[k]);
  const PLUGRT_KernelAttr* floats = api->Context_FindAttr(ctx, "floats");
  PLUGRT_KERNEL_REQUIRES(ctx, floats && floats->kind == PLUGRT_KernelAttr_FLOAT_ARRAY,
                         PLUGRT_KernelCode_INVALID_ARGUMENT, "floats");
  for (size_t k = 0; k < floats->count; ++k) o[5] += floats->floats[k];
  const PLUGRT_KernelAttr* dense = api->Context_FindAttr(ctx, "dense");
  PLUGRT_KERNEL_REQUIRES(ctx, dense && dense->kind == PLUGRT_KernelAttr_DENSE &&
                                  dense->dense_type == PLUGRT_KernelType_F32,
                         PLUGRT_KernelCode_INVALID_ARGUMENT, "dense");
  const float* values = static_cast<const float*>(dense->dense_data);
  for (size_t k = 0; k < dense->dense_size_in_bytes / sizeof(float); ++k) o[6] += values[k];
  const PLUGRT_KernelAttr* dict = api->Context_FindAttr(ctx, "dict");
  PLUGRT_KERNEL_REQUIRES(ctx, dict && dict->kind == PLUGRT_KernelAttr_DICT,
                         PLUGRT_KernelCode_INVALID_ARGUMENT, "dict");
  for (size_t k = 0; k < dict->num_elements; ++k) {
    if (std::string(dict->elements[k].name) == "k") o[7] = static_cast<double>(dict->elements[k].i);
  }
  o[8] = static_cast<double>(api->Context_NumAttrs(ctx));
  size_t config_size = 0;
  api->Context_BackendConfig(ctx, &config_size);
  o[9] = static_cast<double>(config_size);
}

// Copies the backend_config string into its u8 output.
void Config(PLUGRT_KernelContext* ctx, void*) {
  const PLUGRT_KernelApi* api = ctx->api;
  size_t size = 0;
  const char* config = api->Context_BackendConfig(ctx, &size);
  const PLUGRT_KernelOutput* out = api->Context_Output(ctx, 0);
  PLUGRT_KERNEL_REQUIRES(ctx, out->size_in_bytes == size, PLUGRT_KernelCode_INVALID_ARGUMENT,
                         "config: output size differs from backend_config");
  std::memcpy(out->data, config, size);
}

void Fail(PLUGRT_KernelContext* ctx, void*) {
  PLUGRT_KERNEL_REQUIRES_OK(
      ctx, ctx->api->Status_New(PLUGRT_KernelCode_FAILED_PRECONDITION, "the input is not ready"));
  std::abort();  // unreachable: the macro returned
}

void Throw(PLUGRT_KernelContext*, void*) { throw std::runtime_error("kernel exploded"); }

void* CreateCounter(void*, PLUGRT_Status**) {
  g_created.fetch_add(1);
  return new Counter;
}
void DeleteCounter(void* counter) {
  g_deleted.fetch_add(1);
  delete static_cast<Counter*>(counter);
}

// out[s64] = how often this client's counter was bumped, this call included.
void Count(PLUGRT_KernelContext* ctx, void*) {
  void* resource = nullptr;
  PLUGRT_KERNEL_REQUIRES_OK(ctx, ctx->api->Context_LookupOrCreateResource(
                                     ctx, "counters", "c", &CreateCounter, nullptr,
                                     &DeleteCounter, &resource));
  const int64_t value = static_cast<Counter*>(resource)->value.fetch_add(1) + 1;
  std::memcpy(ctx->api->Context_Output(ctx, 0)->data, &value, sizeof(value));
}

void Drop(PLUGRT_KernelContext* ctx, void*) {
  PLUGRT_KERNEL_REQUIRES_OK(ctx, ctx->api->Context_DeleteResource(ctx, "counters", "c"));
}

void* FailCreate(void* arg, PLUGRT_Status** status) {
  *status = static_cast<const PLUGRT_KernelApi*>(arg)->Status_New(PLUGRT_KernelCode_UNAVAILABLE,
                                                                  "no backing store");
  return nullptr;
}
void BadResource(PLUGRT_KernelContext* ctx, void*) {
  void* resource = nullptr;
  PLUGRT_KERNEL_REQUIRES_OK(ctx, ctx->api->Context_LookupOrCreateResource(
                                     ctx, "counters", "never", &FailCreate,
                                     const_cast<PLUGRT_KernelApi*>(ctx->api), nullptr, &resource));
}

// out[s64 x 4] = device ordinal, replica, partition, kind == "cpu".
void DeviceInfo(PLUGRT_KernelContext* ctx, void*) {
  PLUGRT_KernelDevice device;
  device.struct_size = sizeof(device);
  ctx->api->Context_Device(ctx, &device);
  int64_t* o = static_cast<int64_t*>(ctx->api->Context_Output(ctx, 0)->data);
  o[0] = device.ordinal;
  o[1] = device.replica_id;
  o[2] = device.partition_id;
  o[3] = std::string(device.kind) == "cpu";
}

// out[s64] = sum of 0..n-1 computed in 256-byte-aligned scratch memory, or
// -1 when the memory was misaligned.
void Temp(PLUGRT_KernelContext* ctx, void*) {
  constexpr size_t kCount = 1 << 16;
  void* memory = nullptr;
  PLUGRT_KERNEL_REQUIRES_OK(
      ctx, ctx->api->Context_AllocateTemp(ctx, kCount * sizeof(int64_t), 256, &memory));
  int64_t* values = static_cast<int64_t*>(memory);
  int64_t sum = 0;
  for (size_t i = 0; i < kCount; ++i) values[i] = static_cast<int64_t>(i);
  for (size_t i = 0; i < kCount; ++i) sum += values[i];
  if (reinterpret_cast<uintptr_t>(memory) % 256 != 0) sum = -1;
  std::memcpy(ctx->api->Context_Output(ctx, 0)->data, &sum, sizeof(sum));
}

PLUGRT_Status* Register(const PLUGRT_KernelApi* api, PLUGRT_KernelRegistrar* registrar,
                        const char* target, PLUGRT_KernelHandler handler,
                        int32_t major = PLUGRT_KERNEL_API_MAJOR) {
  PLUGRT_KernelRegistration registration;
  std::memset(&registration, 0, sizeof(registration));
  registration.struct_size = PLUGRT_KERNEL_REGISTRATION_STRUCT_SIZE;
  registration.api_major = major;
  registration.api_minor = PLUGRT_KERNEL_API_MINOR;
  registration.platform = "cpu";
  registration.target = target;
  registration.handler = handler;
  return api->Register(registrar, &registration);
}

// An XLA FFI handler registered through the kernel ABI (kernel API 1.1):
// out[f32] = -x, failing with INVALID_ARGUMENT on other types.
XLA_FFI_Error* FfiNegate(XLA_FFI_CallFrame* frame) {
  auto* x = static_cast<XLA_FFI_Buffer*>(frame->args.args[0]);
  auto* out = static_cast<XLA_FFI_Buffer*>(frame->rets.rets[0]);
  if (frame->args.size != 1 || frame->rets.size != 1 || x->dtype != XLA_FFI_DataType_F32) {
    XLA_FFI_Error_Create_Args error{};
    error.struct_size = XLA_FFI_Error_Create_Args_STRUCT_SIZE;
    error.message = "ffi_negate takes one f32 buffer";
    error.errc = XLA_FFI_Error_Code_INVALID_ARGUMENT;
    return frame->api->XLA_FFI_Error_Create(&error);
  }
  int64_t n = 1;
  for (int64_t d = 0; d < x->rank; ++d) n *= x->dims[d];
  for (int64_t i = 0; i < n; ++i) {
    static_cast<float*>(out->data)[i] = -static_cast<const float*>(x->data)[i];
  }
  return nullptr;
}

// out[u64] = a hash of the thread the handler runs on, for the test to
// compare with its own (registered with and without INLINE_SAFE).
void ThreadId(PLUGRT_KernelContext* ctx, void*) {
  const uint64_t id = std::hash<std::thread::id>()(std::this_thread::get_id());
  std::memcpy(ctx->api->Context_Output(ctx, 0)->data, &id, sizeof(id));
}

// An untyped XLA custom call registered through the kernel ABI (kernel API
// 1.2), api_version 1: out[f32 x3] = in0 * 10 (shapes fixed by the code, as
// untyped custom calls know them).
void LegacyTimesTen(void* out, const void** in) {
  for (int i = 0; i < 3; ++i) {
    static_cast<float*>(out)[i] = static_cast<const float*>(in[0])[i] * 10;
  }
}

}  // namespace

extern "C" PLUGRT_KERNEL_EXPORT void plugrt_test_kernel_counts(int64_t* created,
                                                               int64_t* deleted) {
  *created = g_created.load();
  *deleted = g_deleted.load();
}

#if TEST_KERNELS_KIND == 2
extern "C" PLUGRT_KERNEL_EXPORT PLUGRT_Status* PLUGRT_KernelPlugin_Init_Misspelled(
    const PLUGRT_KernelApi*, PLUGRT_KernelRegistrar*) {
  return nullptr;
}
#else
extern "C" PLUGRT_KERNEL_EXPORT PLUGRT_Status* PLUGRT_KernelPlugin_Init(
    const PLUGRT_KernelApi* api, PLUGRT_KernelRegistrar* registrar) {
#if TEST_KERNELS_KIND == 0
  const struct {
    const char* target;
    PLUGRT_KernelHandler handler;
  } kHandlers[] = {
      {"test.scale_add", &ScaleAdd}, {"test.attrs", &Attrs},   {"test.config", &Config},
      {"test.fail", &Fail},          {"test.throw", &Throw},   {"test.count", &Count},
      {"test.drop", &Drop},          {"test.bad_resource", &BadResource},
      {"test.device", &DeviceInfo},  {"test.temp", &Temp},
  };
  for (const auto& entry : kHandlers) {
    if (PLUGRT_Status* status = Register(api, registrar, entry.target, entry.handler)) {
      return status;
    }
  }
  PLUGRT_KernelRegistration ffi;
  std::memset(&ffi, 0, sizeof(ffi));
  ffi.struct_size = PLUGRT_KERNEL_REGISTRATION_STRUCT_SIZE;
  ffi.api_major = PLUGRT_KERNEL_API_MAJOR;
  ffi.api_minor = PLUGRT_KERNEL_API_MINOR;
  ffi.platform = "cpu";
  ffi.target = "test.ffi_negate";
  ffi.xla_ffi_handler = reinterpret_cast<void*>(&FfiNegate);
  if (PLUGRT_Status* status = api->Register(registrar, &ffi)) return status;
  PLUGRT_KernelRegistration legacy = ffi;
  legacy.target = "test.legacy_times_ten";
  legacy.xla_ffi_handler = nullptr;
  legacy.xla_custom_call = reinterpret_cast<void*>(&LegacyTimesTen);
  legacy.flags = PLUGRT_KernelFlag_INLINE_SAFE;
  if (PLUGRT_Status* status = api->Register(registrar, &legacy)) return status;
  PLUGRT_KernelRegistration thread_id = legacy;
  thread_id.xla_custom_call = nullptr;
  thread_id.handler = &ThreadId;
  thread_id.target = "test.thread_id_inline";
  if (PLUGRT_Status* status = api->Register(registrar, &thread_id)) return status;
  thread_id.target = "test.thread_id";
  thread_id.flags = 0;
  if (PLUGRT_Status* status = api->Register(registrar, &thread_id)) return status;
  // As a plugin built against kernel API 1.0 registers: a smaller struct
  // (garbage past its end must not be read).
  PLUGRT_KernelRegistration old;
  std::memset(&old, 0xAB, sizeof(old));
  old.struct_size = PLUGRT_KERNEL_STRUCT_SIZE(PLUGRT_KernelRegistration, user_data);
  old.api_major = PLUGRT_KERNEL_API_MAJOR;
  old.api_minor = 0;
  old.platform = "cpu";
  old.target = "test.scale_add_v1_0";
  old.handler = &ScaleAdd;
  old.user_data = nullptr;
  if (PLUGRT_Status* status = api->Register(registrar, &old)) return status;
  // A handler for another platform: ignored by CPU clients.
  PLUGRT_KernelRegistration other;
  std::memset(&other, 0, sizeof(other));
  other.struct_size = PLUGRT_KERNEL_REGISTRATION_STRUCT_SIZE;
  other.api_major = PLUGRT_KERNEL_API_MAJOR;
  other.api_minor = PLUGRT_KERNEL_API_MINOR;
  other.platform = "tpu";
  other.target = "test.scale_add";
  other.handler = &ScaleAdd;
  return api->Register(registrar, &other);
#elif TEST_KERNELS_KIND == 1
  return Register(api, registrar, "test.v2", &ScaleAdd, PLUGRT_KERNEL_API_MAJOR + 1);
#elif TEST_KERNELS_KIND == 3
  return Register(api, registrar, "test.scale_add", &ScaleAdd);
#elif TEST_KERNELS_KIND == 4
  (void)registrar;
  return api->Status_New(PLUGRT_KernelCode_UNAVAILABLE, "license server unreachable");
#elif TEST_KERNELS_KIND == 5
  return Register(api, registrar, "plugrt.math.erf", &ScaleAdd);
#elif TEST_KERNELS_KIND == 6
  (void)api, (void)registrar;
  throw std::runtime_error("init exploded");
#elif TEST_KERNELS_KIND == 7
  PLUGRT_KernelRegistration both;
  std::memset(&both, 0, sizeof(both));
  both.struct_size = PLUGRT_KERNEL_REGISTRATION_STRUCT_SIZE;
  both.api_major = PLUGRT_KERNEL_API_MAJOR;
  both.api_minor = PLUGRT_KERNEL_API_MINOR;
  both.platform = "cpu";
  both.target = "test.both";
  both.handler = &ScaleAdd;
  both.xla_ffi_handler = reinterpret_cast<void*>(&FfiNegate);
  return api->Register(registrar, &both);
#endif
}
#endif
