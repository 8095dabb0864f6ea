// plugrt remote plugin: its PJRT extension (include/plugrt/remote_extension.h),
// through which a caller closes a client's worker context before the
// client's last buffer is gone, or asks whether its worker still answers.
#include "plugins/remote/remote_extension.h"

#include "plugins/remote/remote_client.h"
#include "sdk/api_args.h"
#include "sdk/handles.h"

namespace plugrt::remote {
namespace {

// The remote client `client` names, or an error naming `what`.
StatusOr<RemoteClient*> ClientOf(const char* what, size_t struct_size, size_t expected,
                                 PJRT_Client* client) {
  if (struct_size < expected) {
    return InvalidArgument(what, ": struct_size is ", struct_size, ", smaller than ", expected);
  }
  if (client == nullptr || client->client == nullptr) {
    return InvalidArgument(what, ": client is null");
  }
  auto* remote = dynamic_cast<RemoteClient*>(client->client.get());
  if (remote == nullptr) return InvalidArgument(what, ": not a client of the remote plugin");
  return remote;
}

PJRT_Error* ClientClose(PLUGRT_Remote_Client_Close_Args* args) {
  return sdk::Guard("PLUGRT_Remote_Client_Close", [&]() -> Status {
    if (args == nullptr) return InvalidArgument("PLUGRT_Remote_Client_Close: args is null");
    PLUGRT_ASSIGN_OR_RETURN(RemoteClient * client,
                            ClientOf("PLUGRT_Remote_Client_Close", args->struct_size,
                                     PLUGRT_Remote_Client_Close_Args_STRUCT_SIZE, args->client));
    client->connection()->Close();
    return OkStatus();
  });
}

PJRT_Error* ClientStatus(PLUGRT_Remote_Client_Status_Args* args) {
  return sdk::Guard("PLUGRT_Remote_Client_Status", [&]() -> Status {
    if (args == nullptr) return InvalidArgument("PLUGRT_Remote_Client_Status: args is null");
    PLUGRT_ASSIGN_OR_RETURN(RemoteClient * client,
                            ClientOf("PLUGRT_Remote_Client_Status", args->struct_size,
                                     PLUGRT_Remote_Client_Status_Args_STRUCT_SIZE, args->client));
    return client->connection()->Health();
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
  extension.client_status = &ClientStatus;
  return extension;
}

}  // namespace

PJRT_Extension_Base* RemoteExtensions() {
  static PLUGRT_Remote_Extension extension = MakeExtension();
  return &extension.base;
}

}  // namespace plugrt::remote
