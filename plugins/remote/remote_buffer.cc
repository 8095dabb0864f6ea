#include "plugins/remote/remote_buffer.h"

#include <algorithm>
#include <cstring>

#include "common/element_type.h"
#include "plugins/remote/remote_client.h"
#include "remote/wire.h"

namespace plugrt::remote {

RemoteBuffer::RemoteBuffer(RemoteClient* client, std::shared_ptr<Connection> connection,
                           uint64_t handle, PJRT_Buffer_Type type, std::vector<int64_t> dims,
                           RemoteDevice* device, size_t on_device_size, sdk::EventRef ready)
    : client_(client), connection_(std::move(connection)), handle_(handle), type_(type),
      dims_(std::move(dims)), device_(device), on_device_size_(on_device_size),
      ready_(std::move(ready)) {}

RemoteBuffer::~RemoteBuffer() { Delete(); }

StatusOr<std::unique_ptr<RemoteBuffer>> RemoteBuffer::Upload(RemoteClient* client,
                                                             const sdk::HostBufferArgs& args,
                                                             RemoteDevice* device) {
  PLUGRT_ASSIGN_OR_RETURN(int64_t bytes, HostArrayBytes(args.type, args.dims));
  if (args.byte_strides) {
    // Dense row-major strides are accepted; others would need a local copy.
    if (args.byte_strides->size() != args.dims.size()) {
      return InvalidArgument("BufferFromHostBuffer: ", args.byte_strides->size(),
                             " byte strides for ", args.dims.size(), " dimensions");
    }
    int64_t stride = HostElementByteSize(args.type);
    for (size_t i = args.dims.size(); i-- > 0;) {
      if (args.dims[i] > 1 && (*args.byte_strides)[i] != stride) {
        return Unimplemented("the remote plugin sends dense row-major host arrays only");
      }
      stride *= args.dims[i];
    }
  }
  if (args.device_layout && !args.device_layout->IsRowMajor()) {
    return Unimplemented("the remote plugin keeps row-major device layouts only");
  }
  if (args.data == nullptr && bytes > 0) {
    return InvalidArgument("BufferFromHostBuffer: host data pointer is null for ", bytes,
                           " bytes");
  }
  const std::shared_ptr<Connection>& connection = client->connection();
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<grpc::ClientContext> call,
                          connection->NewCall(Connection::TransferDeadline(bytes)));
  wire::BufferInfo info;
  std::unique_ptr<grpc::ClientWriter<wire::UploadChunk>> writer =
      connection->stub().Upload(call.get(), &info);
  // One chunk at a time is copied into a message: the array is never held
  // twice on this side.
  wire::UploadChunk chunk;
  chunk.set_context_id(connection->context_id());
  chunk.set_device_id(device->description().id());
  chunk.mutable_shape()->set_element_type(args.type);
  for (int64_t d : args.dims) chunk.mutable_shape()->add_dims(d);
  const char* data = static_cast<const char*>(args.data);
  int64_t offset = 0;
  bool sent = true;
  do {
    const int64_t n = std::min<int64_t>(static_cast<int64_t>(kChunkBytes), bytes - offset);
    if (n > 0) chunk.set_data(data + offset, static_cast<size_t>(n));
    offset += n;
    sent = writer->Write(chunk);
    chunk.Clear();
  } while (sent && offset < bytes);
  writer->WritesDone();
  PLUGRT_RETURN_IF_ERROR(connection->Finish(writer->Finish(), "Upload"));
  return std::make_unique<RemoteBuffer>(client, connection, info.handle(), args.type, args.dims,
                                        device, info.on_device_size(), sdk::Event::MakeReady());
}

void RemoteBuffer::Delete() {
  if (deleted_.exchange(true)) return;
  connection_->ReleaseBuffer(handle_);
}

Status RemoteBuffer::Live(std::string_view what) const {
  if (deleted_) return FailedPrecondition(what, ": the buffer has been deleted or donated");
  return OkStatus();
}

StatusOr<sdk::EventRef> RemoteBuffer::ready_event() {
  PLUGRT_RETURN_IF_ERROR(Live("ready_event"));
  return ready_;
}

StatusOr<std::unique_ptr<sdk::Buffer>> RemoteBuffer::CopyToDevice(sdk::Device* device) {
  PLUGRT_RETURN_IF_ERROR(Live("CopyToDevice"));
  PLUGRT_ASSIGN_OR_RETURN(RemoteDevice * target, client_->Own(device));
  PLUGRT_RETURN_IF_ERROR(ready_->Await());
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<grpc::ClientContext> call,
                          connection_->NewCall(Connection::TransferDeadline(on_device_size_)));
  wire::CopyToDeviceRequest request;
  request.set_context_id(connection_->context_id());
  request.set_handle(handle_);
  request.set_device_id(target->description().id());
  wire::BufferInfo info;
  PLUGRT_RETURN_IF_ERROR(
      connection_->Finish(connection_->stub().CopyToDevice(call.get(), request, &info),
                          "CopyToDevice"));
  return std::unique_ptr<sdk::Buffer>(new RemoteBuffer(client_, connection_, info.handle(), type_,
                                                       dims_, target, info.on_device_size(),
                                                       sdk::Event::MakeReady()));
}

StatusOr<std::unique_ptr<sdk::Buffer>> RemoteBuffer::CopyToMemory(sdk::Memory* memory) {
  if (memory == nullptr) return InvalidArgument("CopyToMemory: the memory is null");
  std::vector<sdk::Device*> devices = memory->addressable_by_devices();
  if (devices.empty()) return InvalidArgument("CopyToMemory: the memory has no device");
  return CopyToDevice(devices.front());
}

StatusOr<size_t> RemoteBuffer::HostSize(const Layout* host_layout) const {
  if (host_layout != nullptr && !host_layout->IsRowMajor()) {
    return Unimplemented("the remote plugin copies row-major data to the host only");
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t bytes, HostArrayBytes(type_, dims_));
  return static_cast<size_t>(bytes);
}

StatusOr<sdk::EventRef> RemoteBuffer::ToHost(void* dst, size_t dst_size,
                                             const Layout* host_layout) {
  PLUGRT_RETURN_IF_ERROR(Live("ToHost"));
  PLUGRT_ASSIGN_OR_RETURN(size_t bytes, HostSize(host_layout));
  if (dst == nullptr && bytes > 0) return InvalidArgument("ToHost: the destination is null");
  if (dst_size < bytes) {
    return InvalidArgument("ToHost: the destination holds ", dst_size, " bytes; the buffer needs ",
                           bytes);
  }
  // The buffer's producer may still run on the worker: its error, if any,
  // is this copy's error.
  PLUGRT_RETURN_IF_ERROR(ready_->Await());
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<grpc::ClientContext> call,
                          connection_->NewCall(Connection::TransferDeadline(bytes)));
  wire::DownloadRequest request;
  request.set_context_id(connection_->context_id());
  request.set_handle(handle_);
  std::unique_ptr<grpc::ClientReader<wire::DataChunk>> reader =
      connection_->stub().Download(call.get(), request);
  // Each chunk is copied straight to its place in the destination.
  wire::DataChunk chunk;
  size_t received = 0;
  bool overflow = false;
  while (reader->Read(&chunk)) {
    const std::string& data = chunk.data();
    if (data.size() > bytes - received) {
      overflow = true;
      call->TryCancel();
      break;
    }
    std::memcpy(static_cast<char*>(dst) + received, data.data(), data.size());
    received += data.size();
  }
  grpc::Status finished = reader->Finish();
  if (overflow) return Internal("ToHost: the worker sent more than the array's ", bytes, " bytes");
  PLUGRT_RETURN_IF_ERROR(connection_->Finish(finished, "Download"));
  if (received != bytes) {
    return Internal("ToHost: the worker sent ", received, " of the array's ", bytes, " bytes");
  }
  return sdk::Event::MakeReady();
}

}  // namespace plugrt::remote
