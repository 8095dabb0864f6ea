// plugrt remote plugin (libplugrt_remote.so): a PJRT plugin whose devices
// are those of a worker started with `plugrt serve`. Create options (each
// with an environment fallback):
//   address          string  host:port of the worker    $PLUGRT_REMOTE_ADDRESS
//   token_file       string  file holding the token     $PLUGRT_REMOTE_TOKEN_FILE,
//                                                       else $PLUGRT_REMOTE_TOKEN
//   keep_alive_secs  int64   the worker drops the context after this long
//                            without traffic (default 60)
//                                                       $PLUGRT_REMOTE_KEEP_ALIVE_SECS
// Its PJRT extension (include/plugrt/remote_extension.h) closes a client's
// worker context before the client's last buffer is gone.
#include <cstdlib>
#include <memory>
#include <string>

#include "plugins/remote/remote_client.h"
#include "plugins/remote/remote_extension.h"
#include "remote/token.h"
#include "sdk/plugin.h"

namespace plugrt::remote {
namespace {

constexpr const char* kAddressEnv = "PLUGRT_REMOTE_ADDRESS";
constexpr const char* kKeepAliveEnv = "PLUGRT_REMOTE_KEEP_ALIVE_SECS";
constexpr int64_t kDefaultKeepAliveSecs = 60;

StatusOr<ConnectionOptions> ReadOptions(const sdk::Attributes& create_options) {
  ConnectionOptions options;
  std::string token_file;
  int64_t keep_alive = kDefaultKeepAliveSecs;
  if (const char* env = std::getenv(kAddressEnv); env != nullptr) options.address = env;
  if (const char* env = std::getenv(kKeepAliveEnv); env != nullptr && *env != '\0') {
    char* end = nullptr;
    keep_alive = std::strtoll(env, &end, 10);
    if (*end != '\0') return InvalidArgument("$", kKeepAliveEnv, " is not an integer: '", env, "'");
  }
  for (const sdk::Attribute& option : create_options) {
    std::string* text_option = option.name == "address"           ? &options.address
                               : option.name == "token_file"      ? &token_file
                               : option.name == "tls_cert"        ? &options.tls.cert_file
                               : option.name == "tls_key"         ? &options.tls.key_file
                               : option.name == "tls_ca"          ? &options.tls.ca_file
                               : option.name == "tls_server_name" ? &options.tls.server_name
                                                                  : nullptr;
    if (text_option != nullptr) {
      const auto* text = std::get_if<std::string>(&option.value);
      if (text == nullptr) return InvalidArgument("create option ", option.name, " must be a string");
      *text_option = *text;
    } else if (option.name == "allow_insecure") {
      const auto* flag = std::get_if<bool>(&option.value);
      if (flag == nullptr) return InvalidArgument("create option allow_insecure must be a bool");
      options.tls.allow_insecure = *flag;
    } else if (option.name == "keep_alive_secs") {
      const auto* number = std::get_if<int64_t>(&option.value);
      if (number == nullptr) return InvalidArgument("create option keep_alive_secs must be an int64");
      keep_alive = *number;
    } else {
      return InvalidArgument("unknown create option '", option.name,
                             "': the remote plugin takes address, token_file, keep_alive_secs, tls_cert, tls_key, "
                             "tls_ca, tls_server_name and allow_insecure "
                             "(the worker's `plugrt serve` flags choose its devices)");
    }
  }
  if (options.address.empty()) {
    return InvalidArgument("the remote plugin needs a worker address: the address create option "
                           "or $",
                           kAddressEnv, " (host:port of `plugrt serve`)");
  }
  if (keep_alive < 1 || keep_alive > 7 * 24 * 3600) {
    return InvalidArgument("keep_alive_secs must be in [1, 604800], got ", keep_alive);
  }
  options.keep_alive_secs = static_cast<uint32_t>(keep_alive);
  PLUGRT_ASSIGN_OR_RETURN(options.token, LoadToken(token_file));
  options.tls = TlsFromEnvironment(options.tls);
  return options;
}

class RemotePlugin : public sdk::Plugin {
 public:
  const sdk::Attributes& attributes() const override { return attributes_; }
  PJRT_Extension_Base* extensions() const override { return RemoteExtensions(); }
  StatusOr<std::unique_ptr<sdk::Client>> CreateClient(const sdk::ClientOptions& options) override {
    PLUGRT_ASSIGN_OR_RETURN(ConnectionOptions connection, ReadOptions(options.create_options));
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<RemoteClient> client, RemoteClient::Create(connection));
    return std::unique_ptr<sdk::Client>(std::move(client));
  }

 private:
  sdk::Attributes attributes_ = {{"plugrt_remote_plugin_version", int64_t{1}}};
};

}  // namespace
}  // namespace plugrt::remote

extern "C" __attribute__((visibility("default"))) const PJRT_Api* GetPjrtApi() {
  return plugrt::sdk::BuildApi(std::make_unique<plugrt::remote::RemotePlugin>());
}
