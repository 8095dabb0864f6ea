/* The XLA FFI headers (include/plugrt/xla_ffi_c_api.h,
 * include/plugrt/pjrt_ffi_extension.h, include/plugrt/xla_custom_call_status.h)
 * compile as strict ISO C11, as a C handler needs them to, and their struct sizes agree with C++'s (checked
 * against the same upstream facts as tests/kernels_abi/xla_ffi_test.cc). */
#include <stddef.h>
#include <stdio.h>

#include "plugrt/pjrt_ffi_extension.h"
#include "plugrt/xla_custom_call_status.h"
#include "plugrt/xla_ffi_c_api.h"

/* A handler in C: copies its first argument's first f32 to its result. */
static XLA_FFI_Error* Copy(XLA_FFI_CallFrame* frame) {
  const XLA_FFI_Buffer* in = (const XLA_FFI_Buffer*)frame->args.args[0];
  XLA_FFI_Buffer* out = (XLA_FFI_Buffer*)frame->rets.rets[0];
  *(float*)out->data = *(const float*)in->data;
  return NULL;
}

/* An untyped custom call in C with api_version 3's signature (the status
 * header compiles as C11 too): out = in[0] * the opaque string's length. */
static void Untyped(void* out, const void** in, const char* opaque, size_t opaque_len,
                    XlaCustomCallStatus* status) {
  (void)opaque, (void)status;
  *(float*)out = *(const float*)in[0] * (float)opaque_len;
}

int main(void) {
  int failures = 0;
  {
    float x = 1.5f, y = 0;
    const void* in[1] = {&x};
    Untyped(&y, in, "ab", 2, NULL);
    failures += y != 3.0f;
  }
  if (sizeof(void*) == 8) {
    failures += sizeof(XLA_FFI_Api) != 192;
    failures += offsetof(XLA_FFI_CallFrame, future) != 168;
    failures += XLA_FFI_CallFrame_STRUCT_SIZE != 168;
    failures += PJRT_FFI_Register_Handler_Args_STRUCT_SIZE != 60;
    failures += sizeof(PJRT_FFI_Extension) != 48;
  }
  {
    float x = 2.5f, y = 0;
    int64_t dims[1] = {1};
    XLA_FFI_Buffer in = {XLA_FFI_Buffer_STRUCT_SIZE, NULL, XLA_FFI_DataType_F32, &x, 1, dims};
    XLA_FFI_Buffer out = {XLA_FFI_Buffer_STRUCT_SIZE, NULL, XLA_FFI_DataType_F32, &y, 1, dims};
    void* args[1] = {&in};
    void* rets[1] = {&out};
    XLA_FFI_CallFrame frame = {0};
    XLA_FFI_Handler* handler = &Copy;
    frame.args.args = args;
    frame.rets.rets = rets;
    failures += handler(&frame) != NULL || y != 2.5f;
  }
  if (failures != 0) fprintf(stderr, "%d checks failed\n", failures);
  return failures == 0 ? 0 : 1;
}
