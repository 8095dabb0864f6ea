// plugrt remote: where TLS files come from, without gRPC (remote/tls.h
// turns a TlsConfig into gRPC credentials), so that layers holding options
// (the coordinator's store, the worker) name it in their headers.
//
// Files are PEM, named by options or by the environment:
//   PLUGRT_TLS_CERT, PLUGRT_TLS_KEY   this side's certificate chain and key
//                                     (a server needs both; a client presents
//                                     them where the server asks)
//   PLUGRT_TLS_CA                     the CA that signs the other side: a
//                                     client verifies the server with it; a
//                                     server given one requires and verifies
//                                     client certificates (mutual TLS)
//   PLUGRT_TLS_SERVER_NAME            the name a client expects in the
//                                     server's certificate, when it is not the
//                                     host of the address dialled
//   PLUGRT_ALLOW_INSECURE=1           clear text off loopback
#ifndef PLUGRT_REMOTE_TLS_CONFIG_H_
#define PLUGRT_REMOTE_TLS_CONFIG_H_

#include <functional>
#include <string>
#include <string_view>

namespace plugrt::remote {

inline constexpr const char* kTlsCertEnv = "PLUGRT_TLS_CERT";
inline constexpr const char* kTlsKeyEnv = "PLUGRT_TLS_KEY";
inline constexpr const char* kTlsCaEnv = "PLUGRT_TLS_CA";
inline constexpr const char* kTlsServerNameEnv = "PLUGRT_TLS_SERVER_NAME";
inline constexpr const char* kAllowInsecureEnv = "PLUGRT_ALLOW_INSECURE";

struct TlsConfig {
  std::string cert_file, key_file, ca_file, server_name;
  // Clear text off loopback is allowed.
  bool allow_insecure = false;
  bool enabled() const { return !cert_file.empty() || !ca_file.empty(); }
};

// `given`'s fields, each empty one filled from its variable (and
// allow_insecure from PLUGRT_ALLOW_INSECURE when false), read by `variable`
// ("" when not set), or from the process's environment.
TlsConfig TlsFromEnvironment(TlsConfig given,
                             const std::function<std::string(const char*)>& variable);
TlsConfig TlsFromEnvironment(TlsConfig given = {});

// Whether HOST:PORT (or a bare host) names this machine's loopback.
bool IsLoopbackAddress(std::string_view address);

}  // namespace plugrt::remote

#endif  // PLUGRT_REMOTE_TLS_CONFIG_H_
