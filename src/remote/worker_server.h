// plugrt remote: the worker server behind `plugrt serve`. It hosts one PJRT
// client (any plugin, through the client library) and serves it over gRPC
// (proto/remote_worker.proto) to remote clients, each in its own context.
#ifndef PLUGRT_REMOTE_WORKER_SERVER_H_
#define PLUGRT_REMOTE_WORKER_SERVER_H_

#include <memory>
#include <string>

#include "client/client.h"
#include "common/status.h"
#include "remote/tls_config.h"

namespace plugrt::remote {

struct WorkerOptions {
  // host:port; port 0 picks a free port (WorkerServer::port() says which).
  std::string listen = "127.0.0.1:0";
  // Every request must carry it. Not empty.
  std::string token;
  // TLS (remote/tls.h): clear text off loopback only when allowed.
  TlsConfig tls;
};

class WorkerServer {
 public:
  // Starts serving `client` on a background thread pool.
  static StatusOr<std::unique_ptr<WorkerServer>> Start(std::unique_ptr<Client> client,
                                                       const WorkerOptions& options);
  ~WorkerServer();  // Shutdown()
  WorkerServer(const WorkerServer&) = delete;
  WorkerServer& operator=(const WorkerServer&) = delete;

  int port() const;
  // Blocks until Shutdown() (from another thread or a signal handler's
  // helper thread).
  void Wait();
  // Stops accepting calls, cancels those in flight, drops every context.
  void Shutdown();
  size_t live_contexts() const;

 private:
  struct Impl;
  explicit WorkerServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace plugrt::remote

#endif  // PLUGRT_REMOTE_WORKER_SERVER_H_
