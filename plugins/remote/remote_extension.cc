// plugrt remote plugin: its PJRT extension (include/plugrt/remote_extension.h),
// through which a caller closes a client's worker context before the
// client's last buffer is gone.
#include "plugins/remote/remote_extension.h"

#include "plugins/remote/remote_client.h"
#include "sdk/api_args.h"
#include "sdk/handles.h"

namespace plugrt::remote {
namespace {

PJRT_Error* ClientClose(PLUGRT_Remote_Client_Close_Args* args) {
  return sdk::Guard("PLUGRT_Remote_Client_Close", [&]() -> Status {
    if (args == nullptr) return InvalidArgument("PLUGRT_Remote_Client_Close: args is null");
    if (args->struct_size < PLUGRT_Remote_Client_Close_Args_STRUCT_SIZE) {
      return InvalidArgument("PLUGRT_Remote_Client_Close: struct_size is ", args->struct_size,
                             ", smaller than ", PLUGRT_Remote_Client_Close_Args_STRUCT_SIZE);
    }
    if (args->client == nullptr || args->client->client == nullptr) {
      return InvalidArgument("PLUGRT_Remote_Client_Close: client is null");
    }
    auto* client = dynamic_cast<RemoteClient*>(args->client->client.get());
    if (client == nullptr) {
      return InvalidArgument("PLUGRT_Remote_Client_Close: not a client of the remote plugin");
    }
    client->connection()->Close();
    return OkStatus();
  });
}

PLUGRT_Remote_Extension MakeExtension() {
  PLUGRT_Remote_Extension extension{};
  extension.base.struct_size = PLUGRT_Remote_Extension_STRUCT_SIZE;
  extension.base.type = PJRT_Extension_Type_Unknown;
  extension.base.next = nullptr;
  extension.name = PLUGRT_REMOTE_EXTENSION_NAME;
  extension.version = PLUGRT_REMOTE_EXTENSION_VERSION;
  extension.client_close = &ClientClose;
  return extension;
}

}  // namespace

PJRT_Extension_Base* RemoteExtensions() {
  static PLUGRT_Remote_Extension extension = MakeExtension();
  return &extension.base;
}

}  // namespace plugrt::remote
