/* plugrt example: a kernel plugin in C. It serves the custom call
 * "example.saxpy" (out = alpha * x + y over f32, alpha an attribute) and
 * counts its calls in a resource the client keeps.
 *
 * Build it as a shared library against include/plugrt/kernel_c_api.h (it
 * links nothing of plugrt) and load it with
 *   plugrt run --kernels libplugrt_example_kernels.so examples/kernel_plugin/saxpy.mlir ...
 * or the kernel_plugins create option (run_kernel_plugin.cc does that). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "plugrt/kernel_c_api.h"

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
  return api->Register(registrar, &registration);
}
