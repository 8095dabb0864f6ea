// plugrt distributed: the key-value store a job's first process serves to
// the others over gRPC (proto/key_value_service.proto), so that a job needs
// neither Redis nor a shared directory. Node 0 holds a CoordinatorStore (the
// values in its memory, served to the rest); every other node a
// GrpcKeyValueStore connected to it. gRPC stays in the .cc files.
#ifndef PLUGRT_DISTRIBUTED_COORDINATOR_STORE_H_
#define PLUGRT_DISTRIBUTED_COORDINATOR_STORE_H_

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "common/key_value_store.h"
#include "common/status.h"
#include "remote/tls_config.h"

namespace plugrt::distributed {

class CoordinatorStore final : public KeyValueStore {
 public:
  struct Options {
    // HOST:PORT to listen on; port 0 picks a free one (port() says which).
    std::string listen = "127.0.0.1:0";
    // Nodes of the job; the other num_nodes - 1 say goodbye before the
    // store stops.
    int num_nodes = 1;
    // At destruction, how long the store keeps serving while nodes have not
    // said goodbye, and how long it waits once no node has called at all.
    std::chrono::milliseconds linger{30000};
    std::chrono::milliseconds idle{5000};
    // Where `listen` came from, for messages ("PLUGRT_COORDINATOR", ...).
    std::string source;
    // TLS (remote/tls.h's rules: clear text off loopback only when allowed).
    remote::TlsConfig tls;
  };
  // UNAVAILABLE naming the address when it cannot be bound (in use: another
  // job or server holds it); FAILED_PRECONDITION for clear text off
  // loopback without consent; INVALID_ARGUMENT for unusable TLS files.
  static StatusOr<std::unique_ptr<CoordinatorStore>> Start(Options options);
  ~CoordinatorStore() override;

  StatusOr<std::string> Get(std::string_view key, int timeout_ms) override;
  StatusOr<std::string> TryGet(std::string_view key) override;
  Status Put(std::string_view key, std::string_view value) override;

  int port() const;

  struct State;  // the values and the goodbyes, shared with the service

 private:
  CoordinatorStore() = default;
  struct Server;
  std::shared_ptr<State> state_;
  std::unique_ptr<Server> server_;
  Options options_;
};

class GrpcKeyValueStore final : public KeyValueStore {
 public:
  // Connects to the coordinator at `address` (HOST:PORT), waiting up to
  // `connect_timeout` for it to come up (node 0 may start last):
  // UNAVAILABLE naming the address otherwise, UNAUTHENTICATED when it
  // answers but the secure connection fails (remote/tls.h). Each later call
  // fails after `io_timeout` (Get: after its own timeout plus that).
  static StatusOr<std::unique_ptr<GrpcKeyValueStore>> Connect(
      std::string address, int node_id, std::chrono::milliseconds connect_timeout,
      std::chrono::milliseconds io_timeout = std::chrono::milliseconds(10000),
      const remote::TlsConfig& tls = {});
  // Says goodbye to the coordinator (best effort).
  ~GrpcKeyValueStore() override;

  StatusOr<std::string> Get(std::string_view key, int timeout_ms) override;
  StatusOr<std::string> TryGet(std::string_view key) override;
  Status Put(std::string_view key, std::string_view value) override;

  const std::string& address() const { return address_; }

 private:
  struct Channel;
  GrpcKeyValueStore() = default;
  std::string address_;
  int node_id_ = 0;
  std::chrono::milliseconds io_timeout_{10000};
  bool connected_ = false;
  std::unique_ptr<Channel> channel_;
};

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_COORDINATOR_STORE_H_
