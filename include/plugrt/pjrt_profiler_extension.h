/* plugrt: PJRT's profiler extension, binary-compatible with upstream XLA's
 * xla/pjrt/c/pjrt_c_api_profiler_extension.h at extension version 1.
 *
 * The struct plays two parts:
 *  - In the PJRT_Api's extension chain (api->extension_start, type
 *    PJRT_Extension_Type_Profiler) it carries the plugin's profiler table
 *    (plugrt/profiler_c_api.h): a framework creates, starts, stops and
 *    collects a profile through it and receives serialized XSpace bytes.
 *  - In the extension chain of a call's argument struct (an execute's, for
 *    one) it passes the caller's trace context id in `traceme_context_id`,
 *    so that the plugin's events can be tied to the caller's; there
 *    `profiler_api` may be NULL.
 *
 * Names, field order, types and values are upstream's; the comments are
 * plugrt's. */
#ifndef PLUGRT_PJRT_PROFILER_EXTENSION_H_
#define PLUGRT_PJRT_PROFILER_EXTENSION_H_

#include <stddef.h>
#include <stdint.h>

#include "pjrt_c_api.h"
#include "profiler_c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PJRT_API_PROFILER_EXTENSION_VERSION 1

typedef struct PJRT_Profiler_Extension {
  PJRT_Extension_Base base;          /* type: PJRT_Extension_Type_Profiler */
  PLUGIN_Profiler_Api* profiler_api; /* NULL allowed in an argument chain */
  int64_t traceme_context_id;        /* read only in an argument chain */
} PJRT_Profiler_Extension;
PJRT_DEFINE_STRUCT_TRAITS(PJRT_Profiler_Extension, traceme_context_id);

#ifdef __cplusplus
}
#endif

#endif /* PLUGRT_PJRT_PROFILER_EXTENSION_H_ */
