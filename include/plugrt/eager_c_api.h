/* plugrt eager C API: ops run one at a time on tensors that live on devices of
 * any PJRT plugin, custom devices defined by callbacks, and the parallel
 * device. A C wrapper of the C++ eager layer (the headers of src/eager/),
 * which define what every call does; this header says how the C side is
 * shaped.
 *
 * Conventions:
 *  - Handles are opaque. Each PLUGRT_EagerNew... / returned handle is owned
 *    by the caller and freed with the matching PLUGRT_EagerDelete...; a
 *    handle marked "borrowed" lives as long as its owner.
 *  - Calls that can fail take a PLUGRT_EagerStatus* last and set it (OK or
 *    the error); their results are NULL / 0 on error.
 *  - Strings are NUL-terminated UTF-8 unless a length is given.
 *  - Element types are PJRT's (PJRT_Buffer_Type, pjrt_c_api.h).
 *  - Versioned structs begin with struct_size: set it to the matching
 *    ..._STRUCT_SIZE macro of the header you compile against.
 *
 *   PLUGRT_EagerStatus* s = PLUGRT_EagerNewStatus();
 *   PLUGRT_EagerContextOptions o = {
 *       .struct_size = PLUGRT_EagerContextOptions_STRUCT_SIZE,
 *       .plugin_path = "build/lib/libplugrt_cpu.so"};
 *   PLUGRT_EagerContext* ctx = PLUGRT_EagerNewContext(&o, s);
 *   float v[3] = {1, 2, 3}; int64_t n = 3;
 *   PLUGRT_EagerTensorHandle* a = PLUGRT_EagerNewTensorHandle(
 *       ctx, v, PJRT_Buffer_Type_F32, &n, 1, NULL, s);
 *   PLUGRT_EagerOp* add = PLUGRT_EagerNewOp(ctx, "stablehlo.add", s);
 *   PLUGRT_EagerOpAddInput(add, a, s); PLUGRT_EagerOpAddInput(add, a, s);
 *   PLUGRT_EagerTensorHandle* out[1]; int num = 1;
 *   PLUGRT_EagerExecute(add, out, &num, s);      (out[0] holds 2, 4, 6)
 */
#ifndef PLUGRT_EAGER_C_API_H_
#define PLUGRT_EAGER_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "pjrt_c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The struct size up to and including `last_field`. */
#define PLUGRT_EAGER_STRUCT_SIZE(type, last_field) \
  (offsetof(type, last_field) + sizeof(((type*)0)->last_field))

typedef struct PLUGRT_EagerStatus PLUGRT_EagerStatus;
typedef struct PLUGRT_EagerContext PLUGRT_EagerContext;
typedef struct PLUGRT_EagerExecutor PLUGRT_EagerExecutor;
typedef struct PLUGRT_EagerOp PLUGRT_EagerOp;
typedef struct PLUGRT_EagerTensorHandle PLUGRT_EagerTensorHandle;
typedef struct PLUGRT_EagerCustomDevice PLUGRT_EagerCustomDevice;

/* ---- status ------------------------------------------------------------ */

/* The codes of plugrt's Status (common/status.h), which are gRPC's. */
typedef enum {
  PLUGRT_EAGER_OK = 0,
  PLUGRT_EAGER_CANCELLED = 1,
  PLUGRT_EAGER_UNKNOWN = 2,
  PLUGRT_EAGER_INVALID_ARGUMENT = 3,
  PLUGRT_EAGER_DEADLINE_EXCEEDED = 4,
  PLUGRT_EAGER_NOT_FOUND = 5,
  PLUGRT_EAGER_ALREADY_EXISTS = 6,
  PLUGRT_EAGER_PERMISSION_DENIED = 7,
  PLUGRT_EAGER_RESOURCE_EXHAUSTED = 8,
  PLUGRT_EAGER_FAILED_PRECONDITION = 9,
  PLUGRT_EAGER_ABORTED = 10,
  PLUGRT_EAGER_OUT_OF_RANGE = 11,
  PLUGRT_EAGER_UNIMPLEMENTED = 12,
  PLUGRT_EAGER_INTERNAL = 13,
  PLUGRT_EAGER_UNAVAILABLE = 14,
  PLUGRT_EAGER_DATA_LOSS = 15,
  PLUGRT_EAGER_UNAUTHENTICATED = 16
} PLUGRT_EagerCode;

PLUGRT_EagerStatus* PLUGRT_EagerNewStatus(void);
void PLUGRT_EagerDeleteStatus(PLUGRT_EagerStatus* status);
PLUGRT_EagerCode PLUGRT_EagerGetCode(const PLUGRT_EagerStatus* status);
/* Borrowed: valid until the status is next set or deleted. */
const char* PLUGRT_EagerMessage(const PLUGRT_EagerStatus* status);
/* For callbacks reporting an error (or OK with an empty message). */
void PLUGRT_EagerSetStatus(PLUGRT_EagerStatus* status, PLUGRT_EagerCode code,
                           const char* message);

/* ---- context and executor ------------------------------------------------ */

typedef enum {
  PLUGRT_EAGER_PLACEMENT_COPY = 0, /* copy inputs to the op's device */
  PLUGRT_EAGER_PLACEMENT_WARN = 1, /* copy, and log a warning per copy (PLUGRT_LOG_LEVEL=warning shows it) */
  PLUGRT_EAGER_PLACEMENT_REFUSE = 2 /* an error naming both devices */
} PLUGRT_EagerPlacementPolicy;

typedef struct {
  size_t struct_size;
  /* The PJRT plugin to load (a shared library path). */
  const char* plugin_path;
  /* Integer create options for PJRT_Client_Create ("cpu_device_count"). */
  const char* const* int_option_names;
  const int64_t* int_option_values;
  size_t num_int_options;
  PLUGRT_EagerPlacementPolicy placement;
  int async;             /* nonzero: the asynchronous executor */
  size_t cache_capacity; /* compiled op programs kept; 0: the default */
} PLUGRT_EagerContextOptions;
#define PLUGRT_EagerContextOptions_STRUCT_SIZE \
  PLUGRT_EAGER_STRUCT_SIZE(PLUGRT_EagerContextOptions, cache_capacity)

PLUGRT_EagerContext* PLUGRT_EagerNewContext(const PLUGRT_EagerContextOptions* options,
                                            PLUGRT_EagerStatus* status);
/* Waits for queued work, deletes the custom devices, then the context.
 * Tensor handles may outlive it. */
void PLUGRT_EagerDeleteContext(PLUGRT_EagerContext* ctx);

/* The physical devices, named "<kind>:<index>" ("cpu:0"), then those of the
 * cluster's remote tasks, "/job:JOB/task:T/device:KIND:N"; names borrowed
 * (until the next PLUGRT_EagerContextSetClusterSpec). */
int PLUGRT_EagerContextNumDevices(const PLUGRT_EagerContext* ctx);
const char* PLUGRT_EagerContextDeviceName(const PLUGRT_EagerContext* ctx, int index);
const char* PLUGRT_EagerContextDefaultDevice(const PLUGRT_EagerContext* ctx);
void PLUGRT_EagerContextSetDefaultDevice(PLUGRT_EagerContext* ctx, const char* device,
                                         PLUGRT_EagerStatus* status);
void PLUGRT_EagerContextSetPlacementPolicy(PLUGRT_EagerContext* ctx,
                                           PLUGRT_EagerPlacementPolicy policy,
                                           PLUGRT_EagerStatus* status);
/* ---- cluster of remote tasks (after TFE_ContextSetServerDef) ------------- */

typedef enum {
  /* A new cluster: every remote task's client is released and new ones are
   * made; tensors on the old tasks fail with an error saying so. */
  PLUGRT_EAGER_CLUSTER_RESET = 0,
  /* Tasks added or removed: unchanged tasks (same job, index and address)
   * keep their clients and tensors. */
  PLUGRT_EAGER_CLUSTER_UPDATE = 1
} PLUGRT_EagerClusterUpdate;

typedef struct {
  size_t struct_size;
  /* The remote PJRT plugin, a name or a path; NULL: "remote"
   * (libplugrt_remote.so found by plugin discovery). */
  const char* plugin;
  /* The workers' token file; NULL or "": $PLUGRT_REMOTE_TOKEN_FILE, else
   * $PLUGRT_REMOTE_TOKEN. */
  const char* token_file;
  /* A worker drops a context after this long without traffic; the client
   * sends heartbeats meanwhile and reports a dead worker within it. 0: 60. */
  int64_t keep_alive_secs;
} PLUGRT_EagerRemoteOptions;
#define PLUGRT_EagerRemoteOptions_STRUCT_SIZE \
  PLUGRT_EAGER_STRUCT_SIZE(PLUGRT_EagerRemoteOptions, keep_alive_secs)

/* Sets the cluster whose remote devices join the context's: `spec` is
 * "JOB=HOST:PORT,HOST:PORT;JOB=HOST:PORT" (each job's tasks numbered from 0
 * in order; "" removes every remote task). `options` may be NULL (the
 * defaults). Waits for queued ops first. On error the cluster is unchanged.
 * Not to be called while another thread runs ops on the context. */
void PLUGRT_EagerContextSetClusterSpec(PLUGRT_EagerContext* ctx, const char* spec,
                                       PLUGRT_EagerClusterUpdate mode,
                                       const PLUGRT_EagerRemoteOptions* options,
                                       PLUGRT_EagerStatus* status);

/* StableHLO functions (a module or bare func.func definitions): each becomes
 * an op by its name and a region for reduce/sort/while/scatter. */
void PLUGRT_EagerContextLoadFunctions(PLUGRT_EagerContext* ctx, const char* text,
                                      PLUGRT_EagerStatus* status);

typedef struct {
  size_t struct_size;
  int64_t hits;
  int64_t misses;
  int64_t evictions;
  size_t entries;
  size_t capacity;
} PLUGRT_EagerCacheStats;
#define PLUGRT_EagerCacheStats_STRUCT_SIZE \
  PLUGRT_EAGER_STRUCT_SIZE(PLUGRT_EagerCacheStats, capacity)
/* Fills `stats` (its struct_size set by the caller). */
void PLUGRT_EagerContextGetCacheStats(const PLUGRT_EagerContext* ctx,
                                      PLUGRT_EagerCacheStats* stats);
void PLUGRT_EagerContextClearCache(PLUGRT_EagerContext* ctx);

/* The context's executor (borrowed, lives with the context). */
PLUGRT_EagerExecutor* PLUGRT_EagerContextGetExecutor(PLUGRT_EagerContext* ctx);
int PLUGRT_EagerExecutorIsAsync(const PLUGRT_EagerExecutor* executor);
/* Switches between the synchronous and asynchronous executor after waiting
 * for queued work; `status`: that work's first error. */
void PLUGRT_EagerExecutorSetAsync(PLUGRT_EagerExecutor* executor, int async,
                                  PLUGRT_EagerStatus* status);
/* Waits for all queued ops; the first error since the last wait. */
void PLUGRT_EagerExecutorWait(PLUGRT_EagerExecutor* executor, PLUGRT_EagerStatus* status);

/* ---- tensor handles ---------------------------------------------------- */

/* A copy of dense row-major host data (one element per byte for sub-byte
 * types) on `device` (NULL: the default device; a custom device's name: made
 * on the default device and copied there). */
PLUGRT_EagerTensorHandle* PLUGRT_EagerNewTensorHandle(PLUGRT_EagerContext* ctx, const void* data,
                                                      PJRT_Buffer_Type type, const int64_t* dims,
                                                      int num_dims, const char* device,
                                                      PLUGRT_EagerStatus* status);
/* Over `data` itself where the plugin can alias host memory, else over a
 * copy. `deallocator(data, arg)` runs exactly once, on some thread, when the
 * runtime no longer needs `data` (at once when the plugin copied or the call
 * failed). */
PLUGRT_EagerTensorHandle* PLUGRT_EagerNewTensorHandleZeroCopy(
    PLUGRT_EagerContext* ctx, void* data, PJRT_Buffer_Type type, const int64_t* dims, int num_dims,
    void (*deallocator)(void* data, void* arg), void* arg, const char* device,
    PLUGRT_EagerStatus* status);
void PLUGRT_EagerDeleteTensorHandle(PLUGRT_EagerTensorHandle* handle);
/* Another handle to the same tensor. */
PLUGRT_EagerTensorHandle* PLUGRT_EagerTensorHandleCopySharing(const PLUGRT_EagerTensorHandle* h);

/* Type queries wait until the op making the tensor has run. A custom
 * tensor's unknown sizes are -1. */
PJRT_Buffer_Type PLUGRT_EagerTensorHandleDataType(const PLUGRT_EagerTensorHandle* h,
                                                  PLUGRT_EagerStatus* status);
int PLUGRT_EagerTensorHandleNumDims(const PLUGRT_EagerTensorHandle* h, PLUGRT_EagerStatus* status);
int64_t PLUGRT_EagerTensorHandleDim(const PLUGRT_EagerTensorHandle* h, int index,
                                    PLUGRT_EagerStatus* status);
size_t PLUGRT_EagerTensorHandleOnDeviceSize(const PLUGRT_EagerTensorHandle* h,
                                            PLUGRT_EagerStatus* status);
/* Borrowed, lives with the handle. */
const char* PLUGRT_EagerTensorHandleDeviceName(const PLUGRT_EagerTensorHandle* h);
int PLUGRT_EagerTensorHandleIsReady(const PLUGRT_EagerTensorHandle* h);
/* Waits until the data exists; the error of the op that failed to make it. */
void PLUGRT_EagerTensorHandleAwait(const PLUGRT_EagerTensorHandle* h, PLUGRT_EagerStatus* status);
/* Copies the dense row-major data into `dst` (`size` bytes exactly). A
 * custom device's tensor is copied off its device first. */
void PLUGRT_EagerTensorHandleToHost(const PLUGRT_EagerTensorHandle* h, void* dst, size_t size,
                                    PLUGRT_EagerStatus* status);
/* Starts that copy; `done(status, arg)` runs once, on any thread (`status`
 * is borrowed for the call). `dst` must stay valid until then. */
void PLUGRT_EagerTensorHandleToHostAsync(const PLUGRT_EagerTensorHandle* h, void* dst, size_t size,
                                         void (*done)(const PLUGRT_EagerStatus* status, void* arg),
                                         void* arg);
/* A copy on another device (physical or custom). */
PLUGRT_EagerTensorHandle* PLUGRT_EagerTensorHandleCopyToDevice(const PLUGRT_EagerTensorHandle* h,
                                                               PLUGRT_EagerContext* ctx,
                                                               const char* device,
                                                               PLUGRT_EagerStatus* status);
/* "f32[3] on cpu:0 [1, 2, 3]" (values shortened), written like snprintf:
 * at most `size` bytes with the NUL; returns the full length. */
size_t PLUGRT_EagerTensorHandleSummary(const PLUGRT_EagerTensorHandle* h, char* buffer,
                                       size_t size);

/* NumPy .npy files. */
PLUGRT_EagerTensorHandle* PLUGRT_EagerLoadNpy(PLUGRT_EagerContext* ctx, const char* path,
                                              const char* device, PLUGRT_EagerStatus* status);
void PLUGRT_EagerSaveNpy(PLUGRT_EagerContext* ctx, const PLUGRT_EagerTensorHandle* h,
                         const char* path, PLUGRT_EagerStatus* status);

/* ---- ops ------------------------------------------------------------------ */

/* A StableHLO op by name ("stablehlo.add"), a loaded function by its name,
 * or "plugrt.device_id". An unknown name is reported by the first call that
 * needs the op's signature. */
PLUGRT_EagerOp* PLUGRT_EagerNewOp(PLUGRT_EagerContext* ctx, const char* name,
                                  PLUGRT_EagerStatus* status);
void PLUGRT_EagerDeleteOp(PLUGRT_EagerOp* op);
/* Borrowed, live with the op. The device is "" when none was set. */
const char* PLUGRT_EagerOpGetName(const PLUGRT_EagerOp* op);
const char* PLUGRT_EagerOpGetDevice(const PLUGRT_EagerOp* op);
/* A physical or custom device's name; checked at execution. */
void PLUGRT_EagerOpSetDevice(PLUGRT_EagerOp* op, const char* device);

void PLUGRT_EagerOpAddInput(PLUGRT_EagerOp* op, const PLUGRT_EagerTensorHandle* input,
                            PLUGRT_EagerStatus* status);
void PLUGRT_EagerOpAddInputList(PLUGRT_EagerOp* op, const PLUGRT_EagerTensorHandle* const* inputs,
                                int num_inputs, PLUGRT_EagerStatus* status);
/* The inputs as added: groups (one per input of the op; a list input's
 * group has its length) and a new handle to one input. */
int PLUGRT_EagerOpNumInputGroups(const PLUGRT_EagerOp* op);
int PLUGRT_EagerOpInputGroupSize(const PLUGRT_EagerOp* op, int group);
/* Whether group `group` is a list input (added with AddInputList). */
int PLUGRT_EagerOpInputGroupIsList(const PLUGRT_EagerOp* op, int group);
PLUGRT_EagerTensorHandle* PLUGRT_EagerOpGetInput(const PLUGRT_EagerOp* op, int group, int index,
                                                 PLUGRT_EagerStatus* status);
/* The length of a named input or output list (1 for a single one), once the
 * attributes fix it. */
int64_t PLUGRT_EagerOpGetInputLength(const PLUGRT_EagerOp* op, const char* name,
                                     PLUGRT_EagerStatus* status);
int64_t PLUGRT_EagerOpGetOutputLength(const PLUGRT_EagerOp* op, const char* name,
                                      PLUGRT_EagerStatus* status);
int64_t PLUGRT_EagerOpNumOutputs(const PLUGRT_EagerOp* op, PLUGRT_EagerStatus* status);

/* Attributes. */
void PLUGRT_EagerOpSetAttrInt(PLUGRT_EagerOp* op, const char* name, int64_t value,
                              PLUGRT_EagerStatus* status);
void PLUGRT_EagerOpSetAttrFloat(PLUGRT_EagerOp* op, const char* name, double value,
                                PLUGRT_EagerStatus* status);
void PLUGRT_EagerOpSetAttrBool(PLUGRT_EagerOp* op, const char* name, int value,
                               PLUGRT_EagerStatus* status);
void PLUGRT_EagerOpSetAttrString(PLUGRT_EagerOp* op, const char* name, const char* value,
                                 size_t length, PLUGRT_EagerStatus* status);
void PLUGRT_EagerOpSetAttrType(PLUGRT_EagerOp* op, const char* name, PJRT_Buffer_Type value,
                               PLUGRT_EagerStatus* status);
void PLUGRT_EagerOpSetAttrShape(PLUGRT_EagerOp* op, const char* name, const int64_t* dims,
                                int num_dims, PLUGRT_EagerStatus* status);
void PLUGRT_EagerOpSetAttrIntList(PLUGRT_EagerOp* op, const char* name, const int64_t* values,
                                  int num_values, PLUGRT_EagerStatus* status);
void PLUGRT_EagerOpSetAttrFloatList(PLUGRT_EagerOp* op, const char* name, const double* values,
                                    int num_values, PLUGRT_EagerStatus* status);
void PLUGRT_EagerOpSetAttrBoolList(PLUGRT_EagerOp* op, const char* name,
                                   const unsigned char* values, int num_values,
                                   PLUGRT_EagerStatus* status);
void PLUGRT_EagerOpSetAttrStringList(PLUGRT_EagerOp* op, const char* name,
                                     const char* const* values, const size_t* lengths,
                                     int num_values, PLUGRT_EagerStatus* status);
void PLUGRT_EagerOpSetAttrTypeList(PLUGRT_EagerOp* op, const char* name,
                                   const PJRT_Buffer_Type* values, int num_values,
                                   PLUGRT_EagerStatus* status);
/* Shapes i: dims[i][0 .. num_dims[i]). */
void PLUGRT_EagerOpSetAttrShapeList(PLUGRT_EagerOp* op, const char* name,
                                    const int64_t* const* dims, const int* num_dims,
                                    int num_values, PLUGRT_EagerStatus* status);
/* A dense tensor (a constant's value): `size` bytes of dense row-major data. */
void PLUGRT_EagerOpSetAttrTensor(PLUGRT_EagerOp* op, const char* name, PJRT_Buffer_Type type,
                                 const int64_t* dims, int num_dims, const void* data, size_t size,
                                 PLUGRT_EagerStatus* status);
/* A region given by a loaded function. */
void PLUGRT_EagerOpSetAttrFunction(PLUGRT_EagerOp* op, const char* name, const char* function,
                                   PLUGRT_EagerStatus* status);
typedef enum {
  PLUGRT_EAGER_REDUCER_ADD = 0,
  PLUGRT_EAGER_REDUCER_MUL = 1,
  PLUGRT_EAGER_REDUCER_MAX = 2,
  PLUGRT_EAGER_REDUCER_MIN = 3,
  PLUGRT_EAGER_REDUCER_AND = 4,
  PLUGRT_EAGER_REDUCER_OR = 5
} PLUGRT_EagerReducer;
/* A region given by a built-in scalar combiner. */
void PLUGRT_EagerOpSetAttrReducer(PLUGRT_EagerOp* op, const char* name,
                                  PLUGRT_EagerReducer reducer, PLUGRT_EagerStatus* status);

/* Reading the attributes (as a custom device's execute does): their count,
 * the name of attribute `index` in name order and the kind of a named one
 * ("int", "float", "bool", "string", "element type", "shape", "list(int)",
 * ..., "dense tensor", "function", "reducer"), both borrowed (live with the
 * op); typed reads, INVALID_ARGUMENT naming the attribute when it is
 * missing or of another kind; and any attribute as text (lists and strings
 * shortened), written like snprintf. */
int PLUGRT_EagerOpNumAttrs(const PLUGRT_EagerOp* op);
const char* PLUGRT_EagerOpAttrName(const PLUGRT_EagerOp* op, int index);
const char* PLUGRT_EagerOpAttrKind(const PLUGRT_EagerOp* op, const char* name,
                                   PLUGRT_EagerStatus* status);
int64_t PLUGRT_EagerOpGetAttrInt(const PLUGRT_EagerOp* op, const char* name,
                                 PLUGRT_EagerStatus* status);
double PLUGRT_EagerOpGetAttrFloat(const PLUGRT_EagerOp* op, const char* name,
                                  PLUGRT_EagerStatus* status);
int PLUGRT_EagerOpGetAttrBool(const PLUGRT_EagerOp* op, const char* name,
                              PLUGRT_EagerStatus* status);
PJRT_Buffer_Type PLUGRT_EagerOpGetAttrType(const PLUGRT_EagerOp* op, const char* name,
                                           PLUGRT_EagerStatus* status);
/* The string's full length; at most `size` bytes (with a NUL) written. */
size_t PLUGRT_EagerOpGetAttrString(const PLUGRT_EagerOp* op, const char* name, char* buffer,
                                   size_t size, PLUGRT_EagerStatus* status);
/* The list's length; its first `capacity` values written. */
int PLUGRT_EagerOpGetAttrIntList(const PLUGRT_EagerOp* op, const char* name, int64_t* values,
                                 int capacity, PLUGRT_EagerStatus* status);
size_t PLUGRT_EagerOpAttrSummary(const PLUGRT_EagerOp* op, const char* name, char* buffer,
                                 size_t size, PLUGRT_EagerStatus* status);

/* Runs (or, under the async executor, enqueues) the op. `*num_outputs` is
 * the capacity of `outputs` on entry and the number filled on return (an
 * error when the op has more). The handles are the caller's. */
void PLUGRT_EagerExecute(PLUGRT_EagerOp* op, PLUGRT_EagerTensorHandle** outputs, int* num_outputs,
                         PLUGRT_EagerStatus* status);

/* ---- custom devices ----------------------------------------------------- */

/* A custom device's callbacks. The context routes to it the ops placed on it
 * and the ops with inputs on it (rules: src/eager/custom_device.h); every
 * callback gets `device_info` back. Callbacks that return a handle pass its
 * ownership to the context. */
typedef struct {
  size_t struct_size;
  void* device_info;
  /* A tensor of this device holding `tensor` (a physical device's). */
  PLUGRT_EagerTensorHandle* (*copy_tensor_to_device)(PLUGRT_EagerContext* ctx,
                                                     const PLUGRT_EagerTensorHandle* tensor,
                                                     PLUGRT_EagerStatus* status,
                                                     void* device_info);
  /* A tensor of physical device `target` holding `tensor` (this device's). */
  PLUGRT_EagerTensorHandle* (*copy_tensor_from_device)(PLUGRT_EagerContext* ctx,
                                                       const PLUGRT_EagerTensorHandle* tensor,
                                                       const char* target,
                                                       PLUGRT_EagerStatus* status,
                                                       void* device_info);
  /* Runs `op` (name, attributes, inputs, requested device: the op
   * accessors above; PLUGRT_EagerNewOpLike makes an op to run elsewhere).
   * `*num_outputs` is the capacity of `outputs` on entry, the number filled
   * on return. */
  void (*execute)(PLUGRT_EagerContext* ctx, const PLUGRT_EagerOp* op,
                  PLUGRT_EagerTensorHandle** outputs, int* num_outputs,
                  PLUGRT_EagerStatus* status, void* device_info);
  /* Deletes the device: with its context, or at once when registration
   * fails. */
  void (*delete_device)(void* device_info);
  /* Optional (NULL: the device cannot pack): many handles into one. */
  PLUGRT_EagerTensorHandle* (*pack)(PLUGRT_EagerContext* ctx,
                                    const PLUGRT_EagerTensorHandle* const* tensors,
                                    int num_tensors, PLUGRT_EagerStatus* status,
                                    void* device_info);
  /* Optional (NULL: never): whether `op`, with inputs on this and other
   * custom devices, shall run here (nonzero: yes). */
  int (*shall_pin_to_this_device)(const PLUGRT_EagerOp* op, PLUGRT_EagerStatus* status,
                                  void* device_info);
} PLUGRT_EagerCustomDeviceCallbacks;
/* The whole struct, and the smallest size accepted (through delete_device:
 * older callers without the optional callbacks). */
#define PLUGRT_EagerCustomDeviceCallbacks_STRUCT_SIZE \
  PLUGRT_EAGER_STRUCT_SIZE(PLUGRT_EagerCustomDeviceCallbacks, shall_pin_to_this_device)
#define PLUGRT_EagerCustomDeviceCallbacks_MIN_STRUCT_SIZE \
  PLUGRT_EAGER_STRUCT_SIZE(PLUGRT_EagerCustomDeviceCallbacks, delete_device)

/* Registers a custom device named `name` (new, not empty). Null required
 * callbacks, a struct_size below the minimum and a name in use are
 * INVALID_ARGUMENT / ALREADY_EXISTS errors. The returned handle is
 * borrowed: it lives with the context. */
PLUGRT_EagerCustomDevice* PLUGRT_EagerRegisterCustomDevice(
    PLUGRT_EagerContext* ctx, const char* name, const PLUGRT_EagerCustomDeviceCallbacks* callbacks,
    PLUGRT_EagerStatus* status);
const char* PLUGRT_EagerCustomDeviceName(const PLUGRT_EagerCustomDevice* device);

/* An op with `op`'s name and attributes, no inputs and no device, on `op`'s
 * context: how a custom device runs an op it was given elsewhere. */
PLUGRT_EagerOp* PLUGRT_EagerNewOpLike(const PLUGRT_EagerOp* op, PLUGRT_EagerStatus* status);

/* A custom device's tensor: `data` is the device's; `num_dims` and `dim`
 * give its shape (-1: a size not known), `summarize` (optional) its value
 * like snprintf, and `deallocator` (optional) runs exactly once, when the
 * last handle goes or when creation fails. */
typedef struct {
  size_t struct_size;
  int (*num_dims)(void* data, PLUGRT_EagerStatus* status);
  int64_t (*dim)(void* data, int index, PLUGRT_EagerStatus* status);
  size_t (*summarize)(void* data, char* buffer, size_t size);
  void (*deallocator)(void* data);
} PLUGRT_EagerCustomTensorMethods;
#define PLUGRT_EagerCustomTensorMethods_STRUCT_SIZE \
  PLUGRT_EAGER_STRUCT_SIZE(PLUGRT_EagerCustomTensorMethods, deallocator)

PLUGRT_EagerTensorHandle* PLUGRT_EagerNewCustomTensorHandle(
    PLUGRT_EagerContext* ctx, const char* device, PJRT_Buffer_Type type, void* data,
    const PLUGRT_EagerCustomTensorMethods* methods, PLUGRT_EagerStatus* status);
/* The `data` of a tensor made by PLUGRT_EagerNewCustomTensorHandle; NULL
 * for any other. */
void* PLUGRT_EagerTensorHandleCustomData(const PLUGRT_EagerTensorHandle* h);

/* The logging device (src/eager/logging_device.h): records each op routed to
 * it, then runs it on physical device `target`. */
PLUGRT_EagerCustomDevice* PLUGRT_EagerRegisterLoggingDevice(PLUGRT_EagerContext* ctx,
                                                            const char* name, const char* target,
                                                            PLUGRT_EagerStatus* status);
/* The ops it logged so far; the name is borrowed until the next call. -1 /
 * NULL for a device that is not a logging device. */
int PLUGRT_EagerLoggingDeviceNumOps(const PLUGRT_EagerCustomDevice* device);
const char* PLUGRT_EagerLoggingDeviceOpName(PLUGRT_EagerCustomDevice* device, int index);

/* ---- the parallel device ----------------------------------------------- */

/* One logical device over physical devices `components` (see
 * src/eager/parallel_device.h). Ops on it run on every component; ops with
 * collectives run as one program across them. */
PLUGRT_EagerCustomDevice* PLUGRT_EagerRegisterParallelDevice(PLUGRT_EagerContext* ctx,
                                                             const char* name,
                                                             const char* const* components,
                                                             int num_components,
                                                             PLUGRT_EagerStatus* status);
/* Many handles into one tensor of custom device `device` (its pack). */
PLUGRT_EagerTensorHandle* PLUGRT_EagerPack(PLUGRT_EagerContext* ctx,
                                           const PLUGRT_EagerTensorHandle* const* tensors,
                                           int num_tensors, const char* device,
                                           PLUGRT_EagerStatus* status);
/* The components of a parallel tensor: `*num_components` is the capacity of
 * `components` on entry, the number filled on return. */
void PLUGRT_EagerUnpack(const PLUGRT_EagerTensorHandle* h, PLUGRT_EagerTensorHandle** components,
                        int* num_components, PLUGRT_EagerStatus* status);

/* ---- variables -------------------------------------------------------------
 * A named slot holding a tensor (eager/variable.h). Reads of a trainable
 * variable are watched by the tapes of the reading thread
 * (plugrt/autodiff_c_api.h); ask the gradient for the value read. */
typedef struct PLUGRT_EagerVariable PLUGRT_EagerVariable;
/* A variable holding `initial` (the handle stays the caller's); nonzero
 * `trainable`: tapes watch its reads. NULL with the error on bad input. */
PLUGRT_EagerVariable* PLUGRT_EagerNewVariable(const char* name,
                                              const PLUGRT_EagerTensorHandle* initial,
                                              int trainable, PLUGRT_EagerStatus* status);
void PLUGRT_EagerDeleteVariable(PLUGRT_EagerVariable* variable);
/* The tensor it holds now, as a new handle (NULL for a NULL variable). */
PLUGRT_EagerTensorHandle* PLUGRT_EagerVariableValue(const PLUGRT_EagerVariable* variable);
/* Holds `value` from now on: INVALID_ARGUMENT if its element type or
 * dimensions differ from the variable's. */
void PLUGRT_EagerVariableAssign(PLUGRT_EagerVariable* variable,
                                const PLUGRT_EagerTensorHandle* value,
                                PLUGRT_EagerStatus* status);

#ifdef __cplusplus
}
#endif

#endif /* PLUGRT_EAGER_C_API_H_ */
