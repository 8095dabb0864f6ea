/* The profiler headers (include/plugrt/profiler_c_api.h,
 * include/plugrt/pjrt_profiler_extension.h) compile as strict ISO C11, and
 * their layout is upstream's: the sizes and offsets below are those of
 * XLA's profiler_c_api.h (PLUGIN_PROFILER_VERSION 1) and
 * pjrt_c_api_profiler_extension.h (extension version 1) on a 64-bit target
 * (x86-64, aarch64). A small table in C then drives one collection through
 * the function-pointer types, as a framework would. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "plugrt/pjrt_profiler_extension.h"
#include "plugrt/profiler_c_api.h"

_Static_assert(PJRT_Extension_Type_Profiler == 1, "upstream's enum value");
_Static_assert(PLUGIN_PROFILER_VERSION == 1, "table version");
_Static_assert(PJRT_API_PROFILER_EXTENSION_VERSION == 1, "extension version");

#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(PLUGIN_Profiler_Error_Destroy_Args) == 24, "");
_Static_assert(PLUGIN_Profiler_Error_Destroy_Args_STRUCT_SIZE == 24, "");
_Static_assert(offsetof(PLUGIN_Profiler_Error_Destroy_Args, priv) == 8, "");
_Static_assert(offsetof(PLUGIN_Profiler_Error_Destroy_Args, error) == 16, "");

_Static_assert(sizeof(PLUGIN_Profiler_Error_Message_Args) == 40, "");
_Static_assert(PLUGIN_Profiler_Error_Message_Args_STRUCT_SIZE == 40, "");
_Static_assert(offsetof(PLUGIN_Profiler_Error_Message_Args, error) == 16, "");
_Static_assert(offsetof(PLUGIN_Profiler_Error_Message_Args, message) == 24, "");
_Static_assert(offsetof(PLUGIN_Profiler_Error_Message_Args, message_size) == 32, "");

/* `code` is an int: 28 bytes used, padded to 32. */
_Static_assert(sizeof(PLUGIN_Profiler_Error_GetCode_Args) == 32, "");
_Static_assert(PLUGIN_Profiler_Error_GetCode_Args_STRUCT_SIZE == 28, "");
_Static_assert(offsetof(PLUGIN_Profiler_Error_GetCode_Args, code) == 24, "");

_Static_assert(sizeof(PLUGIN_Profiler_Create_Args) == 32, "");
_Static_assert(PLUGIN_Profiler_Create_Args_STRUCT_SIZE == 32, "");
_Static_assert(offsetof(PLUGIN_Profiler_Create_Args, options) == 8, "");
_Static_assert(offsetof(PLUGIN_Profiler_Create_Args, options_size) == 16, "");
_Static_assert(offsetof(PLUGIN_Profiler_Create_Args, profiler) == 24, "");

_Static_assert(PLUGIN_Profiler_Destroy_Args_STRUCT_SIZE == 16, "");
_Static_assert(PLUGIN_Profiler_Start_Args_STRUCT_SIZE == 16, "");
_Static_assert(PLUGIN_Profiler_Stop_Args_STRUCT_SIZE == 16, "");
_Static_assert(offsetof(PLUGIN_Profiler_Stop_Args, profiler) == 8, "");

_Static_assert(sizeof(PLUGIN_Profiler_CollectData_Args) == 32, "");
_Static_assert(PLUGIN_Profiler_CollectData_Args_STRUCT_SIZE == 32, "");
_Static_assert(offsetof(PLUGIN_Profiler_CollectData_Args, profiler) == 8, "");
_Static_assert(offsetof(PLUGIN_Profiler_CollectData_Args, buffer) == 16, "");
_Static_assert(offsetof(PLUGIN_Profiler_CollectData_Args, buffer_size_in_bytes) == 24, "");

/* Two words, then eight entries in upstream's order. */
_Static_assert(sizeof(PLUGIN_Profiler_Api) == 80, "");
_Static_assert(PLUGIN_Profiler_Api_STRUCT_SIZE == 80, "");
_Static_assert(offsetof(PLUGIN_Profiler_Api, priv) == 8, "");
_Static_assert(offsetof(PLUGIN_Profiler_Api, error_destroy) == 16, "");
_Static_assert(offsetof(PLUGIN_Profiler_Api, error_message) == 24, "");
_Static_assert(offsetof(PLUGIN_Profiler_Api, error_get_code) == 32, "");
_Static_assert(offsetof(PLUGIN_Profiler_Api, create) == 40, "");
_Static_assert(offsetof(PLUGIN_Profiler_Api, destroy) == 48, "");
_Static_assert(offsetof(PLUGIN_Profiler_Api, start) == 56, "");
_Static_assert(offsetof(PLUGIN_Profiler_Api, stop) == 64, "");
_Static_assert(offsetof(PLUGIN_Profiler_Api, collect_data) == 72, "");

/* The base (size, type, next: 24 bytes), the table, the context id. */
_Static_assert(sizeof(PJRT_Profiler_Extension) == 40, "");
_Static_assert(PJRT_Profiler_Extension_STRUCT_SIZE == 40, "");
_Static_assert(offsetof(PJRT_Profiler_Extension, base.type) == 8, "");
_Static_assert(offsetof(PJRT_Profiler_Extension, base.next) == 16, "");
_Static_assert(offsetof(PJRT_Profiler_Extension, profiler_api) == 24, "");
_Static_assert(offsetof(PJRT_Profiler_Extension, traceme_context_id) == 32, "");
#endif

/* ---- a toy profiler: "collects" a fixed byte string ---- */

struct PLUGIN_Profiler {
  int running;
  int started;
  uint8_t data[4];
};
struct PLUGIN_Profiler_Error {
  int code;
  const char* message;
};

static struct PLUGIN_Profiler the_profiler;
static struct PLUGIN_Profiler_Error not_running = {9, "not stopped"};

static void ErrorDestroy(PLUGIN_Profiler_Error_Destroy_Args* args) { (void)args; }
static void ErrorMessage(PLUGIN_Profiler_Error_Message_Args* args) {
  args->message = args->error->message;
  args->message_size = strlen(args->error->message);
}
static PLUGIN_Profiler_Error* ErrorGetCode(PLUGIN_Profiler_Error_GetCode_Args* args) {
  args->code = args->error->code;
  return NULL;
}
static PLUGIN_Profiler_Error* Create(PLUGIN_Profiler_Create_Args* args) {
  memset(&the_profiler, 0, sizeof the_profiler);
  memcpy(the_profiler.data, "\x0a\x00\x12\x00", 4);
  args->profiler = &the_profiler;
  return NULL;
}
static PLUGIN_Profiler_Error* Destroy(PLUGIN_Profiler_Destroy_Args* args) {
  args->profiler->running = 0;
  return NULL;
}
static PLUGIN_Profiler_Error* Start(PLUGIN_Profiler_Start_Args* args) {
  args->profiler->running = 1;
  args->profiler->started = 1;
  return NULL;
}
static PLUGIN_Profiler_Error* Stop(PLUGIN_Profiler_Stop_Args* args) {
  args->profiler->running = 0;
  return NULL;
}
static PLUGIN_Profiler_Error* CollectData(PLUGIN_Profiler_CollectData_Args* args) {
  if (args->profiler->running || !args->profiler->started) return &not_running;
  if (args->buffer == NULL) {
    args->buffer = args->profiler->data;
  } else {
    memcpy(args->buffer, args->profiler->data, sizeof args->profiler->data);
  }
  args->buffer_size_in_bytes = sizeof args->profiler->data;
  return NULL;
}

static PLUGIN_Profiler_Api api = {
    PLUGIN_Profiler_Api_STRUCT_SIZE, NULL, ErrorDestroy, ErrorMessage, ErrorGetCode,
    Create, Destroy, Start, Stop, CollectData};

int main(void) {
  int failures = 0;
  PJRT_Profiler_Extension extension;
  const PJRT_Extension_Base* chain;
  const PLUGIN_Profiler_Api* table;
  PLUGIN_Profiler_Create_Args create;
  PLUGIN_Profiler_Start_Args start;
  PLUGIN_Profiler_Stop_Args stop;
  PLUGIN_Profiler_CollectData_Args collect;
  PLUGIN_Profiler_Destroy_Args destroy;
  PLUGIN_Profiler_Error* error;
  uint8_t copy[4] = {0};

  memset(&extension, 0, sizeof extension);
  extension.base.struct_size = PJRT_Profiler_Extension_STRUCT_SIZE;
  extension.base.type = PJRT_Extension_Type_Profiler;
  extension.base.next = NULL;
  extension.profiler_api = &api;

  /* Find the table the way a framework walks an extension chain. */
  chain = &extension.base;
  while (chain != NULL && chain->type != PJRT_Extension_Type_Profiler) chain = chain->next;
  failures += chain == NULL;
  if (chain == NULL) return 1;
  table = ((const PJRT_Profiler_Extension*)chain)->profiler_api;
  failures += table->struct_size < PLUGIN_Profiler_Api_STRUCT_SIZE;

  memset(&create, 0, sizeof create);
  create.struct_size = PLUGIN_Profiler_Create_Args_STRUCT_SIZE;
  failures += table->create(&create) != NULL || create.profiler == NULL;

  /* Collecting before a start fails, with a code and a message. */
  memset(&collect, 0, sizeof collect);
  collect.struct_size = PLUGIN_Profiler_CollectData_Args_STRUCT_SIZE;
  collect.profiler = create.profiler;
  error = table->collect_data(&collect);
  failures += error == NULL;
  if (error != NULL) {
    PLUGIN_Profiler_Error_GetCode_Args code = {PLUGIN_Profiler_Error_GetCode_Args_STRUCT_SIZE,
                                               NULL, error, 0};
    PLUGIN_Profiler_Error_Message_Args message = {
        PLUGIN_Profiler_Error_Message_Args_STRUCT_SIZE, NULL, error, NULL, 0};
    PLUGIN_Profiler_Error_Destroy_Args free_error = {
        PLUGIN_Profiler_Error_Destroy_Args_STRUCT_SIZE, NULL, error};
    failures += table->error_get_code(&code) != NULL || code.code != 9;
    table->error_message(&message);
    failures += message.message_size != 11 || memcmp(message.message, "not stopped", 11) != 0;
    table->error_destroy(&free_error);
  }

  start.struct_size = PLUGIN_Profiler_Start_Args_STRUCT_SIZE;
  start.profiler = create.profiler;
  failures += table->start(&start) != NULL;
  stop.struct_size = PLUGIN_Profiler_Stop_Args_STRUCT_SIZE;
  stop.profiler = create.profiler;
  failures += table->stop(&stop) != NULL;

  /* First call: the plugin's bytes; second: into the caller's buffer. */
  collect.buffer = NULL;
  failures += table->collect_data(&collect) != NULL;
  failures += collect.buffer == NULL || collect.buffer_size_in_bytes != 4;
  collect.buffer = copy;
  failures += table->collect_data(&collect) != NULL;
  failures += memcmp(copy, "\x0a\x00\x12\x00", 4) != 0;

  destroy.struct_size = PLUGIN_Profiler_Destroy_Args_STRUCT_SIZE;
  destroy.profiler = create.profiler;
  failures += table->destroy(&destroy) != NULL;

  if (failures != 0) fprintf(stderr, "%d checks failed\n", failures);
  return failures == 0 ? 0 : 1;
}
