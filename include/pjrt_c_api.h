/*
 * plugrt: PJRT C API, layout-compatible with upstream minor version 0.94.
 *
 * This header is written for plugrt. It declares the plain-C ABI through
 * which a framework talks to a PJRT plugin: opaque handles, one argument
 * struct per entry point, and the PJRT_Api table of function pointers that a
 * plugin hands out from GetPjrtApi(). Names, field order, types and enum
 * values follow upstream 0.94 exactly, so binaries built against either
 * header interoperate; the prose here is plugrt's own.
 *
 * Conventions used throughout:
 *  - Every argument struct starts with `struct_size` (set by the caller to
 *    NAME_STRUCT_SIZE) and `extension_start` (an optional extension chain).
 *    An implementation can compare `struct_size` against its own constant to
 *    learn which trailing fields an older caller knows about.
 *  - Fields marked "out" are written by the callee; everything else is input.
 *  - Entry points return NULL on success or a PJRT_Error* that the caller
 *    owns and must release with PJRT_Error_Destroy.
 *  - Unless stated otherwise, strings are (pointer, size) pairs and are not
 *    NUL-terminated.
 */

#ifndef PLUGRT_PJRT_C_API_H_
#define PLUGRT_PJRT_C_API_H_

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes from the start of `struct_type` up to and including `last_field`.
 * This is what a struct's NAME_STRUCT_SIZE constant holds; it deliberately
 * excludes tail padding so that appending a field changes the value. */
#define PJRT_STRUCT_SIZE(struct_type, last_field) \
  (offsetof(struct_type, last_field) +            \
   sizeof(((struct_type*)0)->last_field))

/* Compile-time guard that `last_field` really is the final member: the full
 * sizeof must equal PJRT_STRUCT_SIZE rounded up to the struct's alignment.
 * Expands to a declaration; the use site supplies the semicolon. */
#ifdef __cplusplus
#define PJRT_CHECK_STRUCT_SIZE(sname, last_field)                      \
  static_assert(sizeof(struct sname) ==                                \
                    ((PJRT_STRUCT_SIZE(sname, last_field) +            \
                      alignof(sname) - 1) /                            \
                     alignof(sname)) *                                 \
                        alignof(sname),                                \
                "PJRT_DEFINE_STRUCT_TRAITS: " #last_field              \
                " is not the last field of " #sname)
#else
#define PJRT_CHECK_STRUCT_SIZE(sname, last_field)                      \
  _Static_assert(sizeof(struct sname) ==                               \
                     ((PJRT_STRUCT_SIZE(sname, last_field) +           \
                       _Alignof(struct sname) - 1) /                   \
                      _Alignof(struct sname)) *                        \
                         _Alignof(struct sname),                       \
                 "PJRT_DEFINE_STRUCT_TRAITS: " #last_field             \
                 " is not the last field of " #sname)
#endif

/* Declares the typedef `sname`, the constant `sname##_STRUCT_SIZE`, and the
 * last-field check for a struct. Keep `last_field` in sync whenever a member
 * is appended. */
#define PJRT_DEFINE_STRUCT_TRAITS(sname, last_field)                  \
  typedef struct sname sname;                                         \
  enum { sname##_STRUCT_SIZE = PJRT_STRUCT_SIZE(sname, last_field) }; \
  PJRT_CHECK_STRUCT_SIZE(sname, last_field)

#ifdef __cplusplus
extern "C" {
#endif

/* ============================== Extensions ============================== */

/* Identifies the kind of an entry in an extension chain. Values are part of
 * the ABI; new kinds are only ever appended. */
typedef enum {
  PJRT_Extension_Type_Gpu_Custom_Call = 0,
  PJRT_Extension_Type_Profiler,
  PJRT_Extension_Type_Custom_Partitioner,
  PJRT_Extension_Type_Stream,
  PJRT_Extension_Type_Layouts,
  PJRT_Extension_Type_FFI,
  PJRT_Extension_Type_MemoryDescriptions,
  PJRT_Extension_Type_Triton,
  PJRT_Extension_Type_RawBuffer,     /* experimental */
  PJRT_Extension_Type_PhaseCompile,  /* experimental */
  PJRT_Extension_Type_Example,
  PJRT_Extension_Type_Unknown,
  PJRT_Extension_Type_CrossHostTransfers,
  PJRT_Extension_Type_ExecutableMetadata,
  PJRT_Extension_Type_Callback,
  PJRT_Extension_Type_HostAllocator, /* experimental */
  PJRT_Extension_Type_TpuTopology,
  PJRT_Extension_Type_TpuExecutable,
  PJRT_Extension_Type_Megascale,
  PJRT_Extension_Type_Shardings,
  PJRT_Extension_Type_AbiVersion,
  PJRT_Extension_Type_Collectives,
} PJRT_Extension_Type;

/* Common header of every extension struct. Extensions form a singly linked
 * list through `next`; a reader walks it and picks entries by `type`,
 * skipping kinds it does not know. */
typedef struct PJRT_Extension_Base {
  size_t struct_size;
  PJRT_Extension_Type type;
  struct PJRT_Extension_Base* next;
} PJRT_Extension_Base;
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Extension_Base, next);

/* =============================== Version ================================ */

/* Bumped for ABI-breaking changes (removed or retyped fields or slots,
 * reordering). */
#define PJRT_API_MAJOR 0

/* Bumped for compatible additions (new trailing fields or slots, renames).
 * Callers compare it with PJRT_Api.pjrt_api_version to know which slots
 * exist; plugins use `struct_size` to know which fields a caller filled. */
#define PJRT_API_MINOR 94

/* Version of the header a plugin was built with; the plugin fills both
 * numbers from PJRT_API_MAJOR / PJRT_API_MINOR. */
struct PJRT_Api_Version {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  int major_version;  /* out */
  int minor_version;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Api_Version, minor_version);

/* ================================ Errors ================================ */

/* Opaque error object. Allocated by the plugin, always freed by the caller
 * with PJRT_Error_Destroy. A NULL PJRT_Error* means success. */
typedef struct PJRT_Error PJRT_Error;

struct PJRT_Error_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Error* error;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Error_Destroy_Args, error);

/* Releases `error`; NULL is accepted and ignored. */
typedef void PJRT_Error_Destroy(PJRT_Error_Destroy_Args* args);

struct PJRT_Error_Message_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_Error* error;
  const char* message;  /* out; valid while `error` lives */
  size_t message_size;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Error_Message_Args, message_size);

/* Returns the human-readable text of `error` (borrowed from the error). */
typedef void PJRT_Error_Message(PJRT_Error_Message_Args* args);

/* Status codes; numerically identical to absl::StatusCode. */
typedef enum {
  PJRT_Error_Code_OK = 0,
  PJRT_Error_Code_CANCELLED = 1,
  PJRT_Error_Code_UNKNOWN = 2,
  PJRT_Error_Code_INVALID_ARGUMENT = 3,
  PJRT_Error_Code_DEADLINE_EXCEEDED = 4,
  PJRT_Error_Code_NOT_FOUND = 5,
  PJRT_Error_Code_ALREADY_EXISTS = 6,
  PJRT_Error_Code_PERMISSION_DENIED = 7,
  PJRT_Error_Code_RESOURCE_EXHAUSTED = 8,
  PJRT_Error_Code_FAILED_PRECONDITION = 9,
  PJRT_Error_Code_ABORTED = 10,
  PJRT_Error_Code_OUT_OF_RANGE = 11,
  PJRT_Error_Code_UNIMPLEMENTED = 12,
  PJRT_Error_Code_INTERNAL = 13,
  PJRT_Error_Code_UNAVAILABLE = 14,
  PJRT_Error_Code_DATA_LOSS = 15,
  PJRT_Error_Code_UNAUTHENTICATED = 16
} PJRT_Error_Code;

struct PJRT_Error_GetCode_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_Error* error;
  PJRT_Error_Code code;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Error_GetCode_Args, code);

/* Returns the status code carried by `error`. */
typedef PJRT_Error* PJRT_Error_GetCode(PJRT_Error_GetCode_Args* args);

/* Error factory that the plugin passes into caller-supplied callbacks, so a
 * callback can report failure as a PJRT_Error* the plugin understands. The
 * factory copies `message`; it only has to stay valid during the call. */
typedef PJRT_Error* (*PJRT_CallbackError)(PJRT_Error_Code code,
                                          const char* message,
                                          size_t message_size);

/* ============================= Named values ============================= */

/* Which member of PJRT_NamedValue's union is active. */
typedef enum {
  PJRT_NamedValue_kString = 0,
  PJRT_NamedValue_kInt64,
  PJRT_NamedValue_kInt64List,
  PJRT_NamedValue_kFloat,
  PJRT_NamedValue_kBool,
} PJRT_NamedValue_Type;

/* A typed key/value pair used for options and attributes. Ownership of
 * `name` and of string/array payloads depends on the API that uses it (see
 * each call). */
struct PJRT_NamedValue {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* name;
  size_t name_size;
  PJRT_NamedValue_Type type;
  union {
    const char* string_value;
    int64_t int64_value;
    const int64_t* int64_array_value;
    float float_value;
    bool bool_value;
  };
  /* Element count for strings and lists; 1 for scalars. */
  size_t value_size;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_NamedValue, value_size);

/* ================================ Plugin ================================ */

struct PJRT_Plugin_Initialize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Plugin_Initialize_Args, extension_start);

/* Called once, before anything else, to let the plugin set itself up. */
typedef PJRT_Error* PJRT_Plugin_Initialize(PJRT_Plugin_Initialize_Args* args);

struct PJRT_Plugin_Attributes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_NamedValue* attributes;  /* out; lives for the process */
  size_t num_attributes;              /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Plugin_Attributes_Args, num_attributes);

/* Lists static plugin facts such as "xla_version",
 * "stablehlo_current_version" and "stablehlo_minimum_version". */
typedef PJRT_Error* PJRT_Plugin_Attributes(PJRT_Plugin_Attributes_Args* args);

/* ================================ Events ================================ */

/* A one-shot completion signal for asynchronous work, resolving to either
 * success or an error. Whoever receives a PJRT_Event owns it and must free
 * it with PJRT_Event_Destroy. */
typedef struct PJRT_Event PJRT_Event;

struct PJRT_Event_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Event_Destroy_Args, event);

/* Frees `event`; NULL is accepted. */
typedef PJRT_Error* PJRT_Event_Destroy(PJRT_Event_Destroy_Args* args);

struct PJRT_Event_IsReady_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
  bool is_ready;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Event_IsReady_Args, is_ready);

/* Non-blocking poll: true once the event has resolved (success or error). */
typedef PJRT_Error* PJRT_Event_IsReady(PJRT_Event_IsReady_Args* args);

struct PJRT_Event_Error_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Event_Error_Args, event);

/* Only valid on a ready event. Returns the event's outcome as a fresh
 * PJRT_Error* (NULL for success); every returned error is a separate object
 * that the caller must destroy. */
typedef PJRT_Error* PJRT_Event_Error(PJRT_Event_Error_Args* args);

struct PJRT_Event_Await_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Event_Await_Args, event);

/* Blocks until `event` resolves and returns its outcome (caller-owned). */
typedef PJRT_Error* PJRT_Event_Await(PJRT_Event_Await_Args* args);

/* Completion callback. Receives ownership of `error` (NULL on success) and
 * must destroy it; `user_arg` stays owned by whoever registered it. */
typedef void (*PJRT_Event_OnReadyCallback)(PJRT_Error* error, void* user_arg);

struct PJRT_Event_OnReady_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;
  PJRT_Event_OnReadyCallback callback;
  void* user_arg;  /* handed back to `callback` unchanged */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Event_OnReady_Args, user_arg);

/* Arranges for `callback` to run once `event` resolves (possibly
 * immediately, possibly on another thread). */
typedef PJRT_Error* PJRT_Event_OnReady(PJRT_Event_OnReady_Args* args);

struct PJRT_Event_Create_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;  /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Event_Create_Args, event);

/* Creates an unresolved event that the caller later resolves with
 * PJRT_Event_Set. */
typedef PJRT_Error* PJRT_Event_Create(PJRT_Event_Create_Args* args);

struct PJRT_Event_Set_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Event* event;           /* must come from PJRT_Event_Create */
  PJRT_Error_Code error_code;  /* PJRT_Error_Code_OK for success */
  const char* error_message;   /* copied; may be freed after the call */
  size_t error_message_size;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Event_Set_Args, error_message_size);

/* Resolves a caller-created event with the given status. */
typedef PJRT_Error* PJRT_Event_Set(PJRT_Event_Set_Args* args);

/* ================================ Client ================================ */

/* Opaque handles. Devices, memories and descriptions are owned by their
 * client or topology and are never freed individually. */
typedef struct PJRT_Client PJRT_Client;
typedef struct PJRT_Device PJRT_Device;
typedef struct PJRT_Memory PJRT_Memory;
typedef struct PJRT_ShapeSpec PJRT_ShapeSpec;
typedef struct PJRT_DeviceDescription PJRT_DeviceDescription;
typedef struct PJRT_TopologyDescription PJRT_TopologyDescription;
typedef struct PJRT_Executable PJRT_Executable;
typedef struct PJRT_LoadedExecutable PJRT_LoadedExecutable;
typedef struct PJRT_Buffer PJRT_Buffer;
typedef struct PJRT_FulfillAliasBufferCallback PJRT_FulfillAliasBufferCallback;
typedef struct PJRT_AsyncHostToDeviceTransferManager
    PJRT_AsyncHostToDeviceTransferManager;
typedef struct PJRT_PhaseCompiler PJRT_PhaseCompiler;

/* --- Optional key-value store supplied by the caller of Client_Create ---
 * Multi-process clients use it to exchange bootstrap data. The callbacks
 * must be thread-safe; the caller is responsible for keeping keys of
 * different users (e.g. different plugins) apart. */

/* Frees a value returned from a get callback. */
typedef void (*PJRT_KeyValueGetCallback_ValueDeleter)(char* value);

struct PJRT_KeyValueGetCallback_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* key;
  size_t key_size;
  int timeout_in_ms;
  PJRT_CallbackError* callback_error;
  void* user_arg;
  char* value;        /* out */
  size_t value_size;  /* out */
  /* out: the plugin copies `value`, then passes it to this deleter. */
  PJRT_KeyValueGetCallback_ValueDeleter value_deleter_callback;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_KeyValueGetCallback_Args,
                          value_deleter_callback);

/* Blocking lookup: waits up to `timeout_in_ms` for `key` to appear. */
typedef PJRT_Error* (*PJRT_KeyValueGetCallback)(
    PJRT_KeyValueGetCallback_Args* args);

/* Frees a value returned from a try-get callback. */
typedef void (*PJRT_KeyValueTryGetCallback_ValueDeleter)(char* value);

struct PJRT_KeyValueTryGetCallback_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* key;
  size_t key_size;
  PJRT_CallbackError* callback_error;
  void* user_arg;
  char* value;        /* out */
  size_t value_size;  /* out */
  /* out: the plugin copies `value`, then passes it to this deleter. */
  PJRT_KeyValueTryGetCallback_ValueDeleter value_deleter_callback;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_KeyValueTryGetCallback_Args,
                          value_deleter_callback);

/* Non-blocking lookup: fails with NOT_FOUND at once if `key` is absent. */
typedef PJRT_Error* (*PJRT_KeyValueTryGetCallback)(
    PJRT_KeyValueTryGetCallback_Args* args);

struct PJRT_KeyValuePutCallback_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* key;
  size_t key_size;
  const char* value;  /* only valid during the callback */
  size_t value_size;
  PJRT_CallbackError* callback_error;
  void* user_arg;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_KeyValuePutCallback_Args, user_arg);

/* Stores `value` under `key`. */
typedef PJRT_Error* (*PJRT_KeyValuePutCallback)(
    PJRT_KeyValuePutCallback_Args* args);

struct PJRT_Client_Create_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  /* Plugin-specific creation options (borrowed for the call). */
  const PJRT_NamedValue* create_options;
  size_t num_options;
  /* Optional KV store; each user_arg is passed back to its callback. */
  PJRT_KeyValueGetCallback kv_get_callback;
  void* kv_get_user_arg;
  PJRT_KeyValuePutCallback kv_put_callback;
  void* kv_put_user_arg;

  PJRT_Client* client;  /* out; free with PJRT_Client_Destroy */

  PJRT_KeyValueTryGetCallback kv_try_get_callback;
  void* kv_try_get_user_arg;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_Create_Args, kv_try_get_user_arg);

/* Creates a client (the plugin's runtime instance). */
typedef PJRT_Error* PJRT_Client_Create(PJRT_Client_Create_Args* args);

struct PJRT_Client_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_Destroy_Args, client);

/* Shuts down and frees `client`; NULL is accepted. */
typedef PJRT_Error* PJRT_Client_Destroy(PJRT_Client_Destroy_Args* args);

struct PJRT_Client_PlatformName_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  const char* platform_name;  /* out; owned by `client` */
  size_t platform_name_size;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_PlatformName_Args, platform_name_size);

/* Short platform identifier such as "cpu", "cuda" or "tpu". */
typedef PJRT_Error* PJRT_Client_PlatformName(
    PJRT_Client_PlatformName_Args* args);

struct PJRT_Client_ProcessIndex_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  int process_index;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_ProcessIndex_Args, process_index);

/* Index of this process in a multi-process job; 0 when single-process. */
typedef PJRT_Error* PJRT_Client_ProcessIndex(
    PJRT_Client_ProcessIndex_Args* args);

struct PJRT_Client_PlatformVersion_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  const char* platform_version;  /* out; owned by `client` */
  size_t platform_version_size;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_PlatformVersion_Args,
                          platform_version_size);

/* Free-form, human-readable platform/runtime version string. */
typedef PJRT_Error* PJRT_Client_PlatformVersion(
    PJRT_Client_PlatformVersion_Args* args);

struct PJRT_Client_TopologyDescription_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_TopologyDescription* topology;  /* out; owned by `client` */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_TopologyDescription_Args, topology);

/* Topology of the running system. Do not destroy the result. */
typedef PJRT_Error* PJRT_Client_TopologyDescription(
    PJRT_Client_TopologyDescription_Args* args);

struct PJRT_Client_Devices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_Device* const* devices;  /* out; array owned by `client` */
  size_t num_devices;           /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_Devices_Args, num_devices);

/* All devices in the job, addressable or not. */
typedef PJRT_Error* PJRT_Client_Devices(PJRT_Client_Devices_Args* args);

struct PJRT_Client_AddressableDevices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_Device* const* addressable_devices;  /* out; owned by `client` */
  size_t num_addressable_devices;           /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_AddressableDevices_Args,
                          num_addressable_devices);

/* Devices this process can launch work on (all of them when
 * single-process). */
typedef PJRT_Error* PJRT_Client_AddressableDevices(
    PJRT_Client_AddressableDevices_Args* args);

struct PJRT_Client_LookupDevice_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  int id;
  PJRT_Device* device;  /* out; owned by `client` */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_LookupDevice_Args, device);

/* Finds a device by its global id (see PJRT_DeviceDescription_Id). */
typedef PJRT_Error* PJRT_Client_LookupDevice(
    PJRT_Client_LookupDevice_Args* args);

struct PJRT_Client_LookupAddressableDevice_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  int local_hardware_id;
  PJRT_Device* addressable_device;  /* out; owned by `client` */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_LookupAddressableDevice_Args,
                          addressable_device);

/* Finds an addressable device by local hardware id (see
 * PJRT_Device_LocalHardwareId). */
typedef PJRT_Error* PJRT_Client_LookupAddressableDevice(
    PJRT_Client_LookupAddressableDevice_Args* args);

/* Health of one process in a distributed job. */
typedef enum {
  PJRT_ProcessState_kUnspecified = 0,
  PJRT_ProcessState_kUninitialized = 1,
  PJRT_ProcessState_kDisconnected = 2,
  PJRT_ProcessState_kConnected = 3,
  PJRT_ProcessState_kError = 4,
} PJRT_ProcessState;

/* Status record for one process (task). Note: no extension_start. */
struct PJRT_ProcessInfo {
  size_t struct_size;
  int task_id;
  uint64_t incarnation_id;
  PJRT_ProcessState state;
  int error_code;
  const char* error_message;
  size_t error_message_size;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_ProcessInfo, error_message_size);

struct PJRT_Client_UpdateGlobalProcessInfo_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_ProcessInfo* process_infos;
  size_t num_process_infos;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_UpdateGlobalProcessInfo_Args,
                          num_process_infos);

/* Tells the client the current state of every process in the job, so that
 * collectives can react to peers joining, restarting or failing. */
typedef PJRT_Error* PJRT_Client_UpdateGlobalProcessInfo(
    PJRT_Client_UpdateGlobalProcessInfo_Args* args);

struct PJRT_Client_AddressableMemories_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_Memory* const* addressable_memories;  /* out; owned by `client` */
  size_t num_addressable_memories;           /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_AddressableMemories_Args,
                          num_addressable_memories);

/* Memory spaces this process can transfer to and from directly. */
typedef PJRT_Error* PJRT_Client_AddressableMemories(
    PJRT_Client_AddressableMemories_Args* args);

/* A program in serialized form. `format` is "hlo" (HloModuleProto),
 * "hlo_with_config" (HloModuleProtoWithConfig) or "mlir" (StableHLO/MHLO
 * bytecode or text). Who owns `code` and `format` depends on the call. */
struct PJRT_Program {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  char* code;  /* in or out depending on the call */
  size_t code_size;
  const char* format;
  size_t format_size;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Program, format_size);

struct PJRT_Client_Compile_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  const PJRT_Program* program;  /* borrowed for the call */
  /* Serialized xla.CompileOptionsProto. */
  const char* compile_options;
  size_t compile_options_size;
  PJRT_LoadedExecutable* executable;  /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_Compile_Args, executable);

/* Compiles `program` and loads it onto the client's devices. */
typedef PJRT_Error* PJRT_Client_Compile(PJRT_Client_Compile_Args* args);

struct PJRT_Client_DefaultDeviceAssignment_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  int num_replicas;
  int num_partitions;
  /* Capacity of `default_assignment`; >= num_replicas * num_partitions. */
  size_t default_assignment_size;
  /* Caller-owned array; the callee writes num_replicas * num_partitions
   * device ids into it (replica-major). */
  int* default_assignment;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_DefaultDeviceAssignment_Args,
                          default_assignment);

/* Default replica/partition to device id mapping. */
typedef PJRT_Error* PJRT_Client_DefaultDeviceAssignment(
    PJRT_Client_DefaultDeviceAssignment_Args* args);

struct PJRT_Client_DmaMap_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  void* data;
  size_t size;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_DmaMap_Args, size);

/* Registers (pins) a host range for fast DMA transfers. */
typedef PJRT_Error* PJRT_Client_DmaMap(PJRT_Client_DmaMap_Args* args);

struct PJRT_Client_DmaUnmap_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  void* data;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_DmaUnmap_Args, data);

/* Undoes PJRT_Client_DmaMap for the range starting at `data`. */
typedef PJRT_Error* PJRT_Client_DmaUnmap(PJRT_Client_DmaUnmap_Args* args);

/* ---- Async host-to-device transfer manager ----
 * Created by PJRT_Client_CreateBuffersForAsyncHostToDevice; owns a set of
 * not-yet-filled device buffers that are populated piecewise. */

struct PJRT_AsyncHostToDeviceTransferManager_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_AsyncHostToDeviceTransferManager_Destroy_Args,
                          transfer_manager);

/* Frees the manager; NULL is accepted. */
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_Destroy(
    PJRT_AsyncHostToDeviceTransferManager_Destroy_Args* args);

struct PJRT_AsyncHostToDeviceTransferManager_TransferData_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  int buffer_index;
  const void* data;
  int64_t offset;
  int64_t transfer_size;
  bool is_last_transfer;
  PJRT_Event* done_with_h2d_transfer;  /* out; `data` reusable once ready */
};
PJRT_DEFINE_STRUCT_TRAITS(
    PJRT_AsyncHostToDeviceTransferManager_TransferData_Args,
    done_with_h2d_transfer);

/* Copies raw bytes into [offset, offset + transfer_size) of one buffer. */
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_TransferData(
    PJRT_AsyncHostToDeviceTransferManager_TransferData_Args* args);

struct PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  int buffer_index;
  PJRT_Buffer* buffer_out;  /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(
    PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args, buffer_out);

/* Hands out buffer `buffer_index` (at most once per index). */
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer(
    PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args* args);

struct PJRT_AsyncHostToDeviceTransferManager_Device_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  PJRT_Device* device_out;  /* out; owned by the client */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_AsyncHostToDeviceTransferManager_Device_Args,
                          device_out);

/* Device the manager's buffers live on. */
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_Device(
    PJRT_AsyncHostToDeviceTransferManager_Device_Args* args);

struct PJRT_AsyncHostToDeviceTransferManager_BufferCount_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  size_t buffer_count;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(
    PJRT_AsyncHostToDeviceTransferManager_BufferCount_Args, buffer_count);

/* Number of buffers the manager holds. */
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_BufferCount(
    PJRT_AsyncHostToDeviceTransferManager_BufferCount_Args* args);

struct PJRT_AsyncHostToDeviceTransferManager_BufferSize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  int buffer_index;
  size_t buffer_size;  /* out; on-device bytes */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_AsyncHostToDeviceTransferManager_BufferSize_Args,
                          buffer_size);

/* On-device size of one buffer in bytes. */
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_BufferSize(
    PJRT_AsyncHostToDeviceTransferManager_BufferSize_Args* args);

struct PJRT_AsyncHostToDeviceTransferManager_SetBufferError_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  int buffer_index;
  PJRT_Error_Code error_code;
  const char* error_message;  /* copied */
  size_t error_message_size;
};
PJRT_DEFINE_STRUCT_TRAITS(
    PJRT_AsyncHostToDeviceTransferManager_SetBufferError_Args,
    error_message_size);

/* Marks one buffer as failed instead of filling it. */
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_SetBufferError(
    PJRT_AsyncHostToDeviceTransferManager_SetBufferError_Args* args);

struct PJRT_AsyncHostToDeviceTransferManager_AddMetadata_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  const PJRT_NamedValue* transfer_metadata;  /* borrowed for the call */
  size_t num_metadata;
};
PJRT_DEFINE_STRUCT_TRAITS(
    PJRT_AsyncHostToDeviceTransferManager_AddMetadata_Args, num_metadata);

/* Attaches plugin-interpreted key/value metadata to the transfer. */
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_AddMetadata(
    PJRT_AsyncHostToDeviceTransferManager_AddMetadata_Args* args);

/* Element types; numbering is part of the ABI (it is not the same as
 * xla::PrimitiveType). */
typedef enum {
  PJRT_Buffer_Type_INVALID,  /* placeholder / unset */

  PJRT_Buffer_Type_PRED,     /* boolean */

  PJRT_Buffer_Type_S8,
  PJRT_Buffer_Type_S16,
  PJRT_Buffer_Type_S32,
  PJRT_Buffer_Type_S64,

  PJRT_Buffer_Type_U8,
  PJRT_Buffer_Type_U16,
  PJRT_Buffer_Type_U32,
  PJRT_Buffer_Type_U64,

  PJRT_Buffer_Type_F16,
  PJRT_Buffer_Type_F32,
  PJRT_Buffer_Type_F64,

  PJRT_Buffer_Type_BF16,     /* bfloat16: 1 sign, 8 exponent, 7 mantissa */

  PJRT_Buffer_Type_C64,      /* complex of two F32 */
  PJRT_Buffer_Type_C128,     /* complex of two F64 */

  /* 8-bit floats. */
  PJRT_Buffer_Type_F8E5M2,
  PJRT_Buffer_Type_F8E4M3FN,
  PJRT_Buffer_Type_F8E4M3B11FNUZ,
  PJRT_Buffer_Type_F8E5M2FNUZ,
  PJRT_Buffer_Type_F8E4M3FNUZ,

  PJRT_Buffer_Type_S4,
  PJRT_Buffer_Type_U4,

  PJRT_Buffer_Type_TOKEN,    /* ordering token; carries no data */

  PJRT_Buffer_Type_S2,
  PJRT_Buffer_Type_U2,

  /* More 8-bit floats. */
  PJRT_Buffer_Type_F8E4M3,
  PJRT_Buffer_Type_F8E3M4,
  PJRT_Buffer_Type_F8E8M0FNU,

  PJRT_Buffer_Type_F4E2M1FN, /* 4-bit MX float */

  PJRT_Buffer_Type_S1,
  PJRT_Buffer_Type_U1,
} PJRT_Buffer_Type;

/* Contract between caller and plugin for the host memory passed to
 * PJRT_Client_BufferFromHostBuffer. */
typedef enum {
  /* Caller keeps `data` valid and unchanged only until the call returns;
   * the plugin copies before returning. */
  PJRT_HostBufferSemantics_kImmutableOnlyDuringCall,

  /* Caller keeps `data` valid and unchanged until `done_with_host_buffer`
   * fires. */
  PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes,

  /* Plugin may alias `data` for the buffer's whole life and only reads it;
   * caller keeps it valid and unchanged until `done_with_host_buffer`
   * fires (which happens when the buffer is freed). */
  PJRT_HostBufferSemantics_kImmutableZeroCopy,

  /* Like kImmutableZeroCopy, but the plugin may also write through the
   * alias (e.g. for donated outputs). Non-CPU plugins treat it as
   * kImmutableUntilTransferCompletes. */
  PJRT_HostBufferSemantics_kMutableZeroCopy,
} PJRT_HostBufferSemantics;

/* Which member of PJRT_Buffer_MemoryLayout's union is active. */
typedef enum {
  PJRT_Buffer_MemoryLayout_Type_Tiled = 0,
  PJRT_Buffer_MemoryLayout_Type_Strides,
} PJRT_Buffer_MemoryLayout_Type;

/* XLA-style layout: a dimension permutation plus optional tiling. */
struct PJRT_Buffer_MemoryLayout_Tiled {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  /* Logical dimension indices ordered from most minor (fastest varying) to
   * most major; one entry per dimension. */
  const int64_t* minor_to_major;
  size_t minor_to_major_size;
  /* All tiles' dimensions concatenated; tile i has tile_dim_sizes[i]. */
  const int64_t* tile_dims;
  const size_t* tile_dim_sizes;
  size_t num_tiles;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_MemoryLayout_Tiled, num_tiles);

/* Strided layout: a byte stride per dimension (may be negative, in which
 * case the data pointer need not be the lowest address). */
struct PJRT_Buffer_MemoryLayout_Strides {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const int64_t* byte_strides;
  size_t num_byte_strides;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_MemoryLayout_Strides, num_byte_strides);

/* Tagged union of the two layout forms above; `type` selects the member.
 * Arrays referenced from it are borrowed. */
struct PJRT_Buffer_MemoryLayout {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  union {
    PJRT_Buffer_MemoryLayout_Tiled tiled;
    PJRT_Buffer_MemoryLayout_Strides strides;
  };
  PJRT_Buffer_MemoryLayout_Type type;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_MemoryLayout, type);

struct PJRT_AsyncHostToDeviceTransferManager_TransferLiteral_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;

  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;
  int buffer_index;
  const void* data;

  /* Shape and layout of the host literal at `data`. */
  const int64_t* shape_dims;
  size_t shape_num_dims;
  PJRT_Buffer_Type shape_element_type;
  PJRT_Buffer_MemoryLayout* shape_layout;

  PJRT_Event* done_with_h2d_transfer;  /* out; `data` reusable once ready */
};
PJRT_DEFINE_STRUCT_TRAITS(
    PJRT_AsyncHostToDeviceTransferManager_TransferLiteral_Args,
    done_with_h2d_transfer);

/* Copies a whole host literal (with shape/layout) into one buffer. */
typedef PJRT_Error* PJRT_AsyncHostToDeviceTransferManager_TransferLiteral(
    PJRT_AsyncHostToDeviceTransferManager_TransferLiteral_Args* args);

struct PJRT_Client_CreateUninitializedBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;

  const int64_t* shape_dims;
  size_t shape_num_dims;
  PJRT_Buffer_Type shape_element_type;
  PJRT_Buffer_MemoryLayout* shape_layout;  /* NULL for the default */

  PJRT_Device* device;
  PJRT_Memory* memory;  /* if set, takes precedence over `device` */

  PJRT_Buffer* buffer;  /* out; free with PJRT_Buffer_Destroy */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_CreateUninitializedBuffer_Args, buffer);

/* Allocates a device buffer without initializing its contents. */
typedef PJRT_Error* PJRT_Client_CreateUninitializedBuffer(
    PJRT_Client_CreateUninitializedBuffer_Args* args);

struct PJRT_Client_CreateErrorBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;

  /* Error the buffer will carry. */
  PJRT_Error_Code error_code;
  const char* error_message;
  size_t error_message_size;

  const int64_t* shape_dims;
  size_t shape_num_dims;
  PJRT_Buffer_Type shape_element_type;
  PJRT_Buffer_MemoryLayout* shape_layout;

  PJRT_Memory* memory;

  PJRT_Buffer* buffer;  /* out; free with PJRT_Buffer_Destroy */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_CreateErrorBuffer_Args, buffer);

/* Makes a buffer that holds no memory and is permanently in an error
 * state; executions consuming it fail with that error. */
typedef PJRT_Error* PJRT_Client_CreateErrorBuffer(
    PJRT_Client_CreateErrorBuffer_Args* args);

struct PJRT_Client_CreateAliasBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;

  PJRT_Memory* memory;

  const int64_t* shape_dims;
  size_t shape_num_dims;
  PJRT_Buffer_Type shape_element_type;
  PJRT_Buffer_MemoryLayout* shape_layout;

  PJRT_Buffer* alias_buffer;                                 /* out */
  PJRT_FulfillAliasBufferCallback* fulfill_alias_buffer_cb;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_CreateAliasBuffer_Args,
                          fulfill_alias_buffer_cb);

/* Creates a placeholder buffer whose real storage is supplied later via
 * PJRT_Client_FulfillAliasBuffer with the returned callback handle. */
typedef PJRT_Error* PJRT_Client_CreateAliasBuffer(
    PJRT_Client_CreateAliasBuffer_Args* args);

struct PJRT_Client_FulfillAliasBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;

  PJRT_Buffer* buffer;         /* the real buffer (or NULL on error) */
  PJRT_Error_Code status_code;
  const char* error_message;
  size_t error_message_size;
  PJRT_FulfillAliasBufferCallback* fulfill_alias_buffer_cb;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_FulfillAliasBuffer_Args,
                          fulfill_alias_buffer_cb);

/* Binds (or fails) an alias buffer created by CreateAliasBuffer. */
typedef PJRT_Error* PJRT_Client_FulfillAliasBuffer(
    PJRT_Client_FulfillAliasBuffer_Args* args);

struct PJRT_Client_BufferFromHostBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  const void* data;       /* host source; lifetime per host_buffer_semantics */
  PJRT_Buffer_Type type;  /* element type of `data` and of the result */
  const int64_t* dims;
  size_t num_dims;

  /* Host byte strides, one per dim, or none for dense row-major. */
  const int64_t* byte_strides;
  size_t num_byte_strides;

  PJRT_HostBufferSemantics host_buffer_semantics;

  PJRT_Device* device;
  PJRT_Memory* memory;  /* if set, takes precedence over `device` */

  /* Desired on-device layout (borrowed for the call); NULL = default
   * dense major-to-minor. */
  PJRT_Buffer_MemoryLayout* device_layout;

  PJRT_Event* done_with_host_buffer;  /* out; caller-owned */
  PJRT_Buffer* buffer;                /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_BufferFromHostBuffer_Args, buffer);

/* Starts an asynchronous host-to-device copy and returns the new buffer
 * immediately. */
typedef PJRT_Error* PJRT_Client_BufferFromHostBuffer(
    PJRT_Client_BufferFromHostBuffer_Args* args);

struct PJRT_Client_CreateViewOfDeviceBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  void* device_buffer_ptr;  /* existing device memory; not taken over */
  const int64_t* dims;
  size_t num_dims;
  PJRT_Buffer_Type element_type;
  PJRT_Buffer_MemoryLayout* layout;
  PJRT_Device* device;  /* deprecated; ignored when `memory` is set */
  /* Optional; called once the view no longer needs the memory. */
  void (*on_delete_callback)(void* device_buffer_ptr, void* user_arg);
  void* on_delete_callback_arg;
  /* Optional platform stream (e.g. a CUDA stream cast to intptr_t) that
   * produces the data; the plugin orders after it. */
  intptr_t stream;
  PJRT_Buffer* buffer;  /* out; caller-owned */
  PJRT_Memory* memory;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_CreateViewOfDeviceBuffer_Args, memory);

/* Wraps foreign device memory (e.g. from DLPack) as a non-owning buffer.
 * Optional for plugins. */
typedef PJRT_Error* PJRT_Client_CreateViewOfDeviceBuffer(
    PJRT_Client_CreateViewOfDeviceBuffer_Args* args);

/* Dense array shape: dims and element type. */
struct PJRT_ShapeSpec {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const int64_t* dims;
  size_t num_dims;
  PJRT_Buffer_Type element_type;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_ShapeSpec, element_type);

struct PJRT_Client_CreateBuffersForAsyncHostToDevice_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  PJRT_ShapeSpec* shape_specs;
  size_t num_shape_specs;
  PJRT_Buffer_MemoryLayout** device_layouts;  /* optional; may be NULL */
  size_t num_device_layouts;
  PJRT_Memory* memory;
  PJRT_AsyncHostToDeviceTransferManager* transfer_manager;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Client_CreateBuffersForAsyncHostToDevice_Args,
                          transfer_manager);

/* Allocates buffers for `shape_specs` and returns a caller-owned transfer
 * manager used to fill them. */
typedef PJRT_Error* PJRT_Client_CreateBuffersForAsyncHostToDevice(
    PJRT_Client_CreateBuffersForAsyncHostToDevice_Args* args);

/* ========================== Device descriptions ========================= */

/* A device description carries a device's static properties. It may
 * belong to a live device or to a topology used for ahead-of-time
 * compilation without hardware. */

struct PJRT_DeviceDescription_Id_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  int id;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_DeviceDescription_Id_Args, id);

/* Global device id, unique across all hosts for this platform. */
typedef PJRT_Error* PJRT_DeviceDescription_Id(
    PJRT_DeviceDescription_Id_Args* args);

struct PJRT_DeviceDescription_ProcessIndex_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  int process_index;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_DeviceDescription_ProcessIndex_Args,
                          process_index);

/* Index of the process that can address this device. */
typedef PJRT_Error* PJRT_DeviceDescription_ProcessIndex(
    PJRT_DeviceDescription_ProcessIndex_Args* args);

struct PJRT_DeviceDescription_Attributes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  size_t num_attributes;              /* out */
  const PJRT_NamedValue* attributes;  /* out; owned by the description */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_DeviceDescription_Attributes_Args, attributes);

/* Platform-specific device attributes. */
typedef PJRT_Error* PJRT_DeviceDescription_Attributes(
    PJRT_DeviceDescription_Attributes_Args* args);

struct PJRT_DeviceDescription_Kind_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  const char* device_kind;  /* out; owned by the description */
  size_t device_kind_size;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_DeviceDescription_Kind_Args, device_kind_size);

/* Vendor model string, e.g. a GPU product name. */
typedef PJRT_Error* PJRT_DeviceDescription_Kind(
    PJRT_DeviceDescription_Kind_Args* args);

struct PJRT_DeviceDescription_DebugString_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  const char* debug_string;  /* out; owned by the description */
  size_t debug_string_size;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_DeviceDescription_DebugString_Args,
                          debug_string_size);

/* Verbose, unambiguous description for logs and error messages. */
typedef PJRT_Error* PJRT_DeviceDescription_DebugString(
    PJRT_DeviceDescription_DebugString_Args* args);

struct PJRT_DeviceDescription_ToString_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_DeviceDescription* device_description;
  const char* to_string;  /* out; owned by the description */
  size_t to_string_size;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_DeviceDescription_ToString_Args, to_string_size);

/* Short user-facing name, e.g. "CpuDevice(id=0)". */
typedef PJRT_Error* PJRT_DeviceDescription_ToString(
    PJRT_DeviceDescription_ToString_Args* args);

/* ================================ Devices =============================== */

struct PJRT_Device_GetDescription_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  PJRT_DeviceDescription* device_description;  /* out; owned by device */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Device_GetDescription_Args, device_description);

/* Static description of a live device. */
typedef PJRT_Error* PJRT_Device_GetDescription(
    PJRT_Device_GetDescription_Args* args);

struct PJRT_Device_IsAddressable_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  bool is_addressable;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Device_IsAddressable_Args, is_addressable);

/* Whether this process can launch work on `device`. */
typedef PJRT_Error* PJRT_Device_IsAddressable(
    PJRT_Device_IsAddressable_Args* args);

struct PJRT_Device_LocalHardwareId_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  int local_hardware_id;  /* out; -1 if not defined */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Device_LocalHardwareId_Args, local_hardware_id);

/* Host-local hardware ordinal (e.g. CUDA device number); not necessarily
 * dense. */
typedef PJRT_Error* PJRT_Device_LocalHardwareId(
    PJRT_Device_LocalHardwareId_Args* args);

struct PJRT_Device_AddressableMemories_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  PJRT_Memory* const* memories;  /* out; owned by `device` */
  size_t num_memories;           /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Device_AddressableMemories_Args, num_memories);

/* Memory spaces `device` can read and write. */
typedef PJRT_Error* PJRT_Device_AddressableMemories(
    PJRT_Device_AddressableMemories_Args* args);

struct PJRT_Device_DefaultMemory_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  PJRT_Memory* memory;  /* out; owned by `device` */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Device_DefaultMemory_Args, memory);

/* Memory space used for `device`'s data unless told otherwise. */
typedef PJRT_Error* PJRT_Device_DefaultMemory(
    PJRT_Device_DefaultMemory_Args* args);

/* Allocator statistics. Only `bytes_in_use` is mandatory; each other value
 * is meaningful only when its `_is_set` flag is true. All fields are out. */
struct PJRT_Device_MemoryStats_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;

  int64_t bytes_in_use;

  int64_t peak_bytes_in_use;
  bool peak_bytes_in_use_is_set;
  int64_t num_allocs;
  bool num_allocs_is_set;
  int64_t largest_alloc_size;
  bool largest_alloc_size_is_set;
  int64_t bytes_limit;  /* user-allocatable capacity */
  bool bytes_limit_is_set;

  int64_t bytes_reserved;
  bool bytes_reserved_is_set;
  int64_t peak_bytes_reserved;
  bool peak_bytes_reserved_is_set;
  int64_t bytes_reservable_limit;
  bool bytes_reservable_limit_is_set;

  int64_t largest_free_block_bytes;
  bool largest_free_block_bytes_is_set;

  /* Memory the allocator holds in its pool (>= bytes_in_use). */
  int64_t pool_bytes;
  bool pool_bytes_is_set;
  int64_t peak_pool_bytes;
  bool peak_pool_bytes_is_set;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Device_MemoryStats_Args, peak_pool_bytes_is_set);

/* Diagnostic memory statistics; may return UNIMPLEMENTED. */
typedef PJRT_Error* PJRT_Device_MemoryStats(PJRT_Device_MemoryStats_Args* args);

struct PJRT_Device_PoisonExecution_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;

  PJRT_Device* device;
  int32_t launch_id;

  /* Error to inject into the execution's outputs. */
  PJRT_Error_Code error_code;
  const char* error_message;
  size_t error_message_size;

  bool poisoned;  /* out; false if no matching unfinished execution */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Device_PoisonExecution_Args, poisoned);

/* Fails the oldest unfinished execution with `launch_id` on `device` by
 * turning its outputs into error buffers. */
typedef PJRT_Error* PJRT_Device_PoisonExecution(
    PJRT_Device_PoisonExecution_Args* args);

/* Opaque owner of the attribute array returned by Device_GetAttributes. */
typedef struct PJRT_Device_Attributes PJRT_Device_Attributes;

struct PJRT_Device_GetAttributes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  const PJRT_NamedValue* attributes;          /* out; backed by below */
  size_t num_attributes;                      /* out */
  PJRT_Device_Attributes* device_attributes;  /* out */
  /* out: caller calls this once on `device_attributes` when done. */
  void (*attributes_deleter)(PJRT_Device_Attributes* device_attributes);
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Device_GetAttributes_Args, attributes_deleter);

/* Device attributes as a caller-released snapshot. */
typedef PJRT_Error* PJRT_Device_GetAttributes(
    PJRT_Device_GetAttributes_Args* args);

/* ========================== Async tracking events ======================= */

/* Opaque marker used to track asynchronous device activity (profiling). */
typedef struct PJRT_AsyncTrackingEvent PJRT_AsyncTrackingEvent;

struct PJRT_Device_CreateAsyncTrackingEvent_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Device* device;
  const char* description;
  size_t description_size;
  PJRT_AsyncTrackingEvent* event;  /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Device_CreateAsyncTrackingEvent_Args, event);

/* Creates a tracking event; free it with PJRT_AsyncTrackingEvent_Destroy. */
typedef PJRT_Error* PJRT_Device_CreateAsyncTrackingEvent(
    PJRT_Device_CreateAsyncTrackingEvent_Args* args);

struct PJRT_AsyncTrackingEvent_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_AsyncTrackingEvent* event;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_AsyncTrackingEvent_Destroy_Args, event);

/* Frees a tracking event. */
typedef PJRT_Error* PJRT_AsyncTrackingEvent_Destroy(
    PJRT_AsyncTrackingEvent_Destroy_Args* args);

/* ================================ Memory ================================ */

struct PJRT_Memory_Id_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  int id;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Memory_Id_Args, id);

/* Id of the memory space, unique among spaces of its kind. */
typedef PJRT_Error* PJRT_Memory_Id(PJRT_Memory_Id_Args* args);

struct PJRT_Memory_Kind_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  const char* kind;  /* out; owned by `memory` */
  size_t kind_size;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Memory_Kind_Args, kind_size);

/* Kind name, e.g. "device", "pinned_host", "unpinned_host". */
typedef PJRT_Error* PJRT_Memory_Kind(PJRT_Memory_Kind_Args* args);

struct PJRT_Memory_Kind_Id_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  int kind_id;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Memory_Kind_Id_Args, kind_id);

/* Numeric id of the memory kind (platform-defined). */
typedef PJRT_Error* PJRT_Memory_Kind_Id(PJRT_Memory_Kind_Id_Args* args);

struct PJRT_Memory_DebugString_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  const char* debug_string;  /* out; owned by `memory` */
  size_t debug_string_size;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Memory_DebugString_Args, debug_string_size);

/* Verbose description for logs. */
typedef PJRT_Error* PJRT_Memory_DebugString(PJRT_Memory_DebugString_Args* args);

struct PJRT_Memory_ToString_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  const char* to_string;  /* out; owned by `memory` */
  size_t to_string_size;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Memory_ToString_Args, to_string_size);

/* Short user-facing name. */
typedef PJRT_Error* PJRT_Memory_ToString(PJRT_Memory_ToString_Args* args);

struct PJRT_Memory_AddressableByDevices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Memory* memory;
  PJRT_Device* const* devices;  /* out; owned by `memory` */
  size_t num_devices;           /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Memory_AddressableByDevices_Args, num_devices);

/* Devices that can access this memory space. */
typedef PJRT_Error* PJRT_Memory_AddressableByDevices(
    PJRT_Memory_AddressableByDevices_Args* args);

/* ============================ Execute context =========================== */

/* Opaque per-execution side channel (e.g. FFI user data). The caller keeps
 * it alive for the whole execution. */
typedef struct PJRT_ExecuteContext PJRT_ExecuteContext;

struct PJRT_ExecuteContext_Create_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_ExecuteContext* context;  /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_ExecuteContext_Create_Args, context);

/* Creates an empty execute context. */
typedef PJRT_Error* PJRT_ExecuteContext_Create(
    PJRT_ExecuteContext_Create_Args* args);

struct PJRT_ExecuteContext_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_ExecuteContext* context;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_ExecuteContext_Destroy_Args, context);

/* Frees an execute context; NULL is accepted. */
typedef PJRT_Error* PJRT_ExecuteContext_Destroy(
    PJRT_ExecuteContext_Destroy_Args* args);

/* ============================== Executables ============================= */

/* PJRT_Executable is a compiled program not bound to devices (it can be
 * inspected and serialized); PJRT_LoadedExecutable is one ready to run on a
 * client's devices. */

struct PJRT_Executable_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_Destroy_Args, executable);

/* Frees `executable`; NULL is accepted. */
typedef PJRT_Error* PJRT_Executable_Destroy(PJRT_Executable_Destroy_Args* args);

struct PJRT_LoadedExecutable_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_LoadedExecutable_Destroy_Args, executable);

/* Deletes (as PJRT_LoadedExecutable_Delete) and frees `executable`; NULL
 * is accepted. */
typedef PJRT_Error* PJRT_LoadedExecutable_Destroy(
    PJRT_LoadedExecutable_Destroy_Args* args);

struct PJRT_LoadedExecutable_GetExecutable_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* loaded_executable;
  PJRT_Executable* executable;  /* out; free with PJRT_Executable_Destroy */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_LoadedExecutable_GetExecutable_Args, executable);

/* Returns a new handle to the device-independent part of a loaded
 * executable. */
typedef PJRT_Error* PJRT_LoadedExecutable_GetExecutable(
    PJRT_LoadedExecutable_GetExecutable_Args* args);

/* Opaque owner of serialized device-assignment bytes. */
typedef struct PJRT_DeviceAssignmentSerialized PJRT_DeviceAssignmentSerialized;

struct PJRT_LoadedExecutable_GetDeviceAssignment_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;

  /* out: valid while `serialized_device_assignment` is alive. */
  const char* serialized_bytes;
  size_t serialized_bytes_size;

  PJRT_DeviceAssignmentSerialized* serialized_device_assignment;  /* out */
  /* out: call exactly once on `serialized_device_assignment`. */
  void (*serialized_device_assignment_deleter)(
      PJRT_DeviceAssignmentSerialized* da);
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_LoadedExecutable_GetDeviceAssignment_Args,
                          serialized_device_assignment_deleter);

/* The executable's device assignment as a serialized
 * xla.DeviceAssignmentProto. */
typedef PJRT_Error* PJRT_LoadedExecutable_GetDeviceAssignment(
    PJRT_LoadedExecutable_GetDeviceAssignment_Args* args);

struct PJRT_Executable_Name_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  const char* executable_name;  /* out; owned by `executable` */
  size_t executable_name_size;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_Name_Args, executable_name_size);

/* Name of the executable (usually the module name). */
typedef PJRT_Error* PJRT_Executable_Name(PJRT_Executable_Name_Args* args);

struct PJRT_Executable_NumReplicas_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_replicas;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_NumReplicas_Args, num_replicas);

/* Replica count the program was compiled for. */
typedef PJRT_Error* PJRT_Executable_NumReplicas(
    PJRT_Executable_NumReplicas_Args* args);

struct PJRT_Executable_NumPartitions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_partitions;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_NumPartitions_Args, num_partitions);

/* Partition (SPMD shard) count the program was compiled for. */
typedef PJRT_Error* PJRT_Executable_NumPartitions(
    PJRT_Executable_NumPartitions_Args* args);

struct PJRT_LoadedExecutable_AddressableDevices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
  PJRT_Device* const* addressable_devices;  /* out; owned by executable */
  size_t num_addressable_devices;           /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_LoadedExecutable_AddressableDevices_Args,
                          num_addressable_devices);

/* Local devices the executable runs on, in execution order. */
typedef PJRT_Error* PJRT_LoadedExecutable_AddressableDevices(
    PJRT_LoadedExecutable_AddressableDevices_Args* args);

struct PJRT_Executable_OptimizedProgram_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  PJRT_Program* program;  /* caller-provided; see the protocol below */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_OptimizedProgram_Args, program);

/* Returns the post-optimization HLO as a two-call protocol:
 *  1. Call with program->code == NULL; the callee sets program->code_size
 *     and program->format/format_size (format owned by the plugin).
 *  2. Allocate code_size bytes, point program->code at them, call again;
 *     the callee writes the serialized module into that buffer. */
typedef PJRT_Error* PJRT_Executable_OptimizedProgram(
    PJRT_Executable_OptimizedProgram_Args* args);

struct PJRT_LoadedExecutable_Delete_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_LoadedExecutable_Delete_Args, executable);

/* Releases the runtime program (after in-flight runs finish) but keeps the
 * handle; afterwards only IsDeleted and Destroy may be used on it. */
typedef PJRT_Error* PJRT_LoadedExecutable_Delete(
    PJRT_LoadedExecutable_Delete_Args* args);

struct PJRT_LoadedExecutable_IsDeleted_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
  bool is_deleted;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_LoadedExecutable_IsDeleted_Args, is_deleted);

/* True once PJRT_LoadedExecutable_Delete has been called. */
typedef PJRT_Error* PJRT_LoadedExecutable_IsDeleted(
    PJRT_LoadedExecutable_IsDeleted_Args* args);

/* A block of bytes with its own release function. Whoever ends up holding
 * the chunk calls deleter(data, deleter_arg) exactly once. */
typedef struct PJRT_Chunk {
  void* data;
  size_t size;
  void (*deleter)(void* data, void* deleter_arg);
  void* deleter_arg;
} PJRT_Chunk;

/* Opaque stream for feeding data to a device-side receive op. */
typedef struct PJRT_CopyToDeviceStream PJRT_CopyToDeviceStream;

struct PJRT_TransferMetadata;

/* Host callback for a device send op. Takes ownership of `chunk`. Return
 * NULL, or an error made with `callback_error`. `done` marks the final
 * chunk. */
typedef PJRT_Error* (*PJRT_SendCallback)(PJRT_Chunk* chunk,
                                         PJRT_CallbackError* callback_error,
                                         size_t total_size_in_bytes, bool done,
                                         void* user_arg);
/* Host callback for a device recv op. Takes ownership of `stream` and must
 * eventually free it with PJRT_CopyToDeviceStream_Destroy. */
typedef void (*PJRT_RecvCallback)(PJRT_CopyToDeviceStream* stream,
                                  void* user_arg);

/* Binds a send callback to the send op with `channel_id`. */
struct PJRT_SendCallbackInfo {
  int64_t channel_id;
  void* user_arg;  /* passed to `send_callback` */
  PJRT_SendCallback send_callback;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_SendCallbackInfo, send_callback);

/* Binds a recv callback to the recv op with `channel_id`. */
struct PJRT_RecvCallbackInfo {
  int64_t channel_id;
  void* user_arg;  /* passed to `recv_callback` */
  PJRT_RecvCallback recv_callback;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_RecvCallbackInfo, recv_callback);

/* Per-launch options; only read while PJRT_LoadedExecutable_Execute runs. */
struct PJRT_ExecuteOptions {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  /* Host callbacks, indexed [device][op]; device order as in
   * LoadedExecutable_AddressableDevices. The functions themselves have to
   * stay callable until the run ends; the arrays need only live through
   * the call. */
  PJRT_SendCallbackInfo** send_callbacks;
  PJRT_RecvCallbackInfo** recv_callbacks;
  size_t num_send_ops;
  size_t num_recv_ops;
  /* Nonzero id shared by all parts of one multi-device launch; lets the
   * runtime detect mismatched launch order across hosts. */
  int launch_id;
  /* Argument indices that must not be donated even if the program allows
   * aliasing (e.g. the same buffer is passed twice). */
  const int64_t* non_donatable_input_indices;
  size_t num_non_donatable_input_indices;
  PJRT_ExecuteContext* context;  /* optional */
  /* Optional NUL-terminated caller source location (e.g. "file.py:12") for
   * diagnostics; valid only during the call, so copy it to keep it. */
  const char* call_location;

  /* Parallel arrays of length num_tasks pairing each task id with its
   * current incarnation id. */
  size_t num_tasks;
  int* task_ids;
  int64_t* incarnation_ids;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_ExecuteOptions, incarnation_ids);

struct PJRT_LoadedExecutable_Execute_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
  PJRT_ExecuteOptions* options;  /* borrowed for the call */
  /* Inputs as [num_devices][num_args]. */
  PJRT_Buffer* const* const* argument_lists;
  size_t num_devices;
  size_t num_args;
  /* Outputs as [num_devices][num_outputs]; the caller allocates both levels
   * of arrays, the callee fills in buffers that the caller then owns (free
   * each with PJRT_Buffer_Destroy). */
  PJRT_Buffer** const* output_lists;
  /* Optional caller array of length num_devices; on success the callee
   * stores one caller-owned completion event per device. Left untouched
   * when Execute fails. */
  PJRT_Event** device_complete_events;
  /* If set, run only on this addressable device (num_devices must be 1);
   * the caller then launches the other participants itself. Not supported
   * everywhere. */
  PJRT_Device* execute_device;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_LoadedExecutable_Execute_Args, execute_device);

/* Launches the executable on its addressable devices. */
typedef PJRT_Error* PJRT_LoadedExecutable_Execute(
    PJRT_LoadedExecutable_Execute_Args* args);

struct PJRT_Executable_NumOutputs_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_outputs;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_NumOutputs_Args, num_outputs);

/* Number of outputs produced per device. */
typedef PJRT_Error* PJRT_Executable_NumOutputs(
    PJRT_Executable_NumOutputs_Args* args);

struct PJRT_Executable_SizeOfGeneratedCodeInBytes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  int64_t size_in_bytes;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args,
                          size_in_bytes);

/* Size of the generated machine code. */
typedef PJRT_Error* PJRT_Executable_SizeOfGeneratedCodeInBytes(
    PJRT_Executable_SizeOfGeneratedCodeInBytes_Args* args);

struct PJRT_Executable_Fingerprint_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  const char* executable_fingerprint;  /* out; owned by `executable` */
  size_t executable_fingerprint_size;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_Fingerprint_Args,
                          executable_fingerprint_size);

/* Stable identity of the compiled artifact: equal inputs (program, options,
 * compiler version) give equal fingerprints. Optional. */
typedef PJRT_Error* PJRT_Executable_Fingerprint(
    PJRT_Executable_Fingerprint_Args* args);

struct PJRT_Executable_GetCostAnalysis_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_properties;              /* out */
  const PJRT_NamedValue* properties;  /* out; owned by `executable` */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_GetCostAnalysis_Args, properties);

/* Platform-defined static cost estimates (flops, bytes accessed, ...). */
typedef PJRT_Error* PJRT_Executable_GetCostAnalysis(
    PJRT_Executable_GetCostAnalysis_Args* args);

/* Compile-time memory usage, mirroring xla::CompiledMemoryStats. All
 * fields after `executable` are out. */
struct PJRT_Executable_GetCompiledMemoryStats_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;

  /* Default device memory (e.g. HBM). */
  int64_t generated_code_size_in_bytes;
  int64_t argument_size_in_bytes;
  int64_t output_size_in_bytes;
  int64_t alias_size_in_bytes;  /* argument bytes reused as outputs */
  int64_t temp_size_in_bytes;

  /* Host memory. */
  int64_t host_generated_code_size_in_bytes;
  int64_t host_argument_size_in_bytes;
  int64_t host_output_size_in_bytes;
  int64_t host_alias_size_in_bytes;
  int64_t host_temp_size_in_bytes;

  int64_t peak_memory_in_bytes;
  int64_t total_size_in_bytes;  /* total default-memory footprint */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_GetCompiledMemoryStats_Args,
                          total_size_in_bytes);

/* Memory estimates for running the executable. */
typedef PJRT_Error* PJRT_Executable_GetCompiledMemoryStats(
    PJRT_Executable_GetCompiledMemoryStats_Args* args);

struct PJRT_Executable_OutputElementTypes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  PJRT_Buffer_Type* output_types;  /* out; owned by `executable` */
  size_t num_output_types;         /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_OutputElementTypes_Args,
                          num_output_types);

/* Element type of each output. */
typedef PJRT_Error* PJRT_Executable_OutputElementTypes(
    PJRT_Executable_OutputElementTypes_Args* args);

struct PJRT_Executable_OutputDimensions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_outputs;       /* out */
  const int64_t* dims;      /* out; all outputs' dims concatenated */
  const size_t* dim_sizes;  /* out; rank of each output */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_OutputDimensions_Args, dim_sizes);

/* Array shape of each output, flattened (owned by `executable`). */
typedef PJRT_Error* PJRT_Executable_OutputDimensions(
    PJRT_Executable_OutputDimensions_Args* args);

struct PJRT_Executable_OutputMemoryKinds_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;
  size_t num_outputs;                /* out */
  const char* const* memory_kinds;   /* out; one per output */
  const size_t* memory_kind_sizes;   /* out; one per output */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_OutputMemoryKinds_Args,
                          memory_kind_sizes);

/* Memory kind of each output (owned by `executable`). */
typedef PJRT_Error* PJRT_Executable_OutputMemoryKinds(
    PJRT_Executable_OutputMemoryKinds_Args* args);

/* Opaque owners of serialized bytes returned by the calls below. */
typedef struct PJRT_SerializedExecutable PJRT_SerializedExecutable;

typedef struct PJRT_SerializedCompileOptions PJRT_SerializedCompileOptions;

struct PJRT_Executable_Serialize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_Executable* executable;

  /* out: valid while `serialized_executable` is alive. */
  const char* serialized_bytes;
  size_t serialized_bytes_size;

  PJRT_SerializedExecutable* serialized_executable;  /* out */
  /* out: call exactly once on `serialized_executable`. */
  void (*serialized_executable_deleter)(PJRT_SerializedExecutable* exec);
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_Serialize_Args,
                          serialized_executable_deleter);

/* Serializes `executable` in a plugin-specific format that is only
 * guaranteed to load into the same plugin build. */
typedef PJRT_Error* PJRT_Executable_Serialize(
    PJRT_Executable_Serialize_Args* args);

struct PJRT_Executable_GetCompileOptions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Executable* executable;

  /* out: valid while `serialized_compile_options` is alive. */
  const char* serialized_bytes;
  size_t serialized_bytes_size;

  PJRT_SerializedCompileOptions* serialized_compile_options;  /* out */
  /* out: call exactly once on `serialized_compile_options`. */
  void (*serialized_compile_options_deleter)(
      PJRT_SerializedCompileOptions* options);
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_GetCompileOptions_Args,
                          serialized_compile_options_deleter);

/* The xla.CompileOptionsProto the executable was built with. */
typedef PJRT_Error* PJRT_Executable_GetCompileOptions(
    PJRT_Executable_GetCompileOptions_Args* args);

struct PJRT_Executable_DeserializeAndLoad_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
  const char* serialized_executable;
  size_t serialized_executable_size;
  PJRT_LoadedExecutable* loaded_executable;  /* out; caller-owned */
  /* Optional serialized xla.CompileOptionsProto replacing the stored
   * options; NULL keeps the ones embedded in the executable. */
  const char* overridden_serialized_compile_options;
  size_t overridden_serialized_compile_options_size;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Executable_DeserializeAndLoad_Args,
                          overridden_serialized_compile_options_size);

/* Loads bytes produced by PJRT_Executable_Serialize from the same
 * platform and plugin version. */
typedef PJRT_Error* PJRT_Executable_DeserializeAndLoad(
    PJRT_Executable_DeserializeAndLoad_Args* args);

struct PJRT_LoadedExecutable_Fingerprint_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_LoadedExecutable* executable;
  const char* executable_fingerprint;  /* out; owned by `executable` */
  size_t executable_fingerprint_size;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_LoadedExecutable_Fingerprint_Args,
                          executable_fingerprint_size);

/* Deprecated alias of PJRT_Executable_Fingerprint on a loaded
 * executable. */
typedef PJRT_Error* PJRT_LoadedExecutable_Fingerprint(
    PJRT_LoadedExecutable_Fingerprint_Args* args);

/* ================================ Buffers =============================== */

struct PJRT_Buffer_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_Destroy_Args, buffer);

/* Deletes the device data (as PJRT_Buffer_Delete) and frees the handle;
 * NULL is accepted. */
typedef PJRT_Error* PJRT_Buffer_Destroy(PJRT_Buffer_Destroy_Args* args);

struct PJRT_Buffer_ElementType_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Buffer_Type type;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_ElementType_Args, type);

/* Element type of the buffer. */
typedef PJRT_Error* PJRT_Buffer_ElementType(PJRT_Buffer_ElementType_Args* args);

struct PJRT_Buffer_Dimensions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  const int64_t* dims;  /* out; owned by `buffer` */
  size_t num_dims;      /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_Dimensions_Args, num_dims);

/* Array shape (possibly padded bounds for dynamic dimensions). */
typedef PJRT_Error* PJRT_Buffer_Dimensions(PJRT_Buffer_Dimensions_Args* args);

struct PJRT_Buffer_UnpaddedDimensions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  const int64_t* unpadded_dims;  /* out; owned by `buffer` */
  size_t num_dims;               /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_UnpaddedDimensions_Args, num_dims);

/* Actual runtime sizes of dynamic dimensions; equal to Dimensions when
 * the shape is fully static. */
typedef PJRT_Error* PJRT_Buffer_UnpaddedDimensions(
    PJRT_Buffer_UnpaddedDimensions_Args* args);

struct PJRT_Buffer_DynamicDimensionIndices_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  const size_t* dynamic_dim_indices;  /* out; owned by `buffer` */
  size_t num_dynamic_dims;            /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_DynamicDimensionIndices_Args,
                          num_dynamic_dims);

/* Which dimensions are dynamic; empty when the shape is static. */
typedef PJRT_Error* PJRT_Buffer_DynamicDimensionIndices(
    PJRT_Buffer_DynamicDimensionIndices_Args* args);

struct PJRT_Buffer_GetMemoryLayout_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Buffer_MemoryLayout layout;  /* out; arrays owned by `buffer` */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_GetMemoryLayout_Args, layout);

/* On-device layout. Deprecated in favour of the layouts extension. */
typedef PJRT_Error* PJRT_Buffer_GetMemoryLayout(
    PJRT_Buffer_GetMemoryLayout_Args* args);

struct PJRT_Buffer_ToHostBuffer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* src;

  /* Desired host layout (borrowed for the call); NULL = the source
   * buffer's own layout. */
  PJRT_Buffer_MemoryLayout* host_layout;
  /* Destination, or NULL to only query the required size. */
  void* dst;
  /* in: capacity of `dst`; out (when `dst` is NULL): bytes required. */
  size_t dst_size;

  PJRT_Event* event;  /* out; caller-owned; ready when `dst` is filled */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_ToHostBuffer_Args, event);

/* Starts an asynchronous device-to-host copy into caller memory. */
typedef PJRT_Error* PJRT_Buffer_ToHostBuffer(
    PJRT_Buffer_ToHostBuffer_Args* args);

struct PJRT_Buffer_OnDeviceSizeInBytes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  size_t on_device_size_in_bytes;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_OnDeviceSizeInBytes_Args,
                          on_device_size_in_bytes);

/* Bytes of device storage the buffer occupies. */
typedef PJRT_Error* PJRT_Buffer_OnDeviceSizeInBytes(
    PJRT_Buffer_OnDeviceSizeInBytes_Args* args);

struct PJRT_Buffer_Delete_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_Delete_Args, buffer);

/* Releases the device memory (once pending work using it is done) but
 * keeps the handle; afterwards only IsDeleted and Destroy may be used. */
typedef PJRT_Error* PJRT_Buffer_Delete(PJRT_Buffer_Delete_Args* args);

struct PJRT_Buffer_IsDeleted_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  bool is_deleted;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_IsDeleted_Args, is_deleted);

/* True after PJRT_Buffer_Delete or after donation to an execution. */
typedef PJRT_Error* PJRT_Buffer_IsDeleted(PJRT_Buffer_IsDeleted_Args* args);

struct PJRT_Buffer_CopyRawToHost_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  void* dst;
  int64_t offset;
  int64_t transfer_size;
  PJRT_Event* event;  /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_CopyRawToHost_Args, event);

/* Copies raw on-device bytes [offset, offset + transfer_size) to `dst`. */
typedef PJRT_Error* PJRT_Buffer_CopyRawToHost(
    PJRT_Buffer_CopyRawToHost_Args* args);

/* Passed by the caller to `future_ready_callback` when the destination of a
 * deferred raw copy is known. No extension_start. */
struct PJRT_Buffer_CopyRawToHostFuture_Callback_Args {
  size_t struct_size;
  void* callback_data;  /* as returned by CopyRawToHostFuture */
  PJRT_Error_Code error_code;
  /* Meaningful only when error_code != OK. */
  const char* error_message;
  size_t error_message_size;
  void* dst;  /* meaningful only when error_code == OK */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_CopyRawToHostFuture_Callback_Args, dst);

struct PJRT_Buffer_CopyRawToHostFuture_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  int64_t offset;
  int64_t transfer_size;
  PJRT_Event* event;    /* out; caller-owned */
  void* callback_data;  /* out */
  /* out: the caller invokes this once the destination is ready. */
  void (*future_ready_callback)(
      PJRT_Buffer_CopyRawToHostFuture_Callback_Args* args);
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_CopyRawToHostFuture_Args,
                          future_ready_callback);

/* Like CopyRawToHost, but the destination pointer is supplied later through
 * `future_ready_callback`; the copy starts only then. */
typedef PJRT_Error* PJRT_Buffer_CopyRawToHostFuture(
    PJRT_Buffer_CopyRawToHostFuture_Args* args);

struct PJRT_Buffer_CopyToDevice_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Device* dst_device;
  PJRT_Buffer* dst_buffer;  /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_CopyToDevice_Args, dst_buffer);

/* Copies to another device of the same client (error if already there). */
typedef PJRT_Error* PJRT_Buffer_CopyToDevice(
    PJRT_Buffer_CopyToDevice_Args* args);

struct PJRT_Buffer_CopyToMemory_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Memory* dst_memory;
  PJRT_Buffer* dst_buffer;  /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_CopyToMemory_Args, dst_buffer);

/* Copies to another memory space of the same client (error if already
 * there). */
typedef PJRT_Error* PJRT_Buffer_CopyToMemory(
    PJRT_Buffer_CopyToMemory_Args* args);

struct PJRT_Buffer_IsOnCpu_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  bool is_on_cpu;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_IsOnCpu_Args, is_on_cpu);

/* Whether the data is in host-accessible CPU memory. */
typedef PJRT_Error* PJRT_Buffer_IsOnCpu(PJRT_Buffer_IsOnCpu_Args* args);

struct PJRT_Buffer_Device_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Device* device;  /* out; owned by the client */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_Device_Args, device);

/* Device holding the buffer. */
typedef PJRT_Error* PJRT_Buffer_Device(PJRT_Buffer_Device_Args* args);

struct PJRT_Buffer_Memory_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Memory* memory;  /* out; owned by the client */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_Memory_Args, memory);

/* Memory space holding the buffer. */
typedef PJRT_Error* PJRT_Buffer_Memory(PJRT_Buffer_Memory_Args* args);

struct PJRT_Buffer_ReadyEvent_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  PJRT_Event* event;  /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_ReadyEvent_Args, event);

/* Event that resolves when the buffer's data is ready or has failed. Asked
 * for on an already deleted/donated buffer it resolves to an error at once;
 * deleting the buffer afterwards does not affect an event already
 * handed out. */
typedef PJRT_Error* PJRT_Buffer_ReadyEvent(PJRT_Buffer_ReadyEvent_Args* args);

struct PJRT_Buffer_UnsafePointer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  uintptr_t buffer_pointer;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_UnsafePointer_Args, buffer_pointer);

/* Platform-dependent address of the data (often, not always, the device
 * address). */
typedef PJRT_Error* PJRT_Buffer_UnsafePointer(
    PJRT_Buffer_UnsafePointer_Args* args);

struct PJRT_Buffer_IncreaseExternalReferenceCount_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_IncreaseExternalReferenceCount_Args,
                          buffer);

/* Declares that something outside PJRT (e.g. DLPack, NumPy) is using the
 * raw memory; while the count is positive the plugin must not free or move
 * it. */
typedef PJRT_Error* PJRT_Buffer_IncreaseExternalReferenceCount(
    PJRT_Buffer_IncreaseExternalReferenceCount_Args* args);

struct PJRT_Buffer_DecreaseExternalReferenceCount_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_DecreaseExternalReferenceCount_Args,
                          buffer);

/* Drops one external reference; error if the count is already zero. */
typedef PJRT_Error* PJRT_Buffer_DecreaseExternalReferenceCount(
    PJRT_Buffer_DecreaseExternalReferenceCount_Args* args);

struct PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;
  void* device_memory_ptr;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args,
                          device_memory_ptr);

/* Raw device pointer; only guaranteed stable while an external reference
 * is held. */
typedef PJRT_Error* PJRT_Buffer_OpaqueDeviceMemoryDataPointer(
    PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args* args);

/* Passed by the caller to `dependency_ready_callback`. No
 * extension_start. */
struct PJRT_Buffer_DonateWithControlDependency_Callback_Args {
  size_t struct_size;
  void* callback_data;  /* as returned by DonateWithControlDependency */
  PJRT_Error_Code error_code;
  const char* error_message;
  size_t error_message_size;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_DonateWithControlDependency_Callback_Args,
                          error_message_size);

struct PJRT_Buffer_DonateWithControlDependency_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Buffer* buffer;

  void* callback_data;  /* out */
  /* out: the caller invokes this once the dependency is satisfied. */
  void (*dependency_ready_callback)(
      PJRT_Buffer_DonateWithControlDependency_Callback_Args* args);

  PJRT_Buffer* out_buffer;  /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Buffer_DonateWithControlDependency_Args,
                          out_buffer);

/* Moves `buffer`'s storage into `out_buffer`, which only becomes usable
 * after the caller signals `dependency_ready_callback`. */
typedef PJRT_Error* PJRT_Buffer_DonateWithControlDependency(
    PJRT_Buffer_DonateWithControlDependency_Args* args);

/* ========================== CopyToDeviceStream ========================== */

struct PJRT_CopyToDeviceStream_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_CopyToDeviceStream* stream;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_CopyToDeviceStream_Destroy_Args, stream);

/* Frees `stream`; NULL is accepted. */
typedef PJRT_Error* PJRT_CopyToDeviceStream_Destroy(
    PJRT_CopyToDeviceStream_Destroy_Args* args);

struct PJRT_CopyToDeviceStream_AddChunk_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_CopyToDeviceStream* stream;
  PJRT_Chunk* chunk;              /* ownership passes to the plugin */
  PJRT_Event* transfer_complete;  /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_CopyToDeviceStream_AddChunk_Args,
                          transfer_complete);

/* Queues a chunk for transfer. The event reports an error when the chunk
 * would exceed the expected total, arrives after the stream finished, or
 * has a size the granule does not divide. */
typedef PJRT_Error* PJRT_CopyToDeviceStream_AddChunk(
    PJRT_CopyToDeviceStream_AddChunk_Args* args);

struct PJRT_CopyToDeviceStream_TotalBytes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_CopyToDeviceStream* stream;
  int64_t total_bytes;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_CopyToDeviceStream_TotalBytes_Args, total_bytes);

/* Total bytes the stream expects. */
typedef PJRT_Error* PJRT_CopyToDeviceStream_TotalBytes(
    PJRT_CopyToDeviceStream_TotalBytes_Args* args);

struct PJRT_CopyToDeviceStream_GranuleSize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_CopyToDeviceStream* stream;
  int64_t granule_size_in_bytes;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_CopyToDeviceStream_GranuleSize_Args,
                          granule_size_in_bytes);

/* Chunk sizes must be multiples of this. */
typedef PJRT_Error* PJRT_CopyToDeviceStream_GranuleSize(
    PJRT_CopyToDeviceStream_GranuleSize_Args* args);

struct PJRT_CopyToDeviceStream_CurrentBytes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_CopyToDeviceStream* stream;
  int64_t current_bytes;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_CopyToDeviceStream_CurrentBytes_Args,
                          current_bytes);

/* Bytes accepted so far (transferred or queued). */
typedef PJRT_Error* PJRT_CopyToDeviceStream_CurrentBytes(
    PJRT_CopyToDeviceStream_CurrentBytes_Args* args);

/* =========================== Topology / AOT ============================= */

struct PJRT_TopologyDescription_Create_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* topology_name;
  size_t topology_name_size;
  const PJRT_NamedValue* create_options;  /* borrowed for the call */
  size_t num_options;
  PJRT_TopologyDescription* topology;  /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_TopologyDescription_Create_Args, topology);

/* Builds a standalone topology (no hardware needed), e.g. for ahead-of-time
 * compilation. Free with PJRT_TopologyDescription_Destroy. */
typedef PJRT_Error* PJRT_TopologyDescription_Create(
    PJRT_TopologyDescription_Create_Args* args);

struct PJRT_TopologyDescription_Destroy_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_TopologyDescription* topology;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_TopologyDescription_Destroy_Args, topology);

/* Frees a topology created by the caller; NULL is accepted. Never call it
 * on a client-owned topology. */
typedef PJRT_Error* PJRT_TopologyDescription_Destroy(
    PJRT_TopologyDescription_Destroy_Args* args);

struct PJRT_TopologyDescription_PlatformVersion_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_TopologyDescription* topology;
  const char* platform_version;  /* out; owned by `topology` */
  size_t platform_version_size;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_TopologyDescription_PlatformVersion_Args,
                          platform_version_size);

/* Same as PJRT_Client_PlatformVersion, for a topology. */
typedef PJRT_Error* PJRT_TopologyDescription_PlatformVersion(
    PJRT_TopologyDescription_PlatformVersion_Args* args);

struct PJRT_TopologyDescription_PlatformName_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_TopologyDescription* topology;
  const char* platform_name;  /* out; owned by `topology` */
  size_t platform_name_size;  /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_TopologyDescription_PlatformName_Args,
                          platform_name_size);

/* Same as PJRT_Client_PlatformName, for a topology. */
typedef PJRT_Error* PJRT_TopologyDescription_PlatformName(
    PJRT_TopologyDescription_PlatformName_Args* args);

struct PJRT_TopologyDescription_GetDeviceDescriptions_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_TopologyDescription* topology;
  PJRT_DeviceDescription* const* descriptions;  /* out; owned by topology */
  size_t num_descriptions;                      /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_TopologyDescription_GetDeviceDescriptions_Args,
                          num_descriptions);

/* All device descriptions, in an order that is stable within a process. */
typedef PJRT_Error* PJRT_TopologyDescription_GetDeviceDescriptions(
    PJRT_TopologyDescription_GetDeviceDescriptions_Args* args);

/* Opaque owner of serialized topology bytes. */
typedef struct PJRT_SerializedTopology PJRT_SerializedTopology;

struct PJRT_TopologyDescription_Serialize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_TopologyDescription* topology;

  /* out: valid while `serialized_topology` is alive. */
  const char* serialized_bytes;
  size_t serialized_bytes_size;

  PJRT_SerializedTopology* serialized_topology;  /* out */
  /* out: call exactly once on `serialized_topology`. */
  void (*serialized_topology_deleter)(
      PJRT_SerializedTopology* serialized_topology);
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_TopologyDescription_Serialize_Args,
                          serialized_topology_deleter);

/* Serializes the topology (e.g. for compilation cache keys). */
typedef PJRT_Error* PJRT_TopologyDescription_Serialize(
    PJRT_TopologyDescription_Serialize_Args* args);

struct PJRT_TopologyDescription_Deserialize_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* serialized_topology;
  size_t serialized_topology_size;

  PJRT_TopologyDescription* topology;  /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_TopologyDescription_Deserialize_Args, topology);

/* Rebuilds a topology from PJRT_TopologyDescription_Serialize output. */
typedef PJRT_Error* PJRT_TopologyDescription_Deserialize(
    PJRT_TopologyDescription_Deserialize_Args* args);

struct PJRT_TopologyDescription_Attributes_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_TopologyDescription* topology;

  const PJRT_NamedValue* attributes;  /* out; owned by `topology` */
  size_t num_attributes;              /* out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_TopologyDescription_Attributes_Args,
                          num_attributes);

/* Platform-specific topology attributes. */
typedef PJRT_Error* PJRT_TopologyDescription_Attributes(
    PJRT_TopologyDescription_Attributes_Args* args);

struct PJRT_Compile_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const PJRT_TopologyDescription* topology;
  const PJRT_Program* program;  /* borrowed for the call */
  /* Serialized xla.CompileOptionsProto. */
  const char* compile_options;
  size_t compile_options_size;
  PJRT_Client* client;  /* optional, may improve optimization */
  PJRT_Executable* executable;  /* out; caller-owned */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Compile_Args, executable);

/* Ahead-of-time compile against a topology. The result is not loaded;
 * serialize it and load it later on a compatible client. */
typedef PJRT_Error* PJRT_Compile(PJRT_Compile_Args* args);

/* =============================== API table ============================== */

/* One slot per entry point: a pointer named exactly like its function type.
 * Local to this header (undefined again below). C++ spells the type with
 * `::` so that reusing the name for the member does not "change the
 * meaning" of the name inside the class (GCC rejects that with -pedantic). */
#ifdef __cplusplus
#define _PJRT_API_STRUCT_FIELD(fn_type) ::fn_type* fn_type
#else
#define _PJRT_API_STRUCT_FIELD(fn_type) fn_type* fn_type
#endif

/* The function table a plugin exports (normally via GetPjrtApi()). Slots
 * are append-only: a caller must check `struct_size` (or the minor version)
 * before touching a slot newer than the plugin, and a slot may be NULL if
 * the plugin does not implement it. PJRT_Api_STRUCT_SIZE must track the
 * last slot. */
typedef struct PJRT_Api {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;

  PJRT_Api_Version pjrt_api_version;

  _PJRT_API_STRUCT_FIELD(PJRT_Error_Destroy);
  _PJRT_API_STRUCT_FIELD(PJRT_Error_Message);
  _PJRT_API_STRUCT_FIELD(PJRT_Error_GetCode);

  _PJRT_API_STRUCT_FIELD(PJRT_Plugin_Initialize);
  _PJRT_API_STRUCT_FIELD(PJRT_Plugin_Attributes);

  _PJRT_API_STRUCT_FIELD(PJRT_Event_Destroy);
  _PJRT_API_STRUCT_FIELD(PJRT_Event_IsReady);
  _PJRT_API_STRUCT_FIELD(PJRT_Event_Error);
  _PJRT_API_STRUCT_FIELD(PJRT_Event_Await);
  _PJRT_API_STRUCT_FIELD(PJRT_Event_OnReady);

  _PJRT_API_STRUCT_FIELD(PJRT_Client_Create);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_Destroy);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_PlatformName);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_ProcessIndex);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_PlatformVersion);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_Devices);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_AddressableDevices);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_LookupDevice);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_LookupAddressableDevice);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_AddressableMemories);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_Compile);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_DefaultDeviceAssignment);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_BufferFromHostBuffer);

  _PJRT_API_STRUCT_FIELD(PJRT_DeviceDescription_Id);
  _PJRT_API_STRUCT_FIELD(PJRT_DeviceDescription_ProcessIndex);
  _PJRT_API_STRUCT_FIELD(PJRT_DeviceDescription_Attributes);
  _PJRT_API_STRUCT_FIELD(PJRT_DeviceDescription_Kind);
  _PJRT_API_STRUCT_FIELD(PJRT_DeviceDescription_DebugString);
  _PJRT_API_STRUCT_FIELD(PJRT_DeviceDescription_ToString);

  _PJRT_API_STRUCT_FIELD(PJRT_Device_GetDescription);
  _PJRT_API_STRUCT_FIELD(PJRT_Device_IsAddressable);
  _PJRT_API_STRUCT_FIELD(PJRT_Device_LocalHardwareId);
  _PJRT_API_STRUCT_FIELD(PJRT_Device_AddressableMemories);
  _PJRT_API_STRUCT_FIELD(PJRT_Device_DefaultMemory);
  _PJRT_API_STRUCT_FIELD(PJRT_Device_MemoryStats);

  _PJRT_API_STRUCT_FIELD(PJRT_Memory_Id);
  _PJRT_API_STRUCT_FIELD(PJRT_Memory_Kind);
  _PJRT_API_STRUCT_FIELD(PJRT_Memory_DebugString);
  _PJRT_API_STRUCT_FIELD(PJRT_Memory_ToString);
  _PJRT_API_STRUCT_FIELD(PJRT_Memory_AddressableByDevices);

  _PJRT_API_STRUCT_FIELD(PJRT_Executable_Destroy);
  _PJRT_API_STRUCT_FIELD(PJRT_Executable_Name);
  _PJRT_API_STRUCT_FIELD(PJRT_Executable_NumReplicas);
  _PJRT_API_STRUCT_FIELD(PJRT_Executable_NumPartitions);
  _PJRT_API_STRUCT_FIELD(PJRT_Executable_NumOutputs);
  _PJRT_API_STRUCT_FIELD(PJRT_Executable_SizeOfGeneratedCodeInBytes);
  _PJRT_API_STRUCT_FIELD(PJRT_Executable_GetCostAnalysis);
  _PJRT_API_STRUCT_FIELD(PJRT_Executable_OutputMemoryKinds);
  _PJRT_API_STRUCT_FIELD(PJRT_Executable_OptimizedProgram);
  _PJRT_API_STRUCT_FIELD(PJRT_Executable_Serialize);

  _PJRT_API_STRUCT_FIELD(PJRT_LoadedExecutable_Destroy);
  _PJRT_API_STRUCT_FIELD(PJRT_LoadedExecutable_GetExecutable);
  _PJRT_API_STRUCT_FIELD(PJRT_LoadedExecutable_AddressableDevices);
  _PJRT_API_STRUCT_FIELD(PJRT_LoadedExecutable_Delete);
  _PJRT_API_STRUCT_FIELD(PJRT_LoadedExecutable_IsDeleted);
  _PJRT_API_STRUCT_FIELD(PJRT_LoadedExecutable_Execute);
  _PJRT_API_STRUCT_FIELD(PJRT_Executable_DeserializeAndLoad);
  _PJRT_API_STRUCT_FIELD(PJRT_LoadedExecutable_Fingerprint);

  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_Destroy);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_ElementType);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_Dimensions);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_UnpaddedDimensions);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_DynamicDimensionIndices);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_GetMemoryLayout);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_OnDeviceSizeInBytes);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_Device);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_Memory);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_Delete);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_IsDeleted);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_CopyToDevice);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_ToHostBuffer);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_IsOnCpu);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_ReadyEvent);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_UnsafePointer);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_IncreaseExternalReferenceCount);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_DecreaseExternalReferenceCount);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_OpaqueDeviceMemoryDataPointer);

  _PJRT_API_STRUCT_FIELD(PJRT_CopyToDeviceStream_Destroy);
  _PJRT_API_STRUCT_FIELD(PJRT_CopyToDeviceStream_AddChunk);
  _PJRT_API_STRUCT_FIELD(PJRT_CopyToDeviceStream_TotalBytes);
  _PJRT_API_STRUCT_FIELD(PJRT_CopyToDeviceStream_GranuleSize);
  _PJRT_API_STRUCT_FIELD(PJRT_CopyToDeviceStream_CurrentBytes);

  _PJRT_API_STRUCT_FIELD(PJRT_TopologyDescription_Create);
  _PJRT_API_STRUCT_FIELD(PJRT_TopologyDescription_Destroy);
  _PJRT_API_STRUCT_FIELD(PJRT_TopologyDescription_PlatformName);
  _PJRT_API_STRUCT_FIELD(PJRT_TopologyDescription_PlatformVersion);
  _PJRT_API_STRUCT_FIELD(PJRT_TopologyDescription_GetDeviceDescriptions);
  _PJRT_API_STRUCT_FIELD(PJRT_TopologyDescription_Serialize);
  _PJRT_API_STRUCT_FIELD(PJRT_TopologyDescription_Attributes);

  _PJRT_API_STRUCT_FIELD(PJRT_Compile);

  /* Slots below were appended in later minor versions, in this order. */
  _PJRT_API_STRUCT_FIELD(PJRT_Executable_OutputElementTypes);
  _PJRT_API_STRUCT_FIELD(PJRT_Executable_OutputDimensions);

  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_CopyToMemory);

  _PJRT_API_STRUCT_FIELD(PJRT_Client_CreateViewOfDeviceBuffer);

  _PJRT_API_STRUCT_FIELD(PJRT_Executable_Fingerprint);

  _PJRT_API_STRUCT_FIELD(PJRT_Client_TopologyDescription);

  _PJRT_API_STRUCT_FIELD(PJRT_Executable_GetCompiledMemoryStats);

  _PJRT_API_STRUCT_FIELD(PJRT_Memory_Kind_Id);

  _PJRT_API_STRUCT_FIELD(PJRT_ExecuteContext_Create);
  _PJRT_API_STRUCT_FIELD(PJRT_ExecuteContext_Destroy);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_CopyRawToHost);
  _PJRT_API_STRUCT_FIELD(PJRT_AsyncHostToDeviceTransferManager_Destroy);
  _PJRT_API_STRUCT_FIELD(PJRT_AsyncHostToDeviceTransferManager_TransferData);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_CreateBuffersForAsyncHostToDevice);
  _PJRT_API_STRUCT_FIELD(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer);
  _PJRT_API_STRUCT_FIELD(PJRT_AsyncHostToDeviceTransferManager_Device);
  _PJRT_API_STRUCT_FIELD(PJRT_AsyncHostToDeviceTransferManager_BufferCount);
  _PJRT_API_STRUCT_FIELD(PJRT_AsyncHostToDeviceTransferManager_BufferSize);
  _PJRT_API_STRUCT_FIELD(PJRT_AsyncHostToDeviceTransferManager_SetBufferError);
  _PJRT_API_STRUCT_FIELD(PJRT_AsyncHostToDeviceTransferManager_AddMetadata);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_DmaMap);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_DmaUnmap);

  _PJRT_API_STRUCT_FIELD(PJRT_Client_CreateUninitializedBuffer);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_UpdateGlobalProcessInfo);
  _PJRT_API_STRUCT_FIELD(PJRT_TopologyDescription_Deserialize);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_CreateAliasBuffer);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_FulfillAliasBuffer);
  _PJRT_API_STRUCT_FIELD(PJRT_LoadedExecutable_GetDeviceAssignment);
  _PJRT_API_STRUCT_FIELD(PJRT_Client_CreateErrorBuffer);
  _PJRT_API_STRUCT_FIELD(PJRT_AsyncHostToDeviceTransferManager_TransferLiteral);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_CopyRawToHostFuture);
  _PJRT_API_STRUCT_FIELD(PJRT_Device_PoisonExecution);
  _PJRT_API_STRUCT_FIELD(PJRT_Device_CreateAsyncTrackingEvent);
  _PJRT_API_STRUCT_FIELD(PJRT_AsyncTrackingEvent_Destroy);
  _PJRT_API_STRUCT_FIELD(PJRT_Executable_GetCompileOptions);
  _PJRT_API_STRUCT_FIELD(PJRT_Buffer_DonateWithControlDependency);
  _PJRT_API_STRUCT_FIELD(PJRT_Event_Create);
  _PJRT_API_STRUCT_FIELD(PJRT_Event_Set);
  _PJRT_API_STRUCT_FIELD(PJRT_Device_GetAttributes);
} PJRT_Api;

enum {
  PJRT_Api_STRUCT_SIZE = PJRT_STRUCT_SIZE(PJRT_Api, PJRT_Device_GetAttributes)
};
PJRT_CHECK_STRUCT_SIZE(PJRT_Api, PJRT_Device_GetAttributes);

#undef _PJRT_API_STRUCT_FIELD

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PLUGRT_PJRT_C_API_H_ */
