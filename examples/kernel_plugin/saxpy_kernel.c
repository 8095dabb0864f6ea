/* plugrt example: a kernel plugin in C. It serves the custom call
 * "example.saxpy" (out = alpha * x + y over f32, alpha an attribute) and
 * counts its calls in a resource the client keeps. The same computation is
 * registered three more ways, which the dispatch benchmarks of bench/
 * compare: "example.saxpy_inline" (the same handler marked
 * PLUGRT_KernelFlag_INLINE_SAFE), "example.saxpy_ffi" (an XLA FFI handler,
 * api_version = 4) and "example.saxpy_untyped" (an untyped XLA custom call,
 * api_version 1), both also inline-safe.
 *
 * Build it as a shared library against include/plugrt/kernel_c_api.h (it
 * links nothing of plugrt) and load it with
 *   plugrt run --kernels libplugrt_example_kernels.so examples/kernel_plugin/saxpy.mlir ...
 * or the kernel_plugins create option (run_kernel_plugin.cc does that). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "plugrt/kernel_c_api.h"
#include "plugrt/xla_ffi_c_api.h"

typedef struct CallCount {
  atomic_long calls;
} CallCount;

static void* NewCallCount(void* arg, PLUGRT_Status** status) {
  (void)arg, (void)status;
  CallCount* count = malloc(sizeof(CallCount));
  if (count != NULL) atomic_init(&count->calls, 0);
  return count;
}

static void DeleteCallCount(void* count) { free(count); }

static void Saxpy(PLUGRT_KernelContext* ctx, void* user_data) {
  (void)user_data;
  const PLUGRT_KernelApi* api = ctx->api;
  PLUGRT_KERNEL_REQUIRES(ctx, api->Context_NumInputs(ctx) == 2 && api->Context_NumOutputs(ctx) == 1,
                         PLUGRT_KernelCode_INVALID_ARGUMENT,
                         "example.saxpy takes two inputs and has one output");
  const PLUGRT_KernelInput* x = api->Context_Input(ctx, 0);
  const PLUGRT_KernelInput* y = api->Context_Input(ctx, 1);
  const PLUGRT_KernelOutput* out = api->Context_Output(ctx, 0);
  PLUGRT_KERNEL_REQUIRES(ctx,
                         x->type == PLUGRT_KernelType_F32 && y->type == PLUGRT_KernelType_F32 &&
                             out->type == PLUGRT_KernelType_F32 &&
                             x->size_in_bytes == out->size_in_bytes &&
                             y->size_in_bytes == out->size_in_bytes,
                         PLUGRT_KernelCode_INVALID_ARGUMENT,
                         "example.saxpy needs f32 inputs and output of one shape");
  double alpha = 0;
  PLUGRT_KERNEL_REQUIRES_OK(ctx, api->Context_GetFloat(ctx, "alpha", &alpha));

  CallCount* count = NULL;
  PLUGRT_KERNEL_REQUIRES_OK(ctx, api->Context_LookupOrCreateResource(
                                     ctx, "example", "saxpy_calls", &NewCallCount, NULL,
                                     &DeleteCallCount, (void**)&count));
  atomic_fetch_add(&count->calls, 1);

  const float* xs = x->data;
  const float* ys = y->data;
  float* os = out->data;
  const size_t n = out->size_in_bytes / sizeof(float);
  for (size_t i = 0; i < n; ++i) os[i] = (float)alpha * xs[i] + ys[i];
}

static XLA_FFI_Error* FfiError(const XLA_FFI_CallFrame* frame, const char* message) {
  XLA_FFI_Error_Create_Args args;
  memset(&args, 0, sizeof(args));
  args.struct_size = XLA_FFI_Error_Create_Args_STRUCT_SIZE;
  args.message = message;
  args.errc = XLA_FFI_Error_Code_INVALID_ARGUMENT;
  return frame->api->XLA_FFI_Error_Create(&args);
}

/* saxpy as an XLA FFI handler: two f32 buffers, one f32 result, the f32
 * attribute "alpha" (attributes arrive sorted by name). */
static XLA_FFI_Error* SaxpyFfi(XLA_FFI_CallFrame* frame) {
  if (frame->args.size != 2 || frame->rets.size != 1) {
    return FfiError(frame, "example.saxpy_ffi takes two buffers and returns one");
  }
  const XLA_FFI_Buffer* x = frame->args.args[0];
  const XLA_FFI_Buffer* y = frame->args.args[1];
  const XLA_FFI_Buffer* out = frame->rets.rets[0];
  const XLA_FFI_Scalar* alpha = NULL;
  for (int64_t i = 0; i < frame->attrs.size; ++i) {
    const XLA_FFI_ByteSpan* name = frame->attrs.names[i];
    if (name->len == 5 && memcmp(name->ptr, "alpha", 5) == 0 &&
        frame->attrs.types[i] == XLA_FFI_AttrType_SCALAR) {
      alpha = frame->attrs.attrs[i];
    }
  }
  if (alpha == NULL || alpha->dtype != XLA_FFI_DataType_F32) {
    return FfiError(frame, "example.saxpy_ffi needs an f32 attribute 'alpha'");
  }
  if (x->dtype != XLA_FFI_DataType_F32 || y->dtype != XLA_FFI_DataType_F32 ||
      out->dtype != XLA_FFI_DataType_F32) {
    return FfiError(frame, "example.saxpy_ffi works on f32");
  }
  size_t n = 1;
  for (int64_t d = 0; d < out->rank; ++d) n *= (size_t)out->dims[d];
  const float a = *(const float*)alpha->value;
  const float* xs = x->data;
  const float* ys = y->data;
  float* os = out->data;
  for (size_t i = 0; i < n; ++i) os[i] = a * xs[i] + ys[i];
  return NULL;
}

/* saxpy as an untyped XLA custom call (api_version 1): bare pointers, so the
 * shapes and alpha are the function's own: f32[4], alpha = 3. */
static void SaxpyUntyped(void* out, const void** in) {
  const float* xs = in[0];
  const float* ys = in[1];
  float* os = out;
  for (int i = 0; i < 4; ++i) os[i] = 3.0f * xs[i] + ys[i];
}

PLUGRT_KERNEL_EXPORT PLUGRT_Status* PLUGRT_KernelPlugin_Init(const PLUGRT_KernelApi* api,
                                                             PLUGRT_KernelRegistrar* registrar) {
  PLUGRT_KernelRegistration registration;
  memset(&registration, 0, sizeof(registration));
  registration.struct_size = PLUGRT_KERNEL_REGISTRATION_STRUCT_SIZE;
  registration.api_major = PLUGRT_KERNEL_API_MAJOR;
  registration.api_minor = PLUGRT_KERNEL_API_MINOR;
  registration.platform = "cpu";
  registration.target = "example.saxpy";
  registration.handler = &Saxpy;
  PLUGRT_Status* status = api->Register(registrar, &registration);
  if (status != NULL) return status;

  /* The same handler, promising not to block: small programs calling it run
   * on the caller's thread. */
  registration.target = "example.saxpy_inline";
  registration.flags = PLUGRT_KernelFlag_INLINE_SAFE;
  status = api->Register(registrar, &registration);
  if (status != NULL) return status;

  registration.handler = NULL;
  registration.target = "example.saxpy_ffi";
  /* The ABI holds these functions as void* (as dlsym returns them); ISO C
   * has no cast between function and object pointers, POSIX makes memcpy
   * between them well defined. */
  XLA_FFI_Handler* ffi = &SaxpyFfi;
  memcpy(&registration.xla_ffi_handler, &ffi, sizeof(void*));
  status = api->Register(registrar, &registration);
  if (status != NULL) return status;

  registration.xla_ffi_handler = NULL;
  registration.target = "example.saxpy_untyped";
  void (*untyped)(void*, const void**) = &SaxpyUntyped;
  memcpy(&registration.xla_custom_call, &untyped, sizeof(void*));
  return api->Register(registrar, &registration);
}
