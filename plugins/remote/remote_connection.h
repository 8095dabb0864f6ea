// plugrt remote plugin: the connection to one worker context. Owns the gRPC
// channel and the context id, puts the token and a deadline on every call,
// keeps the context alive with heartbeats, frees released handles in
// batches and completes the events of executions still running on the
// worker. Once the worker is found dead every call fails at once with
// UNAVAILABLE naming its address.
#ifndef PLUGRT_PLUGINS_REMOTE_REMOTE_CONNECTION_H_
#define PLUGRT_PLUGINS_REMOTE_REMOTE_CONNECTION_H_

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/status.h"
#include "remote/tls_config.h"
#include "proto/remote_worker.grpc.pb.h"
#include "sdk/event.h"

namespace plugrt::remote {

struct ConnectionOptions {
  std::string address;  // host:port of `plugrt serve`
  std::string token;
  // TLS (remote/tls.h): clear text off loopback only when allowed.
  TlsConfig tls;
  uint32_t keep_alive_secs = 60;
  // Deadline of calls that do not move arrays or compile.
  std::chrono::milliseconds control_deadline{30000};
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  // Connects and opens a context; the worker's answer (devices) in `opened`.
  static StatusOr<std::shared_ptr<Connection>> Open(const ConnectionOptions& options,
                                                   wire::CreateContextResponse* opened);
  ~Connection();
  // Stops the background threads, fails executions still watched, closes the
  // context on the worker; later calls fail at once (FAILED_PRECONDITION
  // naming the worker). Idempotent.
  void Close();

  // OK while the worker answers; UNAVAILABLE naming it once it stopped
  // answering; FAILED_PRECONDITION once closed.
  Status Health() const;

  const std::string& address() const { return options_.address; }
  uint64_t context_id() const { return context_id_; }
  wire::Worker::Stub& stub() { return *stub_; }

  // A call context with the token and a deadline `timeout` from now; an
  // UNAVAILABLE error instead when the worker is known to be dead.
  StatusOr<std::unique_ptr<grpc::ClientContext>> NewCall(std::chrono::milliseconds timeout);
  StatusOr<std::unique_ptr<grpc::ClientContext>> NewControlCall() {
    return NewCall(options_.control_deadline);
  }
  // The deadline for moving `bytes` (uploads, downloads): generous, but
  // finite, so that a stalled worker ends the call.
  static std::chrono::milliseconds TransferDeadline(int64_t bytes);
  // Turns the outcome of a call into a Status: connection failures name the
  // worker (and mark it dead); the worker's own errors pass through.
  Status Finish(const grpc::Status& status, std::string_view what);

  // Frees worker handles later, in one Delete call per batch.
  void ReleaseBuffer(uint64_t handle);
  void ReleaseExecutable(uint64_t handle);
  // Completes `events` (one per device) when the worker's execution ends.
  void Watch(uint64_t execution, std::vector<sdk::EventRef> events);

 private:
  explicit Connection(ConnectionOptions options);
  void MarkDead(Status status);
  Status dead() const;
  void Housekeep();  // heartbeat and batched deletes
  void Poll();       // running executions

  struct Watched {
    uint64_t execution;
    std::vector<sdk::EventRef> events;
  };

  const ConnectionOptions options_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<wire::Worker::Stub> stub_;
  uint64_t context_id_ = 0;
  std::chrono::milliseconds heartbeat_interval_{1000};

  mutable std::mutex mu_;
  std::condition_variable housekeeping_cv_;
  std::condition_variable poll_cv_;
  bool closing_ = false;
  Status dead_;  // OK while the worker answers
  std::vector<uint64_t> released_buffers_;
  std::vector<uint64_t> released_executables_;
  std::deque<Watched> watched_;
  std::thread housekeeper_;
  std::thread poller_;
};

}  // namespace plugrt::remote

#endif  // PLUGRT_PLUGINS_REMOTE_REMOTE_CONNECTION_H_
