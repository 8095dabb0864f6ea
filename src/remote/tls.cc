#include "remote/tls.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <sstream>

#include "common/host_port.h"

namespace plugrt::remote {
namespace {

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

StatusOr<std::string> ReadPem(const std::string& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return InvalidArgument("TLS: cannot read the ", what, " file '", path, "'");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (bytes.str().find("-----BEGIN ") == std::string::npos) {
    return InvalidArgument("TLS: the ", what, " file '", path, "' holds no PEM block");
  }
  return bytes.str();
}

}  // namespace

TlsConfig TlsFromEnvironment(TlsConfig given,
                             const std::function<std::string(const char*)>& variable) {
  if (given.cert_file.empty()) given.cert_file = variable(kTlsCertEnv);
  if (given.key_file.empty()) given.key_file = variable(kTlsKeyEnv);
  if (given.ca_file.empty()) given.ca_file = variable(kTlsCaEnv);
  if (given.server_name.empty()) given.server_name = variable(kTlsServerNameEnv);
  if (!given.allow_insecure) {
    const std::string allow = variable(kAllowInsecureEnv);
    given.allow_insecure = !allow.empty() && allow != "0" && allow != "false";
  }
  return given;
}

TlsConfig TlsFromEnvironment(TlsConfig given) { return TlsFromEnvironment(std::move(given), Env); }

bool IsLoopbackAddress(std::string_view address) {
  StatusOr<HostPort> parsed = ParseHostPort(address, "address");
  if (!parsed.ok()) return false;
  const std::string& host = parsed->host;
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentials(const TlsConfig& tls,
                                                                      std::string_view listen,
                                                                      std::string_view who) {
  if (!tls.enabled()) {
    if (IsLoopbackAddress(listen) || tls.allow_insecure) return grpc::InsecureServerCredentials();
    return FailedPrecondition(who, " would listen on ", listen,
                              ", which is not a loopback address, in clear text: give it a TLS "
                              "certificate and key (", kTlsCertEnv, ", ", kTlsKeyEnv,
                              "), or set ", kAllowInsecureEnv, "=1 on a trusted network");
  }
  if (tls.cert_file.empty() || tls.key_file.empty()) {
    return InvalidArgument("TLS: ", who, " needs both a certificate (", kTlsCertEnv,
                           ") and its key (", kTlsKeyEnv, ")");
  }
  grpc::SslServerCredentialsOptions options(
      tls.ca_file.empty() ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                          : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
  PLUGRT_ASSIGN_OR_RETURN(pair.cert_chain, ReadPem(tls.cert_file, "certificate"));
  PLUGRT_ASSIGN_OR_RETURN(pair.private_key, ReadPem(tls.key_file, "key"));
  options.pem_key_cert_pairs.push_back(std::move(pair));
  if (!tls.ca_file.empty()) {
    PLUGRT_ASSIGN_OR_RETURN(options.pem_root_certs, ReadPem(tls.ca_file, "CA"));
  }
  return grpc::SslServerCredentials(options);
}

StatusOr<std::shared_ptr<grpc::ChannelCredentials>> ChannelCredentials(
    const TlsConfig& tls, std::string_view address, std::string_view what,
    grpc::ChannelArguments* arguments) {
  if (!tls.enabled()) {
    if (IsLoopbackAddress(address) || tls.allow_insecure) return grpc::InsecureChannelCredentials();
    return FailedPrecondition(what, " to ", address,
                              ", which is not a loopback address, would go in clear text: give "
                              "the CA that signed the server's certificate (", kTlsCaEnv,
                              "), or set ", kAllowInsecureEnv, "=1 on a trusted network");
  }
  if (tls.cert_file.empty() != tls.key_file.empty()) {
    return InvalidArgument("TLS: a client certificate (", kTlsCertEnv, ") needs its key (",
                           kTlsKeyEnv, ") and the key its certificate");
  }
  grpc::SslCredentialsOptions options;
  if (!tls.ca_file.empty()) {
    PLUGRT_ASSIGN_OR_RETURN(options.pem_root_certs, ReadPem(tls.ca_file, "CA"));
  }
  if (!tls.cert_file.empty()) {
    PLUGRT_ASSIGN_OR_RETURN(options.pem_cert_chain, ReadPem(tls.cert_file, "certificate"));
    PLUGRT_ASSIGN_OR_RETURN(options.pem_private_key, ReadPem(tls.key_file, "key"));
  }
  if (!tls.server_name.empty() && arguments != nullptr) {
    arguments->SetSslTargetNameOverride(tls.server_name);
  }
  return grpc::SslCredentials(options);
}

Status ExplainConnectFailure(std::string_view address, Status unreachable) {
  StatusOr<HostPort> peer = ParseHostAndPort(address, "address");
  if (!peer.ok()) return unreachable;
  const std::string port = std::to_string(*peer->port);
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(peer->host.c_str(), port.c_str(), &hints, &found) != 0 || found == nullptr) {
    return unreachable;
  }
  bool answered = false;
  for (addrinfo* a = found; a != nullptr && !answered; a = a->ai_next) {
    const int fd = socket(a->ai_family, SOCK_STREAM, 0);
    if (fd < 0) continue;
    fcntl(fd, F_SETFL, O_NONBLOCK);
    if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
      answered = true;
    } else if (errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      int error = 0;
      socklen_t length = sizeof(error);
      answered = poll(&p, 1, 1000) == 1 &&
                 getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0;
    }
    close(fd);
  }
  freeaddrinfo(found);
  if (!answered) return unreachable;
  return MakeError(StatusCode::kUnauthenticated, "the peer at ", address,
                   " answers but refused the secure connection (a wrong or missing "
                   "certificate, a CA that does not match, or TLS on one side only): ",
                   unreachable.message());
}

}  // namespace plugrt::remote
