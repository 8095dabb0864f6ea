/* plugrt: the plugin profiler C API, binary-compatible with upstream XLA's
 * xla/backends/profiler/plugin/profiler_c_api.h at PLUGIN_PROFILER_VERSION 1.
 *
 * A PJRT plugin that can profile hands out a PLUGIN_Profiler_Api table
 * (through PJRT_Profiler_Extension, plugrt/pjrt_profiler_extension.h). A
 * framework drives one collection through it:
 *
 *   create (serialized tensorflow.ProfileOptions, may be empty)
 *   -> start -> ...work... -> stop -> collect_data -> destroy
 *
 * collect_data yields a serialized XSpace (proto/xplane.proto). Failures come
 * back as a PLUGIN_Profiler_Error the caller owns: read it with
 * error_message / error_get_code (a StatusCode / PJRT_Error_Code value) and
 * free it with error_destroy.
 *
 * This header stands alone (it needs no PJRT header). Every argument struct
 * starts with struct_size, which the caller sets to the struct's
 * NAME_STRUCT_SIZE constant. Names, field order, types and values are
 * upstream's; the comments are plugrt's. Strict ISO C11 or C++. */
#ifndef PLUGRT_PROFILER_C_API_H_
#define PLUGRT_PROFILER_C_API_H_

#include <stddef.h>
#include <stdint.h>

/* Bytes up to the end of `last_field`: tail padding is not counted, so a
 * field appended later changes the value. */
#ifndef PROFILER_STRUCT_SIZE
#define PROFILER_STRUCT_SIZE(struct_type, last_field) \
  (offsetof(struct_type, last_field) + sizeof(((struct_type*)0)->last_field))
#endif

/* Compile-time proof that `last_field` is the struct's final member: the
 * whole struct is its STRUCT_SIZE rounded up to its alignment. */
#ifndef PROFILER_CHECK_STRUCT_SIZE
#ifdef __cplusplus
#define PROFILER_CHECK_STRUCT_SIZE(sname, last_field)                               \
  static_assert(sizeof(struct sname) ==                                             \
                    (PROFILER_STRUCT_SIZE(sname, last_field) + alignof(sname) - 1) / \
                        alignof(sname) * alignof(sname),                            \
                #last_field " is not the last field of " #sname)
#else
#define PROFILER_CHECK_STRUCT_SIZE(sname, last_field)                            \
  _Static_assert(sizeof(struct sname) ==                                         \
                     (PROFILER_STRUCT_SIZE(sname, last_field) +                  \
                      _Alignof(struct sname) - 1) /                              \
                         _Alignof(struct sname) * _Alignof(struct sname),       \
                 #last_field " is not the last field of " #sname)
#endif
#endif

/* The typedef `sname`, the constant `sname##_STRUCT_SIZE`, and the check
 * above. */
#ifndef PROFILER_DEFINE_STRUCT_TRAITS
#define PROFILER_DEFINE_STRUCT_TRAITS(sname, last_field)                  \
  typedef struct sname sname;                                             \
  enum { sname##_STRUCT_SIZE = PROFILER_STRUCT_SIZE(sname, last_field) }; \
  PROFILER_CHECK_STRUCT_SIZE(sname, last_field)
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define PLUGIN_PROFILER_VERSION 1

/* Opaque: one profiling collection, and one failure. */
typedef struct PLUGIN_Profiler PLUGIN_Profiler;
typedef struct PLUGIN_Profiler_Error PLUGIN_Profiler_Error;

/* ================================ Errors ================================ */

/* `priv` is reserved: callers pass NULL. */
struct PLUGIN_Profiler_Error_Destroy_Args {
  size_t struct_size;
  void* priv;
  PLUGIN_Profiler_Error* error; /* may be NULL (then nothing happens) */
};
PROFILER_DEFINE_STRUCT_TRAITS(PLUGIN_Profiler_Error_Destroy_Args, error);

typedef void PLUGIN_Profiler_Error_Destroy(PLUGIN_Profiler_Error_Destroy_Args* args);

struct PLUGIN_Profiler_Error_Message_Args {
  size_t struct_size;
  void* priv;
  const PLUGIN_Profiler_Error* error;
  const char* message; /* out; not NUL-terminated; valid while `error` is */
  size_t message_size; /* out */
};
PROFILER_DEFINE_STRUCT_TRAITS(PLUGIN_Profiler_Error_Message_Args, message_size);

typedef void PLUGIN_Profiler_Error_Message(PLUGIN_Profiler_Error_Message_Args* args);

struct PLUGIN_Profiler_Error_GetCode_Args {
  size_t struct_size;
  void* priv;
  const PLUGIN_Profiler_Error* error;
  int code; /* out: a status code (0 OK, 3 INVALID_ARGUMENT, ...) */
};
PROFILER_DEFINE_STRUCT_TRAITS(PLUGIN_Profiler_Error_GetCode_Args, code);

typedef PLUGIN_Profiler_Error* PLUGIN_Profiler_Error_GetCode(
    PLUGIN_Profiler_Error_GetCode_Args* args);

/* ============================== Lifecycle =============================== */

struct PLUGIN_Profiler_Create_Args {
  size_t struct_size;
  const char* options; /* serialized tensorflow.ProfileOptions */
  size_t options_size;
  PLUGIN_Profiler* profiler; /* out; release with destroy */
};
PROFILER_DEFINE_STRUCT_TRAITS(PLUGIN_Profiler_Create_Args, profiler);

typedef PLUGIN_Profiler_Error* PLUGIN_Profiler_Create(PLUGIN_Profiler_Create_Args* args);

struct PLUGIN_Profiler_Destroy_Args {
  size_t struct_size;
  PLUGIN_Profiler* profiler;
};
PROFILER_DEFINE_STRUCT_TRAITS(PLUGIN_Profiler_Destroy_Args, profiler);

typedef PLUGIN_Profiler_Error* PLUGIN_Profiler_Destroy(PLUGIN_Profiler_Destroy_Args* args);

struct PLUGIN_Profiler_Start_Args {
  size_t struct_size;
  PLUGIN_Profiler* profiler;
};
PROFILER_DEFINE_STRUCT_TRAITS(PLUGIN_Profiler_Start_Args, profiler);

typedef PLUGIN_Profiler_Error* PLUGIN_Profiler_Start(PLUGIN_Profiler_Start_Args* args);

struct PLUGIN_Profiler_Stop_Args {
  size_t struct_size;
  PLUGIN_Profiler* profiler;
};
PROFILER_DEFINE_STRUCT_TRAITS(PLUGIN_Profiler_Stop_Args, profiler);

typedef PLUGIN_Profiler_Error* PLUGIN_Profiler_Stop(PLUGIN_Profiler_Stop_Args* args);

/* Hands out the collection as a serialized XSpace. Two ways to call it:
 *  - buffer NULL: the profiler keeps the bytes and sets `buffer` to them and
 *    `buffer_size_in_bytes` to their length (the bytes live until the next
 *    collect_data or destroy). A caller that wants its own copy allocates
 *    that many bytes and calls again with
 *  - buffer set: the bytes are written there (it must hold
 *    buffer_size_in_bytes, as the first call reported them). */
struct PLUGIN_Profiler_CollectData_Args {
  size_t struct_size;
  PLUGIN_Profiler* profiler;
  uint8_t* buffer;             /* in/out */
  size_t buffer_size_in_bytes; /* out */
};
PROFILER_DEFINE_STRUCT_TRAITS(PLUGIN_Profiler_CollectData_Args, buffer_size_in_bytes);

typedef PLUGIN_Profiler_Error* PLUGIN_Profiler_CollectData(
    PLUGIN_Profiler_CollectData_Args* args);

/* ================================ Table ================================= */

/* struct_size is PLUGIN_Profiler_Api_STRUCT_SIZE of the plugin's header:
 * entries past it are absent. `priv` is the plugin's own. */
typedef struct PLUGIN_Profiler_Api {
  size_t struct_size;
  void* priv;
  PLUGIN_Profiler_Error_Destroy* error_destroy;
  PLUGIN_Profiler_Error_Message* error_message;
  PLUGIN_Profiler_Error_GetCode* error_get_code;
  PLUGIN_Profiler_Create* create;
  PLUGIN_Profiler_Destroy* destroy;
  PLUGIN_Profiler_Start* start;
  PLUGIN_Profiler_Stop* stop;
  PLUGIN_Profiler_CollectData* collect_data;
} PLUGIN_Profiler_Api;
PROFILER_DEFINE_STRUCT_TRAITS(PLUGIN_Profiler_Api, collect_data);

#ifdef __cplusplus
}
#endif

#endif /* PLUGRT_PROFILER_C_API_H_ */
