#include "plugins/remote/remote_client.h"

#include "plugins/remote/remote_buffer.h"
#include "plugins/remote/remote_executable.h"

namespace plugrt::remote {
namespace {

// Compiling may take long on the worker; still, never forever.
constexpr std::chrono::minutes kCompileDeadline{10};

}  // namespace

StatusOr<std::unique_ptr<RemoteClient>> RemoteClient::Create(const ConnectionOptions& options) {
  wire::CreateContextResponse opened;
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Connection> connection,
                          Connection::Open(options, &opened));
  std::unique_ptr<RemoteClient> client(new RemoteClient());
  client->connection_ = std::move(connection);
  client->platform_ = opened.platform_name();
  client->version_ = StrCat(opened.platform_version(), " (remote worker ", options.address, ")");
  std::vector<const sdk::DeviceDescription*> descriptions;
  for (const wire::DeviceInfo& info : opened.devices()) {
    RemoteDeviceInfo device{info.id(), info.process_index(), info.local_hardware_id(),
                            info.kind(), info.debug_string(), info.to_string()};
    auto& owned = client->owned_devices_.emplace_back(
        std::make_unique<RemoteDevice>(std::move(device), options.address));
    client->devices_.push_back(owned.get());
    client->memories_.push_back(owned->memory());
    descriptions.push_back(&owned->description());
  }
  client->topology_ = std::make_unique<RemoteTopology>(client->platform_, client->version_,
                                                       std::move(descriptions));
  return client;
}

RemoteClient::~RemoteClient() {
  // Buffers and executables may outlive the client (the SDK keeps the
  // client alive while they live); closing here ends the context.
  connection_->Close();
}

StatusOr<RemoteDevice*> RemoteClient::DeviceById(int id) const {
  for (const auto& device : owned_devices_) {
    if (device->description().id() == id) return device.get();
  }
  return NotFound("remote worker ", connection_->address(), " has no device with id ", id);
}

StatusOr<RemoteDevice*> RemoteClient::Own(sdk::Device* device) const {
  for (const auto& owned : owned_devices_) {
    if (owned.get() == device) return owned.get();
  }
  return InvalidArgument("the device is not one of this remote client's");
}

StatusOr<sdk::Device*> RemoteClient::LookupDevice(int id) const {
  PLUGRT_ASSIGN_OR_RETURN(RemoteDevice * device, DeviceById(id));
  return device;
}

StatusOr<sdk::Device*> RemoteClient::LookupAddressableDevice(int local_hardware_id) const {
  for (const auto& device : owned_devices_) {
    if (device->local_hardware_id() == local_hardware_id) return device.get();
  }
  return NotFound("remote worker ", connection_->address(),
                  " has no device with local hardware id ", local_hardware_id);
}

StatusOr<std::vector<int>> RemoteClient::DefaultDeviceAssignment(int num_replicas,
                                                                 int num_partitions) const {
  if (num_replicas < 1 || num_partitions < 1) {
    return InvalidArgument("DefaultDeviceAssignment: ", num_replicas, " replicas x ",
                           num_partitions, " partitions");
  }
  const int64_t needed = int64_t{num_replicas} * num_partitions;
  if (needed > static_cast<int64_t>(devices_.size())) {
    return InvalidArgument("remote worker ", connection_->address(), " has ", devices_.size(),
                           " devices; asked for ", num_replicas, " x ", num_partitions);
  }
  std::vector<int> ids;
  for (int64_t i = 0; i < needed; ++i) ids.push_back(devices_[i]->description().id());
  return ids;
}

StatusOr<sdk::HostBufferResult> RemoteClient::BufferFromHostBuffer(
    const sdk::HostBufferArgs& args) {
  sdk::Device* target = args.device;
  if (target == nullptr && args.memory != nullptr) {
    std::vector<sdk::Device*> devices = args.memory->addressable_by_devices();
    if (!devices.empty()) target = devices.front();
  }
  PLUGRT_ASSIGN_OR_RETURN(RemoteDevice * device, Own(target));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<RemoteBuffer> buffer,
                          RemoteBuffer::Upload(this, args, device));
  sdk::HostBufferResult result;
  result.buffer = std::move(buffer);
  // The bytes are on the worker when Upload returns.
  result.done_with_host_buffer = sdk::Event::MakeReady();
  return result;
}

StatusOr<std::unique_ptr<sdk::LoadedExecutable>> RemoteClient::Compile(
    const sdk::Program& program, std::string_view compile_options) {
  wire::CompileRequest request;
  request.set_context_id(connection_->context_id());
  request.set_program(std::string(program.code));
  request.set_format(std::string(program.format));
  request.set_compile_options(std::string(compile_options));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<grpc::ClientContext> call,
                          connection_->NewCall(kCompileDeadline));
  wire::ExecutableInfo info;
  PLUGRT_RETURN_IF_ERROR(
      connection_->Finish(connection_->stub().Compile(call.get(), request, &info), "Compile"));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<RemoteLoadedExecutable> loaded,
                          RemoteLoadedExecutable::Create(this, info));
  return std::unique_ptr<sdk::LoadedExecutable>(std::move(loaded));
}

StatusOr<std::unique_ptr<sdk::LoadedExecutable>> RemoteClient::DeserializeAndLoad(
    std::string_view serialized, std::string_view compile_options) {
  wire::CompileRequest request;
  request.set_context_id(connection_->context_id());
  request.set_serialized_executable(std::string(serialized));
  request.set_compile_options(std::string(compile_options));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<grpc::ClientContext> call,
                          connection_->NewCall(kCompileDeadline));
  wire::ExecutableInfo info;
  PLUGRT_RETURN_IF_ERROR(connection_->Finish(connection_->stub().Compile(call.get(), request, &info),
                                             "DeserializeAndLoad"));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<RemoteLoadedExecutable> loaded,
                          RemoteLoadedExecutable::Create(this, info));
  return std::unique_ptr<sdk::LoadedExecutable>(std::move(loaded));
}

}  // namespace plugrt::remote
