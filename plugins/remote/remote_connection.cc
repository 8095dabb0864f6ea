#include "plugins/remote/remote_connection.h"

#include <algorithm>

#include "remote/tls.h"
#include "remote/wire.h"

namespace plugrt::remote {
namespace {

using std::chrono::milliseconds;

// How long the worker may hold a poll for a running execution.
constexpr uint32_t kPollWaitMs = 500;

// Whether a worker's error says the context itself is gone: its
// ContextTable's words (src/remote/worker_context.cc) for an expired,
// closed or unknown context, as opposed to an error about one handle.
bool IsContextGone(const std::string& message) {
  return message.rfind("remote context ", 0) == 0;
}

}  // namespace

Connection::Connection(ConnectionOptions options) : options_(std::move(options)) {}

StatusOr<std::shared_ptr<Connection>> Connection::Open(const ConnectionOptions& options,
                                                       wire::CreateContextResponse* opened) {
  if (options.address.empty()) return InvalidArgument("the remote plugin needs a worker address");
  if (options.keep_alive_secs == 0) return InvalidArgument("keep_alive_secs must be at least 1");
  std::shared_ptr<Connection> connection(new Connection(options));
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(kMaxMessageBytes);
  args.SetMaxSendMessageSize(kMaxMessageBytes);
  // Reconnect quickly after a failure instead of backing off for minutes:
  // a dead worker is reported by the heartbeat, not hidden by retries.
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  PLUGRT_ASSIGN_OR_RETURN(
      std::shared_ptr<grpc::ChannelCredentials> credentials,
      ChannelCredentials(options.tls, options.address, "the remote plugin's connection", &args));
  connection->channel_ = grpc::CreateCustomChannel(options.address, credentials, args);
  connection->stub_ = wire::Worker::NewStub(connection->channel_);

  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<grpc::ClientContext> call,
                          connection->NewCall(milliseconds(10000)));
  wire::CreateContextRequest request;
  request.set_keep_alive_secs(options.keep_alive_secs);
  Status created = connection->Finish(
      connection->stub_->CreateContext(call.get(), request, opened), "CreateContext");
  if (created.code() == StatusCode::kUnavailable) {
    return ExplainConnectFailure(options.address, std::move(created));
  }
  PLUGRT_RETURN_IF_ERROR(created);
  connection->context_id_ = opened->context_id();
  // Three heartbeats per keep-alive period: one lost beat does not expire
  // the context, and a dead worker is seen within the period.
  connection->heartbeat_interval_ =
      std::max(milliseconds(50), milliseconds(options.keep_alive_secs * 1000 / 3));
  Connection* raw = connection.get();
  connection->housekeeper_ = std::thread([raw] { raw->Housekeep(); });
  connection->poller_ = std::thread([raw] { raw->Poll(); });
  return connection;
}

Connection::~Connection() { Close(); }

void Connection::Close() {
  std::deque<Watched> abandoned;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closing_) return;
    closing_ = true;
    abandoned.swap(watched_);
  }
  housekeeping_cv_.notify_all();
  poll_cv_.notify_all();
  if (housekeeper_.joinable()) housekeeper_.join();
  if (poller_.joinable()) poller_.join();
  for (Watched& watched : abandoned) {
    for (sdk::EventRef& event : watched.events) {
      event->Set(Cancelled("the remote client was destroyed before the execution ended"));
    }
  }
  if (context_id_ != 0 && dead().ok()) {
    // Best effort: the worker drops the context after keep_alive_secs anyway.
    auto call = NewCall(milliseconds(2000));
    if (call.ok()) {
      wire::ContextRef request;
      request.set_context_id(context_id_);
      wire::Empty response;
      stub_->CloseContext(call->get(), request, &response);
    }
  }
  // Buffers and executables may outlive the connection's use: their calls
  // fail at once instead of asking the worker about a closed context.
  MarkDead(FailedPrecondition("remote worker ", options_.address,
                              ": the client closed its context"));
}

StatusOr<std::unique_ptr<grpc::ClientContext>> Connection::NewCall(milliseconds timeout) {
  PLUGRT_RETURN_IF_ERROR(dead());
  auto call = std::make_unique<grpc::ClientContext>();
  call->AddMetadata(kTokenMetadataKey, options_.token);
  call->set_deadline(std::chrono::system_clock::now() + timeout);
  return call;
}

milliseconds Connection::TransferDeadline(int64_t bytes) {
  // 30 s, plus a second for every 20 MB: far slower than any loopback or
  // LAN link, so only a stalled worker reaches it.
  return milliseconds(30000 + bytes / 20000);
}

Status Connection::Finish(const grpc::Status& status, std::string_view what) {
  if (status.ok()) return OkStatus();
  switch (status.error_code()) {
    case grpc::StatusCode::UNAVAILABLE: {
      Status error(StatusCode::kUnavailable,
                   StrCat("remote worker ", options_.address, " is unavailable (", what,
                          "): ", status.error_message()));
      MarkDead(error);
      return error;
    }
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return Status(StatusCode::kDeadlineExceeded,
                    StrCat("remote worker ", options_.address, " did not answer ", what,
                           " in time: ", status.error_message()));
    case grpc::StatusCode::UNAUTHENTICATED:
      return Status(StatusCode::kUnauthenticated,
                    StrCat("remote worker ", options_.address, " refused the token: ",
                           status.error_message()));
    case grpc::StatusCode::FAILED_PRECONDITION:
    case grpc::StatusCode::NOT_FOUND:
      if (IsContextGone(status.error_message())) {
        // The worker dropped this client's context (it expired, or the
        // worker restarted): nothing will work again, so every later call
        // fails at once with this error.
        Status error(static_cast<StatusCode>(status.error_code()),
                     StrCat("remote worker ", options_.address, ": ", status.error_message()));
        MarkDead(error);
        return error;
      }
      return FromGrpc(status);
    default:
      return FromGrpc(status);
  }
}

void Connection::MarkDead(Status status) {
  std::deque<Watched> failed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!dead_.ok()) return;
    dead_ = status;
    failed.swap(watched_);
  }
  for (Watched& watched : failed) {
    for (sdk::EventRef& event : watched.events) event->Set(status);
  }
}

Status Connection::Health() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!dead_.ok()) return dead_;
  if (closing_) return FailedPrecondition("the client of worker ", options_.address, " was closed");
  return OkStatus();
}

Status Connection::dead() const {
  std::lock_guard<std::mutex> lock(mu_);
  return dead_;
}

void Connection::ReleaseBuffer(uint64_t handle) {
  std::lock_guard<std::mutex> lock(mu_);
  released_buffers_.push_back(handle);
  if (released_buffers_.size() >= 256) housekeeping_cv_.notify_one();
}

void Connection::ReleaseExecutable(uint64_t handle) {
  std::lock_guard<std::mutex> lock(mu_);
  released_executables_.push_back(handle);
  housekeeping_cv_.notify_one();
}

void Connection::Watch(uint64_t execution, std::vector<sdk::EventRef> events) {
  Status failed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!dead_.ok() || closing_) {
      failed = dead_.ok() ? Cancelled("the remote client is closing") : dead_;
    } else {
      watched_.push_back(Watched{execution, std::move(events)});
      poll_cv_.notify_one();
      return;
    }
  }
  for (sdk::EventRef& event : events) event->Set(failed);
}

void Connection::Housekeep() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!closing_ && dead_.ok()) {
    housekeeping_cv_.wait_for(lock, heartbeat_interval_, [this] {
      return closing_ || released_buffers_.size() >= 256 || !released_executables_.empty();
    });
    if (closing_) break;
    std::vector<uint64_t> buffers, executables;
    buffers.swap(released_buffers_);
    executables.swap(released_executables_);
    lock.unlock();
    // A heartbeat (a Delete counts as one) each interval, whether or not the
    // client is busy: it also tells the client in time that the worker died.
    auto call = NewCall(heartbeat_interval_ + milliseconds(1000));
    if (call.ok()) {
      wire::ContextRef context;
      context.set_context_id(context_id_);
      grpc::Status status;
      if (buffers.empty() && executables.empty()) {
        wire::KeepAliveResponse response;
        status = stub_->KeepAlive(call->get(), context, &response);
      } else {
        wire::DeleteRequest request;
        request.set_context_id(context_id_);
        for (uint64_t handle : buffers) request.add_buffers(handle);
        for (uint64_t handle : executables) request.add_executables(handle);
        wire::Empty response;
        status = stub_->Delete(call->get(), request, &response);
      }
      if (status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
        // A worker that misses a heartbeat's deadline is treated as dead:
        // its context would expire anyway.
        MarkDead(Status(StatusCode::kUnavailable,
                        StrCat("remote worker ", options_.address,
                               " did not answer a heartbeat in time")));
      } else if (status.error_code() == grpc::StatusCode::FAILED_PRECONDITION ||
                 status.error_code() == grpc::StatusCode::NOT_FOUND) {
        // The context is gone (expired or closed): nothing will work again.
        MarkDead(Status(StatusCode::kFailedPrecondition,
                        StrCat("remote worker ", options_.address, ": ", status.error_message())));
      } else {
        Finish(status, "heartbeat").IgnoreError();
      }
    }
    lock.lock();
  }
}

void Connection::Poll() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    poll_cv_.wait(lock, [this] { return closing_ || !watched_.empty(); });
    if (closing_) return;
    const uint64_t execution = watched_.front().execution;
    lock.unlock();
    wire::ExecutionStatus response;
    Status status;
    auto call = NewCall(milliseconds(kPollWaitMs) + options_.control_deadline);
    if (call.ok()) {
      wire::AwaitRequest request;
      request.set_context_id(context_id_);
      request.set_execution(execution);
      request.set_wait_ms(kPollWaitMs);
      status = Finish(stub_->AwaitExecution(call->get(), request, &response), "AwaitExecution");
    } else {
      status = call.status();
    }
    lock.lock();
    if (watched_.empty() || watched_.front().execution != execution) continue;  // failed meanwhile
    if (status.ok() && !response.done()) continue;
    Watched done = std::move(watched_.front());
    watched_.pop_front();
    lock.unlock();
    for (size_t d = 0; d < done.events.size(); ++d) {
      if (!status.ok()) {
        done.events[d]->Set(status);
      } else if (static_cast<int>(d) < response.device_codes_size() &&
                 response.device_codes(d) != 0) {
        done.events[d]->Set(Status(static_cast<StatusCode>(response.device_codes(d)),
                                   d < static_cast<size_t>(response.device_messages_size())
                                       ? response.device_messages(d)
                                       : std::string()));
      } else {
        done.events[d]->Set(OkStatus());
      }
    }
    lock.lock();
  }
}

}  // namespace plugrt::remote
