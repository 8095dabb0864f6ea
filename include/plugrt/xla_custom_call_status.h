/* plugrt: XLA's status object for untyped ("legacy") custom calls, with the
 * names and signatures of upstream XLA's xla/service/custom_call_status.h.
 *
 * A custom call with `api_version = 2` (STATUS_RETURNING) or 3
 * (STATUS_RETURNING_UNIFIED) receives an XlaCustomCallStatus* as its last
 * argument. The handler leaves it alone on success, or calls
 * XlaCustomCallStatusSetFailure; the execution then fails with INTERNAL and
 * the handler's message. The CPU plugin (libplugrt_cpu.so) exports both
 * functions; the object itself is the runtime's, opaque to the handler and
 * valid during the call only.
 *
 * The calling conventions on CPU (what XLA's CPU backend does):
 *   api_version 1: void fn(void* out, const void** in);
 *   api_version 2: void fn(void* out, const void** in, XlaCustomCallStatus*);
 *   api_version 3: void fn(void* out, const void** in, const char* opaque,
 *                          size_t opaque_len, XlaCustomCallStatus*);
 * `in` holds one pointer per operand; `out` is the result's buffer when the
 * call has exactly one result, otherwise an array of one pointer per result.
 * `opaque` is the call's backend_config string. */
#ifndef PLUGRT_XLA_CUSTOM_CALL_STATUS_H_
#define PLUGRT_XLA_CUSTOM_CALL_STATUS_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct XlaCustomCallStatus_ XlaCustomCallStatus;

/* Marks the call successful (clears an earlier failure). */
void XlaCustomCallStatusSetSuccess(XlaCustomCallStatus* status);

/* Marks the call failed with a copy of `message`: its first `message_len`
 * bytes, or up to its NUL, whichever comes first. */
void XlaCustomCallStatusSetFailure(XlaCustomCallStatus* status, const char* message,
                                   size_t message_len);

#ifdef __cplusplus
}
#endif

#endif /* PLUGRT_XLA_CUSTOM_CALL_STATUS_H_ */
