// plugrt remote plugin: the head of its PJRT extension chain
// (include/plugrt/remote_extension.h: closing a client's worker context).
#ifndef PLUGRT_PLUGINS_REMOTE_REMOTE_EXTENSION_H_
#define PLUGRT_PLUGINS_REMOTE_REMOTE_EXTENSION_H_

#include "pjrt_c_api.h"
#include "plugrt/remote_extension.h"

namespace plugrt::remote {

// Lives for the rest of the process.
PJRT_Extension_Base* RemoteExtensions();

}  // namespace plugrt::remote

#endif  // PLUGRT_PLUGINS_REMOTE_REMOTE_EXTENSION_H_
