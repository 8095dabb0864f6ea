/* plugrt kernel plugin ABI: custom kernels for stablehlo.custom_call, loaded
 * from shared libraries at client creation.
 *
 * A kernel plugin is a shared library that exports one function,
 * PLUGRT_KernelPlugin_Init (PLUGRT_KERNEL_PLUGIN_INIT_SYMBOL). The runtime
 * calls it once for each client that loads the library, with the runtime's
 * function table (PLUGRT_KernelApi) and a registrar; the plugin registers one
 * handler per custom-call target name and platform. When a program calls
 * `stablehlo.custom_call @target`, the handler registered for that target on
 * the client's platform runs with a kernel context: the call's inputs and
 * outputs as typed buffers, its attributes, the device, scratch memory and
 * resources that outlive the call. A call to a target nobody registered fails
 * when the program is compiled.
 *
 * The plugin links against nothing of plugrt: every runtime function is a slot
 * of the table, reached through the context (ctx->api) or the table given to
 * the init function. Usable from C (C11) and C++.
 *
 * Versions. PLUGRT_KERNEL_API_MAJOR changes when a layout or meaning changes
 * incompatibly; PLUGRT_KERNEL_API_MINOR when slots or fields are added at the
 * end of a struct. Each registration carries the version the plugin was built
 * against; the runtime refuses a registration whose major differs from its own
 * or whose minor is newer (the plugin could use slots this runtime lacks), with
 * an error naming both versions. Every struct begins with struct_size so either
 * side can tell which fields the other has.
 *
 * Errors. Runtime functions that can fail return a PLUGRT_Status* (NULL on
 * success) that the caller owns: delete it with api->Status_Delete, or hand it
 * to the context with api->Context_Fail (PLUGRT_KERNEL_REQUIRES_OK does). A
 * handler reports failure through its context; the execution then fails with
 * the handler's code and message, naming the target and the plugin's path.
 * C++ exceptions must not leave a handler; the runtime catches any that do
 * and fails the execution with the exception's message, but a plugin should
 * not rely on that (a plugin built with another C++ runtime cannot be caught).
 *
 * Concurrency. Handlers may run concurrently: on several devices of one
 * execution, and for several executions at once. The runtime's functions are
 * thread-safe. What the runtime guarantees about resources is stated at
 * Context_LookupOrCreateResource.
 */
#ifndef PLUGRT_KERNEL_C_API_H_
#define PLUGRT_KERNEL_C_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLUGRT_KERNEL_API_MAJOR 1
#define PLUGRT_KERNEL_API_MINOR 2

/* The init function every kernel plugin exports, by this name. */
#define PLUGRT_KERNEL_PLUGIN_INIT_SYMBOL "PLUGRT_KernelPlugin_Init"

#if defined(_WIN32)
#define PLUGRT_KERNEL_EXPORT __declspec(dllexport)
#else
#define PLUGRT_KERNEL_EXPORT __attribute__((visibility("default")))
#endif

/* The size of a struct up to and including `last_field`, for struct_size. */
#define PLUGRT_KERNEL_STRUCT_SIZE(type, last_field) \
  (offsetof(type, last_field) + sizeof(((type*)0)->last_field))

/* Status codes: the same numbers as PJRT_Error_Code (and absl's codes). */
typedef enum PLUGRT_KernelCode {
  PLUGRT_KernelCode_OK = 0,
  PLUGRT_KernelCode_CANCELLED = 1,
  PLUGRT_KernelCode_UNKNOWN = 2,
  PLUGRT_KernelCode_INVALID_ARGUMENT = 3,
  PLUGRT_KernelCode_DEADLINE_EXCEEDED = 4,
  PLUGRT_KernelCode_NOT_FOUND = 5,
  PLUGRT_KernelCode_ALREADY_EXISTS = 6,
  PLUGRT_KernelCode_PERMISSION_DENIED = 7,
  PLUGRT_KernelCode_RESOURCE_EXHAUSTED = 8,
  PLUGRT_KernelCode_FAILED_PRECONDITION = 9,
  PLUGRT_KernelCode_ABORTED = 10,
  PLUGRT_KernelCode_OUT_OF_RANGE = 11,
  PLUGRT_KernelCode_UNIMPLEMENTED = 12,
  PLUGRT_KernelCode_INTERNAL = 13,
  PLUGRT_KernelCode_UNAVAILABLE = 14,
  PLUGRT_KernelCode_DATA_LOSS = 15,
  PLUGRT_KernelCode_UNAUTHENTICATED = 16,
} PLUGRT_KernelCode;

/* Element types: the same numbers as PJRT_Buffer_Type (pjrt_c_api.h), so a
 * plugin that also speaks PJRT needs no table. Only the common ones are named
 * here; the others arrive with their PJRT numbers. In memory, each element
 * takes its natural size, except PRED (one byte, 0 or 1) and the sub-byte
 * integers S2/S4/U2/U4 (one byte per element, not packed). */
typedef enum PLUGRT_KernelType {
  PLUGRT_KernelType_INVALID = 0,
  PLUGRT_KernelType_PRED = 1,
  PLUGRT_KernelType_S8 = 2,
  PLUGRT_KernelType_S16 = 3,
  PLUGRT_KernelType_S32 = 4,
  PLUGRT_KernelType_S64 = 5,
  PLUGRT_KernelType_U8 = 6,
  PLUGRT_KernelType_U16 = 7,
  PLUGRT_KernelType_U32 = 8,
  PLUGRT_KernelType_U64 = 9,
  PLUGRT_KernelType_F16 = 10,
  PLUGRT_KernelType_F32 = 11,
  PLUGRT_KernelType_F64 = 12,
  PLUGRT_KernelType_BF16 = 13,
  PLUGRT_KernelType_C64 = 14,
  PLUGRT_KernelType_C128 = 15,
} PLUGRT_KernelType;

/* Opaque to the plugin. */
typedef struct PLUGRT_Status PLUGRT_Status;
typedef struct PLUGRT_KernelRegistrar PLUGRT_KernelRegistrar;
typedef struct PLUGRT_KernelApi PLUGRT_KernelApi;

/* The context of one call. Only these two fields are public; the runtime's
 * object continues past them. Valid during the handler's call only. */
typedef struct PLUGRT_KernelContext {
  size_t struct_size;
  const PLUGRT_KernelApi* api;  /* the runtime's functions */
} PLUGRT_KernelContext;

/* One operand of the call: read it, never write it (it may be another op's
 * value or the caller's buffer). Row-major, dense. */
typedef struct PLUGRT_KernelInput {
  size_t struct_size;
  PLUGRT_KernelType type;
  size_t rank;
  const int64_t* dims;  /* rank entries */
  const void* data;     /* NULL only when the buffer has no elements */
  size_t size_in_bytes;
} PLUGRT_KernelInput;

/* One result of the call: the handler writes every element. It arrives
 * zero-filled. Row-major, dense. */
typedef struct PLUGRT_KernelOutput {
  size_t struct_size;
  PLUGRT_KernelType type;
  size_t rank;
  const int64_t* dims;
  void* data;  /* NULL only when the buffer has no elements */
  size_t size_in_bytes;
} PLUGRT_KernelOutput;

/* Attribute kinds. What a program writes becomes:
 *   true/false, unit attributes             BOOL (i = 0 or 1)
 *   42 : i32, any integer                   INT (i)
 *   1.5 : f32, any float                    FLOAT (f)
 *   "text", enum values (#stablehlo<...>),
 *   symbol references (@f), types           STRING (str: the text, the enum's
 *                                           value, the symbol's name, the type)
 *   array<i64: 1, 2>, [1, 2] of integers    INT_ARRAY (ints, count)
 *   array<f32: ...>, [1.0, ...] of floats   FLOAT_ARRAY (floats, count)
 *   any other [a, b, ...]                   ARRAY (elements, num_elements)
 *   dense<...> : tensor<...>                DENSE (dense_*; splats expanded)
 *   {a = 1, ...}, #dialect.struct<...>      DICT (elements with names) */
typedef enum PLUGRT_KernelAttrKind {
  PLUGRT_KernelAttr_BOOL = 1,
  PLUGRT_KernelAttr_INT = 2,
  PLUGRT_KernelAttr_FLOAT = 3,
  PLUGRT_KernelAttr_STRING = 4,
  PLUGRT_KernelAttr_INT_ARRAY = 5,
  PLUGRT_KernelAttr_FLOAT_ARRAY = 6,
  PLUGRT_KernelAttr_ARRAY = 7,
  PLUGRT_KernelAttr_DENSE = 8,
  PLUGRT_KernelAttr_DICT = 9,
} PLUGRT_KernelAttrKind;

/* One attribute. Strings are NUL-terminated as well as sized. Built once when
 * the program is compiled; the same storage serves every call. */
typedef struct PLUGRT_KernelAttr {
  size_t struct_size;
  const char* name;  /* "" for array elements */
  size_t name_size;
  PLUGRT_KernelAttrKind kind;
  int64_t i;        /* BOOL, INT */
  double f;         /* FLOAT */
  const char* str;  /* STRING */
  size_t str_size;
  const int64_t* ints;  /* INT_ARRAY */
  const double* floats; /* FLOAT_ARRAY */
  size_t count;         /* INT_ARRAY, FLOAT_ARRAY */
  const struct PLUGRT_KernelAttr* elements; /* ARRAY, DICT */
  size_t num_elements;
  PLUGRT_KernelType dense_type; /* DENSE: elements as in buffers */
  size_t dense_rank;
  const int64_t* dense_dims;
  const void* dense_data;
  size_t dense_size_in_bytes;
} PLUGRT_KernelAttr;

/* The device a call runs on. */
typedef struct PLUGRT_KernelDevice {
  size_t struct_size;
  int64_t ordinal;     /* the device's id in its client */
  const char* kind;    /* "cpu" */
  const char* platform; /* the platform the handler was registered for */
  int64_t replica_id;
  int64_t partition_id;
} PLUGRT_KernelDevice;

/* A handler: computes the call's outputs from its inputs. Reports failure
 * with api->Context_Fail (or the REQUIRES macros below). */
typedef void (*PLUGRT_KernelHandler)(PLUGRT_KernelContext* ctx, void* user_data);

/* Registration flags (kernel API 1.2), or-ed into PLUGRT_KernelRegistration's
 * flags. */
typedef enum PLUGRT_KernelFlags {
  /* The handler returns promptly and never waits for other work: no locks
   * held across slow work, no host transfers, no waiting on another
   * execution. An execution whose only host-waiting ops are calls to such
   * handlers may then run on the caller's thread (when it is small enough)
   * instead of being handed to a worker thread, which saves the hop (about
   * 10-15 microseconds). A handler that blocks anyway blocks its caller's
   * Execute. */
  PLUGRT_KernelFlag_INLINE_SAFE = 1u << 0,
} PLUGRT_KernelFlags;

typedef struct PLUGRT_KernelRegistration {
  size_t struct_size;
  int32_t api_major;  /* PLUGRT_KERNEL_API_MAJOR the plugin was built with */
  int32_t api_minor;  /* PLUGRT_KERNEL_API_MINOR the plugin was built with */
  const char* platform; /* "cpu"; a client ignores handlers of other platforms */
  const char* target;   /* the custom call's call_target_name */
  PLUGRT_KernelHandler handler;
  void* user_data; /* passed to each call; the plugin owns it */
  /* Kernel API 1.1: an XLA FFI handler (an XLA_FFI_Handler*, see
   * plugrt/xla_ffi_c_api.h) to serve the target instead of `handler` (which
   * is then NULL; user_data is unused). Calls to the target must use
   * `api_version = 4`, and the handler runs as one registered through PJRT's
   * FFI extension does, but only for the clients that load this plugin. */
  void* xla_ffi_handler;
  /* Kernel API 1.2: an untyped ("legacy") XLA custom-call function to serve
   * the target instead of `handler` (which is then NULL, as is
   * xla_ffi_handler; user_data is unused). Calls to the target use
   * `api_version` 1, 2 or 3, which gives the function's C signature
   * (plugrt/xla_custom_call_status.h), for the clients that load this
   * plugin only. */
  void* xla_custom_call;
  /* Kernel API 1.2: PLUGRT_KernelFlags bits; 0 for none. */
  uint32_t flags;
} PLUGRT_KernelRegistration;

#define PLUGRT_KERNEL_REGISTRATION_STRUCT_SIZE \
  PLUGRT_KERNEL_STRUCT_SIZE(PLUGRT_KernelRegistration, flags)

/* Resources: a create function returns the new resource, or NULL after
 * setting *status (the runtime then owns *status). */
typedef void* (*PLUGRT_KernelResourceCreate)(void* arg, PLUGRT_Status** status);
typedef void (*PLUGRT_KernelResourceDelete)(void* resource);

struct PLUGRT_KernelApi {
  size_t struct_size;
  int32_t major;  /* the runtime's PLUGRT_KERNEL_API_MAJOR */
  int32_t minor;  /* the runtime's PLUGRT_KERNEL_API_MINOR */

  /* --- status --- */
  /* A new status with `code` and a copy of `message` (NULL: empty). */
  PLUGRT_Status* (*Status_New)(PLUGRT_KernelCode code, const char* message);
  void (*Status_Delete)(PLUGRT_Status* status);
  PLUGRT_KernelCode (*Status_Code)(const PLUGRT_Status* status);
  const char* (*Status_Message)(const PLUGRT_Status* status);

  /* --- registration (during PLUGRT_KernelPlugin_Init only) --- */
  /* ALREADY_EXISTS when the target is taken on that platform (by another
   * plugin of the client, or built into the runtime); FAILED_PRECONDITION
   * for an incompatible version; INVALID_ARGUMENT for missing fields. */
  PLUGRT_Status* (*Register)(PLUGRT_KernelRegistrar* registrar,
                             const PLUGRT_KernelRegistration* registration);

  /* --- the call --- */
  /* The custom call's target name. */
  const char* (*Context_Target)(const PLUGRT_KernelContext* ctx);
  size_t (*Context_NumInputs)(const PLUGRT_KernelContext* ctx);
  /* NULL when i is out of range. */
  const PLUGRT_KernelInput* (*Context_Input)(const PLUGRT_KernelContext* ctx, size_t i);
  size_t (*Context_NumOutputs)(const PLUGRT_KernelContext* ctx);
  const PLUGRT_KernelOutput* (*Context_Output)(const PLUGRT_KernelContext* ctx, size_t i);
  /* backend_config when the program gives it as a string ("" otherwise). */
  const char* (*Context_BackendConfig)(const PLUGRT_KernelContext* ctx, size_t* size);
  /* The call's dictionary of typed attributes: the fields of backend_config
   * when it is a dictionary (api_version = 4) and of mhlo.backend_config. */
  size_t (*Context_NumAttrs)(const PLUGRT_KernelContext* ctx);
  const PLUGRT_KernelAttr* (*Context_Attr)(const PLUGRT_KernelContext* ctx, size_t i);
  /* NULL when the call has no attribute `name`. */
  const PLUGRT_KernelAttr* (*Context_FindAttr)(const PLUGRT_KernelContext* ctx,
                                               const char* name);
  /* Typed reads: NOT_FOUND when absent, INVALID_ARGUMENT when of another
   * kind; both messages name the attribute and the target. GetInt accepts
   * INT and BOOL, GetFloat FLOAT and INT, GetBool BOOL and INT. */
  PLUGRT_Status* (*Context_GetInt)(const PLUGRT_KernelContext* ctx, const char* name,
                                   int64_t* value);
  PLUGRT_Status* (*Context_GetFloat)(const PLUGRT_KernelContext* ctx, const char* name,
                                     double* value);
  PLUGRT_Status* (*Context_GetBool)(const PLUGRT_KernelContext* ctx, const char* name,
                                    int* value);
  PLUGRT_Status* (*Context_GetString)(const PLUGRT_KernelContext* ctx, const char* name,
                                      const char** value, size_t* size);
  /* Fills *device (set device->struct_size first). */
  void (*Context_Device)(const PLUGRT_KernelContext* ctx, PLUGRT_KernelDevice* device);
  /* Scratch memory of `size` bytes aligned to `alignment` (a power of two; 0
   * means 64), released when the handler returns. RESOURCE_EXHAUSTED when
   * it cannot be had. */
  PLUGRT_Status* (*Context_AllocateTemp)(PLUGRT_KernelContext* ctx, size_t size,
                                         size_t alignment, void** data);
  /* Marks the call failed with `status` and takes it (NULL is ignored). The
   * first failure wins; the handler should return soon after. */
  void (*Context_Fail)(PLUGRT_KernelContext* ctx, PLUGRT_Status* status);

  /* --- resources, held by the client --- */
  /* The resource (container, name) of this client, created by
   * create(create_arg, ...) if it does not exist yet. Guarantees:
   *  - create runs at most once per (container, name) while the resource
   *    lives, even when handlers race: the others wait and get its result;
   *  - *resource stays valid until this handler returns, even if another
   *    handler deletes the resource meanwhile;
   *  - delete_fn runs exactly once per created resource: after an explicit
   *    Context_DeleteResource and the return of every handler holding it, or
   *    when the client is destroyed;
   *  - the runtime never synchronizes the resource itself: handlers that
   *    share it and mutate it lock it themselves.
   * A failed create (NULL result) stores nothing and returns its status.
   * delete_fn may be NULL (the plugin frees nothing). */
  PLUGRT_Status* (*Context_LookupOrCreateResource)(PLUGRT_KernelContext* ctx,
                                                   const char* container, const char* name,
                                                   PLUGRT_KernelResourceCreate create,
                                                   void* create_arg,
                                                   PLUGRT_KernelResourceDelete delete_fn,
                                                   void** resource);
  /* Removes (container, name) from the client (NOT_FOUND when absent); its
   * delete function runs once no handler holds it. */
  PLUGRT_Status* (*Context_DeleteResource)(PLUGRT_KernelContext* ctx, const char* container,
                                           const char* name);
};

#define PLUGRT_KERNEL_API_STRUCT_SIZE \
  PLUGRT_KERNEL_STRUCT_SIZE(PLUGRT_KernelApi, Context_DeleteResource)

/* The function a kernel plugin exports as PLUGRT_KERNEL_PLUGIN_INIT_SYMBOL:
 * registers its handlers with api->Register(registrar, ...). A non-NULL
 * result (or a failed registration) makes loading the plugin fail with that
 * message; the runtime deletes the returned status. */
typedef PLUGRT_Status* (*PLUGRT_KernelPluginInitFn)(const PLUGRT_KernelApi* api,
                                                    PLUGRT_KernelRegistrar* registrar);

/* PLUGRT_KERNEL_REQUIRES_OK(ctx, status) in a handler (or any function
 * returning void; PLUGRT_KERNEL_REQUIRES_OK(ctx, status, value) in one
 * returning `value`): when `status` is not NULL, hands it to the context and
 * returns. Written so that ISO C (-pedantic) accepts the two-argument form. */
#define PLUGRT_KERNEL_REQUIRES_OK(...) PLUGRT_KERNEL_REQUIRES_OK_IMPL_(__VA_ARGS__, , )
#define PLUGRT_KERNEL_REQUIRES_OK_IMPL_(ctx, status, result, ...) \
  do {                                                            \
    PLUGRT_Status* plugrt_kernel_status_ = (status);              \
    if (plugrt_kernel_status_ != NULL) {                          \
      (ctx)->api->Context_Fail((ctx), plugrt_kernel_status_);     \
      return result;                                              \
    }                                                             \
  } while (0)

/* PLUGRT_KERNEL_REQUIRES(ctx, condition, code, message[, value]): when
 * `condition` is false, fails the call with `code` and `message` and
 * returns (`value`). */
#define PLUGRT_KERNEL_REQUIRES(...) PLUGRT_KERNEL_REQUIRES_IMPL_(__VA_ARGS__, , )
#define PLUGRT_KERNEL_REQUIRES_IMPL_(ctx, condition, code, message, result, ...)  \
  do {                                                                           \
    if (!(condition)) {                                                          \
      (ctx)->api->Context_Fail((ctx), (ctx)->api->Status_New((code), (message))); \
      return result;                                                             \
    }                                                                            \
  } while (0)

#ifdef __cplusplus
}
#endif

#endif /* PLUGRT_KERNEL_C_API_H_ */
