// The worker's gRPC service: each handler authenticates, finds the caller's
// context, checks the request and turns it into client-library calls on the
// hosted PJRT client; every failure is a status, never a crash.
#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "client/device.h"
#include "common/element_type.h"
#include "common/layout.h"
#include "proto/remote_worker.grpc.pb.h"
#include "remote/token.h"
#include "remote/tls.h"
#include "remote/wire.h"
#include "remote/worker_context.h"
#include "remote/worker_server.h"

namespace plugrt::remote {
namespace {

using std::chrono::milliseconds;

// Keeps a context out of expiry while one request uses it.
class ContextUse {
 public:
  explicit ContextUse(std::shared_ptr<WorkerContext> context) : context_(std::move(context)) {
    context_->Enter();
  }
  ~ContextUse() { context_->Leave(); }
  WorkerContext& operator*() const { return *context_; }
  WorkerContext* operator->() const { return context_.get(); }

 private:
  std::shared_ptr<WorkerContext> context_;
};

// Aligned so that the CPU plugin can alias uploaded arrays instead of
// copying them (its zero-copy path wants 16-byte alignment).
constexpr size_t kStorageAlignment = 64;

void* AllocateStorage(int64_t bytes) {
  size_t size = static_cast<size_t>(std::max<int64_t>(bytes, 1));
  size = (size + kStorageAlignment - 1) / kStorageAlignment * kStorageAlignment;
  return std::aligned_alloc(kStorageAlignment, size);
}

void FillShape(PJRT_Buffer_Type type, const std::vector<int64_t>& dims, wire::ShapeInfo* shape) {
  shape->set_element_type(type);
  for (int64_t d : dims) shape->add_dims(d);
}

Status FillBufferInfo(uint64_t handle, const Buffer& buffer, wire::BufferInfo* info) {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, buffer.element_type());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, buffer.dimensions());
  PLUGRT_ASSIGN_OR_RETURN(Device device, buffer.device());
  PLUGRT_ASSIGN_OR_RETURN(int device_id, device.id());
  info->set_handle(handle);
  FillShape(type, dims, info->mutable_shape());
  info->set_device_id(device_id);
  StatusOr<size_t> size = buffer.on_device_size();
  if (size.ok()) info->set_on_device_size(*size);
  return OkStatus();
}

void FillStatuses(const std::vector<Status>& statuses, wire::ExecutionStatus* response) {
  response->set_done(true);
  for (const Status& status : statuses) {
    response->add_device_codes(static_cast<int32_t>(status.code()));
    response->add_device_messages(status.message());
  }
}

// The longest a request may make the worker wait for an execution: the
// client polls again, so a dead client never holds a thread for long.
constexpr uint32_t kMaxWaitMs = 2000;

class WorkerService final : public wire::Worker::Service {
 public:
  WorkerService(Client& client, std::string token) : client_(client), token_(std::move(token)) {}

  ContextTable& contexts() { return contexts_; }

  grpc::Status CreateContext(grpc::ServerContext* call, const wire::CreateContextRequest* request,
                             wire::CreateContextResponse* response) override {
    return ToGrpc(DoCreateContext(call, *request, *response));
  }

  grpc::Status KeepAlive(grpc::ServerContext* call, const wire::ContextRef* request,
                         wire::KeepAliveResponse*) override {
    return ToGrpc(UseContext(call, request->context_id()).status());
  }

  grpc::Status CloseContext(grpc::ServerContext* call, const wire::ContextRef* request,
                            wire::Empty*) override {
    Status auth = Authorize(call);
    if (!auth.ok()) return ToGrpc(auth);
    return ToGrpc(contexts_.Close(request->context_id()));
  }

  grpc::Status Upload(grpc::ServerContext* call, grpc::ServerReader<wire::UploadChunk>* reader,
                      wire::BufferInfo* response) override {
    return ToGrpc(DoUpload(call, *reader, *response));
  }

  grpc::Status Download(grpc::ServerContext* call, const wire::DownloadRequest* request,
                        grpc::ServerWriter<wire::DataChunk>* writer) override {
    return ToGrpc(DoDownload(call, *request, *writer));
  }

  grpc::Status CopyToDevice(grpc::ServerContext* call, const wire::CopyToDeviceRequest* request,
                            wire::BufferInfo* response) override {
    return ToGrpc(DoCopyToDevice(call, *request, *response));
  }

  grpc::Status Compile(grpc::ServerContext* call, const wire::CompileRequest* request,
                       wire::ExecutableInfo* response) override {
    return ToGrpc(DoCompile(call, *request, *response));
  }

  grpc::Status SerializeExecutable(grpc::ServerContext* call, const wire::HandleRef* request,
                                   wire::SerializedExecutable* response) override {
    return ToGrpc(DoSerialize(call, *request, *response));
  }

  grpc::Status Execute(grpc::ServerContext* call, const wire::ExecuteRequest* request,
                       wire::ExecutionStatus* response) override {
    return ToGrpc(DoExecute(call, *request, *response));
  }

  grpc::Status AwaitExecution(grpc::ServerContext* call, const wire::AwaitRequest* request,
                              wire::ExecutionStatus* response) override {
    return ToGrpc(DoAwait(call, *request, *response));
  }

  grpc::Status Delete(grpc::ServerContext* call, const wire::DeleteRequest* request,
                      wire::Empty*) override {
    StatusOr<std::shared_ptr<WorkerContext>> context = UseContext(call, request->context_id());
    if (!context.ok()) return ToGrpc(context.status());
    ContextUse use(*context);
    std::vector<uint64_t> buffers(request->buffers().begin(), request->buffers().end());
    std::vector<uint64_t> executables(request->executables().begin(),
                                      request->executables().end());
    return ToGrpc(use->Delete(buffers, executables));
  }

 private:
  Status Authorize(grpc::ServerContext* call) const {
    const auto& metadata = call->client_metadata();
    auto it = metadata.find(kTokenMetadataKey);
    if (it == metadata.end()) {
      return Status(StatusCode::kUnauthenticated, "the request carries no plugrt token");
    }
    if (!TokenMatches(token_, std::string_view(it->second.data(), it->second.size()))) {
      return Status(StatusCode::kUnauthenticated, "the request's plugrt token is wrong");
    }
    return OkStatus();
  }

  StatusOr<std::shared_ptr<WorkerContext>> UseContext(grpc::ServerContext* call, uint64_t id) {
    PLUGRT_RETURN_IF_ERROR(Authorize(call));
    return contexts_.Use(id);
  }

  StatusOr<Device> AddressableDevice(int id) const {
    StatusOr<Device> device = client_.LookupDevice(id);
    if (!device.ok()) return InvalidArgument("device ", id, " is not a device of this worker");
    PLUGRT_ASSIGN_OR_RETURN(bool addressable, device->is_addressable());
    if (!addressable) return InvalidArgument("device ", id, " is not addressable on this worker");
    return *device;
  }

  Status DoCreateContext(grpc::ServerContext* call, const wire::CreateContextRequest& request,
                         wire::CreateContextResponse& response) {
    PLUGRT_RETURN_IF_ERROR(Authorize(call));
    constexpr uint32_t kMaxKeepAlive = 7 * 24 * 3600;
    uint32_t keep_alive = request.keep_alive_secs();
    if (keep_alive == 0 || keep_alive > kMaxKeepAlive) {
      return InvalidArgument("keep_alive_secs must be in [1, ", kMaxKeepAlive, "], got ",
                             keep_alive);
    }
    PLUGRT_ASSIGN_OR_RETURN(std::string platform, client_.platform_name());
    PLUGRT_ASSIGN_OR_RETURN(std::string version, client_.platform_version());
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, client_.addressable_devices());
    for (const Device& device : devices) {
      wire::DeviceInfo* info = response.add_devices();
      PLUGRT_ASSIGN_OR_RETURN(int id, device.id());
      PLUGRT_ASSIGN_OR_RETURN(int process, device.process_index());
      PLUGRT_ASSIGN_OR_RETURN(int hardware, device.local_hardware_id());
      PLUGRT_ASSIGN_OR_RETURN(std::string kind, device.kind());
      PLUGRT_ASSIGN_OR_RETURN(std::string debug, device.debug_string());
      PLUGRT_ASSIGN_OR_RETURN(std::string text, device.to_string());
      info->set_id(id);
      info->set_process_index(process);
      info->set_local_hardware_id(hardware);
      info->set_kind(kind);
      info->set_debug_string(debug);
      info->set_to_string(text);
    }
    std::shared_ptr<WorkerContext> context = contexts_.Create(std::chrono::seconds(keep_alive));
    response.set_context_id(context->id());
    response.set_platform_name(platform);
    response.set_platform_version(version);
    response.set_keep_alive_secs(keep_alive);
    return OkStatus();
  }

  Status DoUpload(grpc::ServerContext* call, grpc::ServerReader<wire::UploadChunk>& reader,
                  wire::BufferInfo& response) {
    PLUGRT_RETURN_IF_ERROR(Authorize(call));
    wire::UploadChunk chunk;
    if (!reader.Read(&chunk)) return InvalidArgument("Upload: the stream holds no header message");
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<WorkerContext> found,
                            contexts_.Use(chunk.context_id()));
    ContextUse context(std::move(found));
    const int type = chunk.shape().element_type();
    std::vector<int64_t> dims(chunk.shape().dims().begin(), chunk.shape().dims().end());
    PLUGRT_ASSIGN_OR_RETURN(int64_t bytes, HostArrayBytes(type, dims));
    PLUGRT_ASSIGN_OR_RETURN(Device device, AddressableDevice(chunk.device_id()));
    // More than the machine's memory cannot succeed; refusing it here keeps
    // a bad header from reaching the allocator at all.
    const int64_t physical = static_cast<int64_t>(::sysconf(_SC_PHYS_PAGES)) *
                             static_cast<int64_t>(::sysconf(_SC_PAGESIZE));
    if (physical > 0 && bytes > physical) {
      return ResourceExhausted("Upload: the array's ", bytes, " bytes exceed the worker's ",
                               physical, " bytes of memory");
    }
    std::unique_ptr<void, decltype(&std::free)> storage(AllocateStorage(bytes), &std::free);
    if (storage == nullptr) {
      return ResourceExhausted("Upload: cannot allocate ", bytes, " bytes on the worker");
    }
    // Each chunk goes straight to its place in the array: the worker never
    // holds more than the array and one message.
    int64_t received = 0;
    do {
      const std::string& data = chunk.data();
      if (static_cast<int64_t>(data.size()) > bytes - received) {
        return InvalidArgument("Upload: more data than the ", bytes, " bytes of a ",
                               ElementTypeName(type), " array of this shape");
      }
      std::memcpy(static_cast<char*>(storage.get()) + received, data.data(), data.size());
      received += static_cast<int64_t>(data.size());
      context->Touch();
    } while (reader.Read(&chunk));
    if (call->IsCancelled()) return Cancelled("Upload: cancelled by the client");
    if (received != bytes) {
      return InvalidArgument("Upload: got ", received, " bytes of the array's ", bytes);
    }
    Client::HostBuffer host(storage.get(), static_cast<PJRT_Buffer_Type>(type), dims);
    // The plugin may alias the array (the CPU plugin does); it says when it
    // lets go of it through the done event, which frees the storage.
    host.semantics = PJRT_HostBufferSemantics_kImmutableZeroCopy;
    PLUGRT_ASSIGN_OR_RETURN(auto made, client_.BufferFromHostBuffer(host, device));
    void* raw = storage.release();
    Status registered = made.second.OnReady([raw](Status) { std::free(raw); });
    if (!registered.ok()) {
      made.first = Buffer();  // the only user of the storage
      made.second.Await().IgnoreError();
      std::free(raw);
      return registered;
    }
    uint64_t handle = context->AddBuffer(std::move(made.first));
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> buffer, context->GetBuffer(handle));
    return FillBufferInfo(handle, *buffer, &response);
  }

  Status DoDownload(grpc::ServerContext* call, const wire::DownloadRequest& request,
                    grpc::ServerWriter<wire::DataChunk>& writer) {
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<WorkerContext> found,
                            UseContext(call, request.context_id()));
    ContextUse context(std::move(found));
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> buffer, context->GetBuffer(request.handle()));
    {
      // Waited for in steps, so that a cancelled call (the client gone, the
      // worker shutting down) never stays blocked on a program that runs on.
      std::vector<Future> ready;
      PLUGRT_ASSIGN_OR_RETURN(ready.emplace_back(), buffer->ReadyFuture());
      Execution producer(std::move(ready));
      while (!producer.WaitFor(milliseconds(100))) {
        if (call->IsCancelled()) return Cancelled("Download: cancelled while the buffer was not ready");
      }
      PLUGRT_RETURN_IF_ERROR(producer.statuses()[0]);
    }
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, buffer->element_type());
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, buffer->dimensions());
    PLUGRT_ASSIGN_OR_RETURN(int64_t bytes, HostArrayBytes(type, dims));
    size_t chunk_bytes = request.chunk_bytes() == 0 ? kChunkBytes : request.chunk_bytes();
    chunk_bytes = std::clamp<size_t>(chunk_bytes, 4096, size_t{16} << 20);

    // Dense row-major device bytes that equal the host form are sent chunk
    // by chunk straight from the buffer; anything else is converted whole
    // by the plugin first.
    bool raw = ElementBitWidth(type) % 8 == 0;
    if (raw) {
      StatusOr<size_t> device_size = buffer->on_device_size();
      StatusOr<Layout> layout = buffer->layout();
      raw = device_size.ok() && static_cast<int64_t>(*device_size) == bytes && layout.ok() &&
            layout->IsRowMajor();
    }
    std::vector<std::byte> whole;
    for (int64_t offset = 0; offset < bytes;) {
      const int64_t n = std::min<int64_t>(static_cast<int64_t>(chunk_bytes), bytes - offset);
      wire::DataChunk message;
      std::string* data = message.mutable_data();
      data->resize(static_cast<size_t>(n));
      if (raw) {
        Status copied = buffer->CopyRawToHost(data->data(), offset, n);
        if (copied.code() == StatusCode::kUnimplemented && offset == 0) {
          raw = false;
        } else if (!copied.ok()) {
          return copied;
        }
      }
      if (!raw) {
        if (whole.empty()) {
          PLUGRT_ASSIGN_OR_RETURN(whole, buffer->ToHostVector());
          if (static_cast<int64_t>(whole.size()) != bytes) {
            return Internal("Download: the plugin wrote ", whole.size(), " host bytes, expected ",
                            bytes);
          }
        }
        std::memcpy(data->data(), whole.data() + offset, static_cast<size_t>(n));
      }
      if (!writer.Write(message)) return Cancelled("Download: the client went away");
      offset += n;
      context->Touch();
    }
    return OkStatus();
  }

  Status DoCopyToDevice(grpc::ServerContext* call, const wire::CopyToDeviceRequest& request,
                        wire::BufferInfo& response) {
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<WorkerContext> found,
                            UseContext(call, request.context_id()));
    ContextUse context(std::move(found));
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> buffer, context->GetBuffer(request.handle()));
    PLUGRT_ASSIGN_OR_RETURN(Device device, AddressableDevice(request.device_id()));
    PLUGRT_ASSIGN_OR_RETURN(Buffer copy, buffer->CopyToDevice(device));
    uint64_t handle = context->AddBuffer(std::move(copy));
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> added, context->GetBuffer(handle));
    return FillBufferInfo(handle, *added, &response);
  }

  Status DoCompile(grpc::ServerContext* call, const wire::CompileRequest& request,
                   wire::ExecutableInfo& response) {
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<WorkerContext> found,
                            UseContext(call, request.context_id()));
    ContextUse context(std::move(found));
    StatusOr<LoadedExecutable> loaded = InvalidArgument("Compile: the request holds no program");
    if (request.has_program()) {
      std::string_view format = request.format();
      if (format.empty()) format = "mlir";
      loaded = client_.Compile(request.program(), format, request.compile_options());
    } else if (request.has_serialized_executable()) {
      loaded = client_.DeserializeAndLoad(request.serialized_executable(),
                                          request.compile_options());
    }
    if (!loaded.ok()) return loaded.status();
    PLUGRT_ASSIGN_OR_RETURN(std::string name, loaded->name());
    PLUGRT_ASSIGN_OR_RETURN(int64_t replicas, loaded->num_replicas());
    PLUGRT_ASSIGN_OR_RETURN(int64_t partitions, loaded->num_partitions());
    PLUGRT_ASSIGN_OR_RETURN(size_t outputs, loaded->num_outputs());
    PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, loaded->addressable_devices());
    response.set_name(name);
    response.set_num_replicas(replicas);
    response.set_num_partitions(partitions);
    response.set_num_outputs(static_cast<int64_t>(outputs));
    for (const Device& device : devices) {
      PLUGRT_ASSIGN_OR_RETURN(int id, device.id());
      response.add_device_ids(id);
    }
    // Output shapes and the fingerprint are optional in PJRT: a plugin
    // without them leaves them out.
    StatusOr<std::vector<PJRT_Buffer_Type>> types = loaded->output_element_types();
    StatusOr<std::vector<std::vector<int64_t>>> dims = loaded->output_dimensions();
    if (types.ok() && dims.ok() && types->size() == outputs && dims->size() == outputs) {
      for (size_t i = 0; i < outputs; ++i) FillShape((*types)[i], (*dims)[i], response.add_outputs());
    }
    StatusOr<std::string> fingerprint = loaded->fingerprint();
    if (fingerprint.ok()) response.set_fingerprint(*fingerprint);
    response.set_handle(context->AddExecutable(std::move(*loaded)));
    return OkStatus();
  }

  Status DoSerialize(grpc::ServerContext* call, const wire::HandleRef& request,
                     wire::SerializedExecutable& response) {
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<WorkerContext> found,
                            UseContext(call, request.context_id()));
    ContextUse context(std::move(found));
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<LoadedExecutable> executable,
                            context->GetExecutable(request.handle()));
    PLUGRT_ASSIGN_OR_RETURN(std::string bytes, executable->Serialize());
    response.set_data(std::move(bytes));
    return OkStatus();
  }

  Status DoExecute(grpc::ServerContext* call, const wire::ExecuteRequest& request,
                   wire::ExecutionStatus& response) {
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<WorkerContext> found,
                            UseContext(call, request.context_id()));
    ContextUse context(std::move(found));
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<LoadedExecutable> executable,
                            context->GetExecutable(request.executable()));
    // The argument buffers stay referenced until the launch returns.
    std::vector<std::shared_ptr<Buffer>> held;
    std::vector<std::vector<Buffer*>> lists;
    std::vector<uint64_t> handles;
    for (const wire::ArgumentList& list : request.argument_lists()) {
      std::vector<Buffer*>& args = lists.emplace_back();
      for (uint64_t handle : list.buffers()) {
        PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> buffer, context->GetBuffer(handle));
        args.push_back(buffer.get());
        held.push_back(std::move(buffer));
        handles.push_back(handle);
      }
    }
    ExecuteOptions options;
    options.launch_id = static_cast<int>(request.launch_id());
    options.non_donatable_input_indices.assign(request.non_donatable_input_indices().begin(),
                                               request.non_donatable_input_indices().end());
    if (request.has_execute_device()) {
      PLUGRT_ASSIGN_OR_RETURN(options.execute_device,
                              AddressableDevice(request.execute_device_id()));
    }
    PLUGRT_ASSIGN_OR_RETURN(ExecuteResult result, executable->ExecuteAsync(lists, options));
    for (OutputList& device_outputs : result.outputs) {
      wire::DeviceOutputs* out = response.add_outputs();
      for (Buffer& output : device_outputs) {
        uint64_t handle = context->AddBuffer(std::move(output));
        PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> added, context->GetBuffer(handle));
        PLUGRT_RETURN_IF_ERROR(FillBufferInfo(handle, *added, out->add_buffers()));
      }
    }
    // Donated arguments are deleted by the launch: the client learns which.
    for (size_t i = 0; i < held.size(); ++i) {
      StatusOr<bool> deleted = held[i]->is_deleted();
      if (deleted.ok() && *deleted) {
        context->ForgetBuffer(handles[i]);
        response.add_donated(handles[i]);
      }
    }
    auto execution = std::make_shared<Execution>(std::move(result.device_complete).ToVector());
    if (execution->WaitFor(milliseconds(std::min(request.wait_ms(), kMaxWaitMs)))) {
      FillStatuses(execution->statuses(), &response);
    } else {
      response.set_execution(context->AddExecution(std::move(execution)));
    }
    return OkStatus();
  }

  Status DoAwait(grpc::ServerContext* call, const wire::AwaitRequest& request,
                 wire::ExecutionStatus& response) {
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<WorkerContext> found,
                            UseContext(call, request.context_id()));
    ContextUse context(std::move(found));
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Execution> execution,
                            context->GetExecution(request.execution()));
    response.set_execution(request.execution());
    if (execution->WaitFor(milliseconds(std::min(request.wait_ms(), kMaxWaitMs)))) {
      FillStatuses(execution->statuses(), &response);
      context->ForgetExecution(request.execution());
    }
    return OkStatus();
  }

  Client& client_;
  const std::string token_;
  ContextTable contexts_;
};

}  // namespace

struct WorkerServer::Impl {
  std::unique_ptr<Client> client;
  std::unique_ptr<WorkerService> service;
  std::unique_ptr<grpc::Server> server;
  int port = 0;
  std::mutex mu;
  std::condition_variable cv;
  bool stopping = false;
  std::thread reaper;

  // Drops expired contexts a few times per second: expiry is late by at
  // most a tick.
  void Reap() {
    std::unique_lock<std::mutex> lock(mu);
    while (!cv.wait_for(lock, milliseconds(100), [this] { return stopping; })) {
      lock.unlock();
      service->contexts().DropExpired();
      lock.lock();
    }
  }
};

WorkerServer::WorkerServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

StatusOr<std::unique_ptr<WorkerServer>> WorkerServer::Start(std::unique_ptr<Client> client,
                                                           const WorkerOptions& options) {
  if (client == nullptr) return InvalidArgument("WorkerServer needs a client");
  if (options.token.empty()) return InvalidArgument("WorkerServer needs a token");
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<grpc::ServerCredentials> credentials,
                          ServerCredentials(options.tls, options.listen, "plugrt serve"));
  auto impl = std::make_unique<Impl>();
  impl->client = std::move(client);
  impl->service = std::make_unique<WorkerService>(*impl->client, options.token);
  grpc::ServerBuilder builder;
  builder.AddListeningPort(options.listen, credentials, &impl->port);
  builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
  builder.SetMaxSendMessageSize(kMaxMessageBytes);
  builder.RegisterService(impl->service.get());
  impl->server = builder.BuildAndStart();
  if (impl->server == nullptr || impl->port == 0) {
    return Status(StatusCode::kUnavailable,
                  StrCat("cannot listen on '", options.listen, "' (address in use or invalid)"));
  }
  impl->reaper = std::thread([raw = impl.get()] { raw->Reap(); });
  return std::unique_ptr<WorkerServer>(new WorkerServer(std::move(impl)));
}

WorkerServer::~WorkerServer() { Shutdown(); }

int WorkerServer::port() const { return impl_->port; }

void WorkerServer::Wait() { impl_->server->Wait(); }

void WorkerServer::Shutdown() {
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    if (impl_->stopping) return;
    impl_->stopping = true;
  }
  impl_->cv.notify_all();
  impl_->server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
  if (impl_->reaper.joinable()) impl_->reaper.join();
}

size_t WorkerServer::live_contexts() const { return impl_->service->contexts().size(); }

}  // namespace plugrt::remote
