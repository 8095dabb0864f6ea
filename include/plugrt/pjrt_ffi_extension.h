/* plugrt: PJRT's FFI extension, binary-compatible with upstream XLA's
 * xla/pjrt/c/pjrt_c_api_ffi_extension.h at extension version 2.
 *
 * A framework finds this struct in the PJRT_Api's extension chain
 * (api->extension_start, type PJRT_Extension_Type_FFI) and registers XLA FFI
 * handlers (plugrt/xla_ffi_c_api.h) through it, by custom-call target name
 * and platform. plugrt's CPU plugin keeps the handlers for the process, as
 * XLA does: every client of the plugin sees them, and a program compiled
 * after the registration may call them: typed handlers with
 * `api_version = 4`, untyped functions with 1, 2 or 3.
 *
 * Names, field order, types and values are upstream's; the comments are
 * plugrt's. */
#ifndef PLUGRT_PJRT_FFI_EXTENSION_H_
#define PLUGRT_PJRT_FFI_EXTENSION_H_

#include <stddef.h>
#include <stdint.h>

#include "pjrt_c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PJRT_API_FFI_EXTENSION_VERSION 2

/* Registers a user type by name: type_id 0 asks for a new id (returned in
 * type_id); a nonzero id must equal the one the name already has. */
struct PJRT_FFI_TypeID_Register_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;

  const char* type_name;
  size_t type_name_size;
  int64_t type_id; /* in-out */
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_FFI_TypeID_Register_Args, type_id);

typedef PJRT_Error* PJRT_FFI_TypeID_Register(PJRT_FFI_TypeID_Register_Args* args);

/* Data for handlers of one execution, read with XLA_FFI_ExecutionContext_Get
 * by type id; `deleter` (may be NULL) runs when the context is destroyed. */
typedef struct PJRT_FFI_UserData {
  int64_t type_id;
  void* data;
  void (*deleter)(void* data);
} PJRT_FFI_UserData;

struct PJRT_FFI_UserData_Add_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;

  PJRT_ExecuteContext* context;
  PJRT_FFI_UserData user_data;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_FFI_UserData_Add_Args, user_data);

typedef PJRT_Error* PJRT_FFI_UserData_Add(PJRT_FFI_UserData_Add_Args* args);

typedef enum PJRT_FFI_Handler_TraitsBits {
  PJRT_FFI_HANDLER_TRAITS_COMMAND_BUFFER_COMPATIBLE = 1u << 0,
} PJRT_FFI_Handler_TraitsBits;

/* Note: no extension_start here, unlike most PJRT argument structs. */
struct PJRT_FFI_Register_Handler_Args {
  size_t struct_size;
  const char* target_name;
  size_t target_name_size;
  int api_version; /* 1: typed (XLA_FFI_Handler*), for custom calls with
                      api_version = 4; 0: untyped, a plain C function for
                      custom calls with api_version 1 to 3
                      (plugrt/xla_custom_call_status.h) */
  void* handler;   /* an XLA_FFI_Handler* or the untyped function */
  const char* platform_name;
  size_t platform_name_size;
  PJRT_FFI_Handler_TraitsBits traits;
};
PJRT_DEFINE_STRUCT_TRAITS(PJRT_FFI_Register_Handler_Args, traits);

typedef PJRT_Error* PJRT_FFI_Register_Handler(PJRT_FFI_Register_Handler_Args* args);

typedef struct PJRT_FFI_Extension {
  PJRT_Extension_Base base;
  PJRT_FFI_TypeID_Register* type_id_register;
  PJRT_FFI_UserData_Add* user_data_add;
  PJRT_FFI_Register_Handler* register_handler;
} PJRT_FFI;
PJRT_DEFINE_STRUCT_TRAITS(PJRT_FFI_Extension, register_handler);

#ifdef __cplusplus
}
#endif

#endif /* PLUGRT_PJRT_FFI_EXTENSION_H_ */
