// plugrt remote: TLS for every gRPC server and client of the project (the
// remote worker and plugin, the job coordinator's key-value store), and the
// rule that nothing crosses a non-loopback link in clear text unless the
// user says the network is trusted (remote/tls_config.h: where files come
// from).
#ifndef PLUGRT_REMOTE_TLS_H_
#define PLUGRT_REMOTE_TLS_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "remote/tls_config.h"

namespace plugrt::remote {

// Credentials for a server listening on `listen`. With TLS: the certificate
// and key (both required; INVALID_ARGUMENT naming what is missing or
// unreadable), and with a CA, client certificates required and verified.
// Without: clear text on loopback, or off loopback only when allowed
// (FAILED_PRECONDITION otherwise, naming `who` and the address).
StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentials(const TlsConfig& tls,
                                                                      std::string_view listen,
                                                                      std::string_view who);

// Credentials and channel arguments for a client dialling `address`, by the
// same rules (`what` names the connection in messages).
StatusOr<std::shared_ptr<grpc::ChannelCredentials>> ChannelCredentials(
    const TlsConfig& tls, std::string_view address, std::string_view what,
    grpc::ChannelArguments* arguments);

// What a failed first connection to `address` means: when something answers
// at that TCP address, the handshake failed (a wrong or missing
// certificate, or TLS on one side only): UNAUTHENTICATED naming the peer;
// otherwise `unreachable` as it is.
Status ExplainConnectFailure(std::string_view address, Status unreachable);

}  // namespace plugrt::remote

#endif  // PLUGRT_REMOTE_TLS_H_
