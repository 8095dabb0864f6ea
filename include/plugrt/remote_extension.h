/* plugrt: the remote plugin's own PJRT extension (libplugrt_remote.so,
 * plugins/remote/), for callers that hold a client of it and must end its
 * worker context before every buffer is gone (the eager layer, when a new
 * cluster spec drops a task).
 *
 * plugrt's extensions have no upstream type number: this one is the entry of
 * the PJRT_Api's extension chain whose type is PJRT_Extension_Type_Unknown
 * and whose `name` is PLUGRT_REMOTE_EXTENSION_NAME. Read `type` as an int
 * (other plugins may link entries of types this header does not know). */
#ifndef PLUGRT_REMOTE_EXTENSION_H_
#define PLUGRT_REMOTE_EXTENSION_H_

#include <stddef.h>

#include "pjrt_c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PLUGRT_REMOTE_EXTENSION_NAME "plugrt_remote"
#define PLUGRT_REMOTE_EXTENSION_VERSION 2

/* Closes the client's worker context now: the worker frees its buffers and
 * executables, and the client's heartbeats stop. Every later call on the
 * client, its buffers or its executables fails at once with
 * FAILED_PRECONDITION naming the worker; destroying them stays the caller's
 * job (and is always safe). Idempotent. */
struct PLUGRT_Remote_Client_Close_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
};
PJRT_DEFINE_STRUCT_TRAITS(PLUGRT_Remote_Client_Close_Args, client);

typedef PJRT_Error* PLUGRT_Remote_Client_Close(PLUGRT_Remote_Client_Close_Args* args);

/* Whether the client's worker context is usable: no error while the worker
 * answers its heartbeats; UNAVAILABLE naming the worker once it has stopped
 * answering (it died, restarted, or dropped the context), FAILED_PRECONDITION
 * once the client was closed. Asks nothing of the worker (version 2). */
struct PLUGRT_Remote_Client_Status_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Client* client;
};
PJRT_DEFINE_STRUCT_TRAITS(PLUGRT_Remote_Client_Status_Args, client);

typedef PJRT_Error* PLUGRT_Remote_Client_Status(PLUGRT_Remote_Client_Status_Args* args);

struct PLUGRT_Remote_Extension {
  PJRT_Extension_Base base; /* type PJRT_Extension_Type_Unknown */
  const char* name;         /* PLUGRT_REMOTE_EXTENSION_NAME */
  int version;              /* PLUGRT_REMOTE_EXTENSION_VERSION */
  PLUGRT_Remote_Client_Close* client_close;
  PLUGRT_Remote_Client_Status* client_status; /* version 2 */
};
PJRT_DEFINE_STRUCT_TRAITS(PLUGRT_Remote_Extension, client_status);
/* The size of a version-1 extension, which ends at client_close. */
#define PLUGRT_Remote_Extension_V1_STRUCT_SIZE \
  PJRT_STRUCT_SIZE(PLUGRT_Remote_Extension, client_close)

#ifdef __cplusplus
}
#endif

#endif /* PLUGRT_REMOTE_EXTENSION_H_ */
