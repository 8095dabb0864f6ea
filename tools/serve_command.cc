// `plugrt serve`: a remote worker. Hosts a PJRT client (the CPU plugin
// unless --plugin says otherwise) and serves it over gRPC to remote
// clients (the remote plugin, plugins/remote/) until SIGINT or SIGTERM.
#include <pthread.h>
#include <signal.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "remote/token.h"
#include "remote/worker_server.h"
#include "tools/commands.h"

namespace plugrt::tools {
namespace {

struct ServeOptions {
  PluginOptions plugin;
  std::string listen;
  std::string token_file;
  remote::TlsConfig tls;
};

Status Serve(const ServeOptions& options) {
  remote::WorkerOptions worker;
  worker.listen = options.listen;
  worker.tls = remote::TlsFromEnvironment(options.tls);
  PLUGRT_ASSIGN_OR_RETURN(worker.token, remote::LoadToken(options.token_file));
  // The signals are waited for on this thread; the server's threads, which
  // inherit this mask, never take them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, OpenClient(options.plugin));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, client->addressable_devices());
  PLUGRT_ASSIGN_OR_RETURN(std::string platform, client->platform_name());
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<remote::WorkerServer> server,
                          remote::WorkerServer::Start(std::move(client), worker));
  // Tests and scripts read the port from this line (--listen HOST:0).
  std::string host = options.listen.substr(0, options.listen.rfind(':'));
  std::cout << "plugrt serve: listening on " << host << ":" << server->port() << " ("
            << devices.size() << " " << platform << " device" << (devices.size() == 1 ? "" : "s")
            << ")" << std::endl;
  int received = 0;
  sigwait(&signals, &received);
  std::cout << "plugrt serve: stopping (signal " << received << ")" << std::endl;
  server->Shutdown();
  // Programs still running for remote clients cannot be interrupted, and
  // destroying the client would wait for them: the process ends here, its
  // memory returned by the OS (nothing of the worker's is persistent).
  std::cout.flush();
  std::_Exit(0);
}

}  // namespace

void RegisterServeCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ServeOptions>();
  CLI::App* command = app.add_subcommand(
      "serve", "Serve this machine's devices to remote clients over gRPC (the remote plugin, "
               "libplugrt_remote.so) until interrupted");
  command->add_option("--listen", options->listen,
                      "HOST:PORT to listen on (port 0: a free port, printed at start)")
      ->required();
  command->add_option("--token-file", options->token_file,
                      "file holding the shared token every request must carry (default: "
                      "$PLUGRT_REMOTE_TOKEN_FILE, else the token in $PLUGRT_REMOTE_TOKEN)");
  command->add_option("--tls-cert", options->tls.cert_file,
                      "PEM certificate chain the worker presents (default $PLUGRT_TLS_CERT); with "
                      "--tls-key, clients must speak TLS");
  command->add_option("--tls-key", options->tls.key_file,
                      "PEM private key of --tls-cert (default $PLUGRT_TLS_KEY)");
  command->add_option("--tls-ca", options->tls.ca_file,
                      "PEM CA that must have signed every client's certificate: mutual TLS "
                      "(default $PLUGRT_TLS_CA)");
  command->add_flag("--insecure", options->tls.allow_insecure,
                    "serve in clear text on a non-loopback address (a trusted network only; "
                    "also $PLUGRT_ALLOW_INSECURE=1)");
  AddPluginOptions(*command, options->plugin);
  command->callback([options, &exit_code] {
    Status status = Serve(*options);
    if (!status.ok()) {
      std::cerr << "plugrt serve: " << status.ToString() << "\n";
      exit_code = 1;
    }
  });
}

}  // namespace plugrt::tools
