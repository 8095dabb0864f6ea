// plugrt client (internal): the C callbacks that let a plugin use a
// KeyValueStore (user_arg is the KeyValueStore*).
#ifndef PLUGRT_CLIENT_KEY_VALUE_CALLBACKS_H_
#define PLUGRT_CLIENT_KEY_VALUE_CALLBACKS_H_

#include "pjrt_c_api.h"

namespace plugrt::internal {

PJRT_Error* KeyValueGetCallback(PJRT_KeyValueGetCallback_Args* args);
PJRT_Error* KeyValueTryGetCallback(PJRT_KeyValueTryGetCallback_Args* args);
PJRT_Error* KeyValuePutCallback(PJRT_KeyValuePutCallback_Args* args);

}  // namespace plugrt::internal

#endif  // PLUGRT_CLIENT_KEY_VALUE_CALLBACKS_H_
