#include "plugins/remote/remote_executable.h"

#include "plugins/remote/remote_buffer.h"
#include "plugins/remote/remote_client.h"

namespace plugrt::remote {
namespace {

// How long Execute lets the worker wait for the execution to end before it
// answers: a small program's result comes back with the launch, in one
// round trip; a longer one completes through the connection's poller.
constexpr uint32_t kInlineWaitMs = 20;

}  // namespace

RemoteExecutable::RemoteExecutable(std::shared_ptr<Connection> connection,
                                   const wire::ExecutableInfo& info)
    : connection_(std::move(connection)), handle_(info.handle()), name_(info.name()),
      num_replicas_(info.num_replicas()), num_partitions_(info.num_partitions()),
      num_outputs_(static_cast<size_t>(info.num_outputs())),
      has_output_shapes_(static_cast<size_t>(info.outputs_size()) == num_outputs_),
      fingerprint_(info.fingerprint()) {
  for (const wire::ShapeInfo& shape : info.outputs()) {
    output_types_.push_back(static_cast<PJRT_Buffer_Type>(shape.element_type()));
    output_dims_.emplace_back(shape.dims().begin(), shape.dims().end());
  }
}

StatusOr<std::vector<PJRT_Buffer_Type>> RemoteExecutable::output_element_types() const {
  if (!has_output_shapes_) return Unimplemented("the worker's plugin reports no output types");
  return output_types_;
}

StatusOr<std::vector<std::vector<int64_t>>> RemoteExecutable::output_dimensions() const {
  if (!has_output_shapes_) return Unimplemented("the worker's plugin reports no output shapes");
  return output_dims_;
}

StatusOr<std::string> RemoteExecutable::fingerprint() const {
  if (fingerprint_.empty()) return Unimplemented("the worker's plugin reports no fingerprint");
  return fingerprint_;
}

StatusOr<std::string> RemoteExecutable::Serialize() const {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<grpc::ClientContext> call, connection_->NewControlCall());
  wire::HandleRef request;
  request.set_context_id(connection_->context_id());
  request.set_handle(handle_);
  wire::SerializedExecutable response;
  PLUGRT_RETURN_IF_ERROR(connection_->Finish(
      connection_->stub().SerializeExecutable(call.get(), request, &response),
      "SerializeExecutable"));
  return std::move(*response.mutable_data());
}

StatusOr<std::unique_ptr<RemoteLoadedExecutable>> RemoteLoadedExecutable::Create(
    RemoteClient* client, const wire::ExecutableInfo& info) {
  std::unique_ptr<RemoteLoadedExecutable> loaded(new RemoteLoadedExecutable());
  loaded->client_ = client;
  loaded->connection_ = client->connection();
  loaded->executable_ = std::make_shared<RemoteExecutable>(client->connection(), info);
  for (int id : info.device_ids()) {
    StatusOr<RemoteDevice*> device = client->DeviceById(id);
    if (!device.ok()) {
      client->connection()->ReleaseExecutable(info.handle());
      return device.status();
    }
    loaded->devices_.push_back(*device);
  }
  return loaded;
}

RemoteLoadedExecutable::~RemoteLoadedExecutable() { Delete(); }

void RemoteLoadedExecutable::Delete() {
  if (deleted_.exchange(true)) return;
  connection_->ReleaseExecutable(executable_->handle());
}

StatusOr<sdk::ExecuteResult> RemoteLoadedExecutable::Execute(
    const std::vector<std::vector<sdk::Buffer*>>& argument_lists, sdk::Device* execute_device,
    const sdk::ExecuteOptions& options) {
  if (deleted_) return FailedPrecondition("Execute: the executable has been deleted");
  if (!options.send_callbacks.empty() || !options.recv_callbacks.empty()) {
    return Unimplemented("host send/recv callbacks do not cross to a remote worker");
  }
  if (options.user_data != nullptr) {
    return Unimplemented("execute-context user data does not cross to a remote worker");
  }
  wire::ExecuteRequest request;
  request.set_context_id(connection_->context_id());
  request.set_executable(executable_->handle());
  request.set_launch_id(options.launch_id);
  for (int64_t index : options.non_donatable_input_indices) {
    request.add_non_donatable_input_indices(index);
  }
  if (execute_device != nullptr) {
    PLUGRT_ASSIGN_OR_RETURN(RemoteDevice * device, client_->Own(execute_device));
    request.set_has_execute_device(true);
    request.set_execute_device_id(device->description().id());
  }
  std::vector<RemoteBuffer*> arguments;
  for (size_t d = 0; d < argument_lists.size(); ++d) {
    wire::ArgumentList* list = request.add_argument_lists();
    for (size_t i = 0; i < argument_lists[d].size(); ++i) {
      auto* buffer = dynamic_cast<RemoteBuffer*>(argument_lists[d][i]);
      if (buffer == nullptr || buffer->client() != client_) {
        return InvalidArgument("Execute: argument ", i, " of device list ", d,
                               " is not a buffer of this remote client");
      }
      if (buffer->is_deleted()) {
        return FailedPrecondition("Execute: argument ", i, " of device list ", d,
                                  " has been deleted or donated");
      }
      list->add_buffers(buffer->handle());
      arguments.push_back(buffer);
    }
  }
  request.set_wait_ms(kInlineWaitMs);
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<grpc::ClientContext> call, connection_->NewControlCall());
  wire::ExecutionStatus response;
  PLUGRT_RETURN_IF_ERROR(
      connection_->Finish(connection_->stub().Execute(call.get(), request, &response), "Execute"));

  for (uint64_t donated : response.donated()) {
    for (RemoteBuffer* buffer : arguments) {
      if (buffer->handle() == donated) buffer->MarkDonated();
    }
  }
  sdk::ExecuteResult result;
  std::vector<sdk::EventRef> events;
  for (int d = 0; d < response.outputs_size(); ++d) {
    sdk::EventRef event;
    if (response.done()) {
      const int code = d < response.device_codes_size() ? response.device_codes(d) : 0;
      event = sdk::Event::MakeReady(
          code == 0 ? OkStatus()
                    : Status(static_cast<StatusCode>(code),
                             d < response.device_messages_size() ? response.device_messages(d)
                                                                 : std::string()));
    } else {
      event = sdk::Event::Create();
      events.push_back(event);
    }
    auto& outputs = result.outputs.emplace_back();
    for (const wire::BufferInfo& info : response.outputs(d).buffers()) {
      // The worker reports only its own devices; DeviceById fails only on
      // a malformed answer.
      PLUGRT_ASSIGN_OR_RETURN(RemoteDevice * device, client_->DeviceById(info.device_id()));
      outputs.push_back(std::make_unique<RemoteBuffer>(
          client_, connection_, info.handle(),
          static_cast<PJRT_Buffer_Type>(info.shape().element_type()),
          std::vector<int64_t>(info.shape().dims().begin(), info.shape().dims().end()), device,
          info.on_device_size(), event));
    }
    result.device_complete_events.push_back(std::move(event));
  }
  if (!response.done()) connection_->Watch(response.execution(), std::move(events));
  return result;
}

}  // namespace plugrt::remote
