#include "distributed/coordinator_store.h"

#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <set>

#include "proto/key_value_service.grpc.pb.h"
#include "remote/tls.h"
#include "remote/wire.h"

namespace plugrt::distributed {

using Clock = std::chrono::steady_clock;

struct CoordinatorStore::State {
  std::mutex mu;
  std::condition_variable changed;
  std::map<std::string, std::string, std::less<>> values;
  std::set<int> left;
  bool stopping = false;
  Clock::time_point last_call = Clock::now();
  bool called = false;  // whether any other node ever called
  int num_nodes = 1;

  void Touch() {
    std::lock_guard<std::mutex> lock(mu);
    last_call = Clock::now();
    called = true;
  }

  Status Put(std::string_view key, std::string_view value) {
    {
      std::lock_guard<std::mutex> lock(mu);
      values.insert_or_assign(std::string(key), std::string(value));
    }
    changed.notify_all();
    return OkStatus();
  }

  StatusOr<std::string> TryGet(std::string_view key) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = values.find(key);
    if (it == values.end()) return NotFound("key '", key, "' is not in the job's store");
    return it->second;
  }

  // `cancelled` is asked between slices (a caller that went away).
  StatusOr<std::string> Get(std::string_view key, int timeout_ms,
                            const std::function<bool()>& cancelled) {
    const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    std::unique_lock<std::mutex> lock(mu);
    while (true) {
      auto it = values.find(key);
      if (it != values.end()) return it->second;
      if (stopping) return MakeError(StatusCode::kUnavailable, "the job's store is shutting down");
      const Clock::time_point now = Clock::now();
      if (now >= deadline) {
        return MakeError(StatusCode::kDeadlineExceeded, "key '", key, "' did not appear within ",
                         timeout_ms, " ms");
      }
      if (cancelled && cancelled()) return Cancelled("the caller went away");
      changed.wait_until(lock, std::min(deadline, now + std::chrono::milliseconds(200)));
    }
  }
};

namespace {

class KeyValueService final : public wire::KeyValue::Service {
 public:
  explicit KeyValueService(std::shared_ptr<CoordinatorStore::State> state)
      : state_(std::move(state)) {}

  grpc::Status Put(grpc::ServerContext*, const wire::PutRequest* request,
                   wire::Empty*) override {
    state_->Touch();
    return remote::ToGrpc(state_->Put(request->key(), request->value()));
  }

  grpc::Status Get(grpc::ServerContext* context, const wire::GetRequest* request,
                   wire::Value* response) override {
    state_->Touch();
    if (request->timeout_ms() < 0) {
      return remote::ToGrpc(InvalidArgument("a negative timeout (", request->timeout_ms(), ")"));
    }
    StatusOr<std::string> value = state_->Get(request->key(), request->timeout_ms(),
                                              [context] { return context->IsCancelled(); });
    if (!value.ok()) return remote::ToGrpc(value.status());
    response->set_value(std::move(*value));
    return grpc::Status::OK;
  }

  grpc::Status TryGet(grpc::ServerContext*, const wire::GetRequest* request,
                      wire::Value* response) override {
    state_->Touch();
    StatusOr<std::string> value = state_->TryGet(request->key());
    if (!value.ok()) return remote::ToGrpc(value.status());
    response->set_value(std::move(*value));
    return grpc::Status::OK;
  }

  grpc::Status Leave(grpc::ServerContext*, const wire::LeaveRequest* request,
                     wire::Empty*) override {
    if (request->node_id() < 1 || request->node_id() >= state_->num_nodes) {
      return remote::ToGrpc(InvalidArgument("node ", request->node_id(),
                                            " is not another node of a job of ",
                                            state_->num_nodes));
    }
    {
      std::lock_guard<std::mutex> lock(state_->mu);
      state_->left.insert(request->node_id());
      state_->last_call = Clock::now();
      state_->called = true;
    }
    state_->changed.notify_all();
    return grpc::Status::OK;
  }

 private:
  std::shared_ptr<CoordinatorStore::State> state_;
};

}  // namespace

struct CoordinatorStore::Server {
  std::unique_ptr<grpc::Service> service;
  std::unique_ptr<grpc::Server> server;
  int port = 0;
};

StatusOr<std::unique_ptr<CoordinatorStore>> CoordinatorStore::Start(Options options) {
  if (options.num_nodes < 1) {
    return InvalidArgument("a job's store needs at least one node (", options.num_nodes, ")");
  }
  PLUGRT_ASSIGN_OR_RETURN(
      std::shared_ptr<grpc::ServerCredentials> credentials,
      remote::ServerCredentials(options.tls, options.listen,
                                StrCat("the job's key-value store",
                                       options.source.empty() ? ""
                                                              : StrCat(" (from ", options.source, ")"))));
  std::unique_ptr<CoordinatorStore> store(new CoordinatorStore());
  store->state_ = std::make_shared<State>();
  store->state_->num_nodes = options.num_nodes;
  store->server_ = std::make_unique<Server>();
  store->server_->service = std::make_unique<KeyValueService>(store->state_);
  grpc::ServerBuilder builder;
  // Without this, gRPC binds with SO_REUSEPORT and a second job on the same
  // derived port would share the first one's traffic instead of failing.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.AddListeningPort(options.listen, credentials, &store->server_->port);
  builder.RegisterService(store->server_->service.get());
  store->server_->server = builder.BuildAndStart();
  if (store->server_->server == nullptr || store->server_->port == 0) {
    return MakeError(StatusCode::kUnavailable, "cannot serve the job's key-value store at ",
                     options.listen,
                     options.source.empty() ? "" : StrCat(" (from ", options.source, ")"),
                     ": the address cannot be bound (in use by another job or server?)");
  }
  store->options_ = std::move(options);
  return store;
}

CoordinatorStore::~CoordinatorStore() {
  if (server_ == nullptr || server_->server == nullptr) return;
  {
    // Serve on until every other node has said goodbye, none has called for
    // `idle`, or `linger` has passed. A store no other node ever reached
    // (node 0 failed before the others came) has no one to wait for.
    std::unique_lock<std::mutex> lock(state_->mu);
    const Clock::time_point give_up = Clock::now() + options_.linger;
    while (state_->called && static_cast<int>(state_->left.size()) < options_.num_nodes - 1) {
      const Clock::time_point now = Clock::now();
      if (now >= give_up || now - state_->last_call >= options_.idle) break;
      state_->changed.wait_until(lock, std::min(give_up, now + std::chrono::milliseconds(100)));
    }
    state_->stopping = true;
  }
  state_->changed.notify_all();
  server_->server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
  server_->server->Wait();
}

int CoordinatorStore::port() const { return server_->port; }

StatusOr<std::string> CoordinatorStore::Get(std::string_view key, int timeout_ms) {
  return state_->Get(key, timeout_ms, nullptr);
}

StatusOr<std::string> CoordinatorStore::TryGet(std::string_view key) {
  return state_->TryGet(key);
}

Status CoordinatorStore::Put(std::string_view key, std::string_view value) {
  return state_->Put(key, value);
}

struct GrpcKeyValueStore::Channel {
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<wire::KeyValue::Stub> stub;
};

namespace {

void SetDeadline(grpc::ClientContext& context, std::chrono::milliseconds after) {
  context.set_deadline(std::chrono::system_clock::now() + after);
}

Status Named(Status status, const std::string& address) {
  if (status.ok()) return status;
  return Status(status.code(), StrCat(status.message(), " (the job's store at ", address, ")"));
}

}  // namespace

StatusOr<std::unique_ptr<GrpcKeyValueStore>> GrpcKeyValueStore::Connect(
    std::string address, int node_id, std::chrono::milliseconds connect_timeout,
    std::chrono::milliseconds io_timeout, const remote::TlsConfig& tls) {
  std::unique_ptr<GrpcKeyValueStore> store(new GrpcKeyValueStore());
  store->channel_ = std::make_unique<Channel>();
  grpc::ChannelArguments arguments;
  // Reconnect quickly after a coordinator restart or a late start.
  arguments.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  arguments.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  arguments.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
  PLUGRT_ASSIGN_OR_RETURN(
      std::shared_ptr<grpc::ChannelCredentials> credentials,
      remote::ChannelCredentials(tls, address,
                                 StrCat("node ", node_id, "'s connection to the job's store"),
                                 &arguments));
  store->channel_->channel = grpc::CreateCustomChannel(address, credentials, arguments);
  store->channel_->stub = wire::KeyValue::NewStub(store->channel_->channel);
  if (!store->channel_->channel->WaitForConnected(std::chrono::system_clock::now() +
                                                  connect_timeout)) {
    return remote::ExplainConnectFailure(
        address, MakeError(StatusCode::kUnavailable, "node ", node_id,
                           " cannot reach the job's coordinator (node 0's key-value store) at ",
                           address, " within ", connect_timeout.count(), " ms"));
  }
  store->address_ = std::move(address);
  store->node_id_ = node_id;
  store->io_timeout_ = io_timeout;
  // One call at once: the coordinator then counts this node among those it
  // waits for at shutdown, and a refused call shows now, not at first use.
  StatusOr<std::string> hello = store->TryGet("plugrt/coordinator/hello");
  if (!hello.ok() && hello.status().code() != StatusCode::kNotFound) return hello.status();
  store->connected_ = true;
  return store;
}

GrpcKeyValueStore::~GrpcKeyValueStore() {
  if (!connected_) return;  // never reached the coordinator: nothing to leave
  grpc::ClientContext context;
  SetDeadline(context, std::chrono::milliseconds(1000));
  wire::LeaveRequest request;
  request.set_node_id(node_id_);
  wire::Empty response;
  (void)channel_->stub->Leave(&context, request, &response);
}

StatusOr<std::string> GrpcKeyValueStore::Get(std::string_view key, int timeout_ms) {
  grpc::ClientContext context;
  SetDeadline(context, std::chrono::milliseconds(std::max(timeout_ms, 0)) + io_timeout_);
  wire::GetRequest request;
  request.set_key(std::string(key));
  request.set_timeout_ms(timeout_ms);
  wire::Value response;
  PLUGRT_RETURN_IF_ERROR(
      Named(remote::FromGrpc(channel_->stub->Get(&context, request, &response)), address_));
  return std::move(*response.mutable_value());
}

StatusOr<std::string> GrpcKeyValueStore::TryGet(std::string_view key) {
  grpc::ClientContext context;
  SetDeadline(context, io_timeout_);
  wire::GetRequest request;
  request.set_key(std::string(key));
  wire::Value response;
  const Status status = remote::FromGrpc(channel_->stub->TryGet(&context, request, &response));
  if (status.code() == StatusCode::kNotFound) return status;
  PLUGRT_RETURN_IF_ERROR(Named(status, address_));
  return std::move(*response.mutable_value());
}

Status GrpcKeyValueStore::Put(std::string_view key, std::string_view value) {
  grpc::ClientContext context;
  SetDeadline(context, io_timeout_);
  wire::PutRequest request;
  request.set_key(std::string(key));
  request.set_value(std::string(value));
  wire::Empty response;
  return Named(remote::FromGrpc(channel_->stub->Put(&context, request, &response)), address_);
}

}  // namespace plugrt::distributed
