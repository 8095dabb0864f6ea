// plugrt CPU backend: running a compiled program on a client's devices
// (CpuLoadedExecutable::Execute): argument checks, one thread per device,
// output buffers and completion events.
#include <cstring>
#include <optional>
#include <thread>

#include "cpu/cpu_buffer.h"
#include "cpu/cpu_client.h"
#include "cpu/cpu_device.h"
#include "cpu/cpu_executable.h"
#include "cpu/exec/collective_hub.h"
#include "cpu/exec/literal.h"

namespace plugrt::cpu {
namespace {

StatusOr<ElementFormat> FormatOf(shlo::ElementType type) {
  std::optional<PJRT_Buffer_Type> pjrt = shlo::ToPjrtType(type);
  if (!pjrt) {
    return Unimplemented("element type ", shlo::ElementTypeName(type),
                         " has no PJRT buffer type");
  }
  return GetElementFormat(*pjrt);
}

// The argument as a tensor in the executor's storage format: the device bytes
// themselves where they agree, an unpacked copy for sub-byte types.
StatusOr<Tensor> TensorFromBuffer(const CpuBuffer& buffer) {
  PLUGRT_ASSIGN_OR_RETURN(sdk::EventRef defined, buffer.definition_event());
  PLUGRT_RETURN_IF_ERROR(defined->Await());
  PLUGRT_ASSIGN_OR_RETURN(StorageRef storage, buffer.storage());
  const ElementFormat& format = buffer.format();
  std::optional<shlo::ElementType> type = shlo::FromPjrtType(format.type);
  if (!type) return InvalidArgument("buffer type has no StableHLO element type");
  if (!format.packed) {
    return Tensor(*type, buffer.dimensions(), storage, static_cast<std::byte*>(storage->data()));
  }
  Tensor tensor(*type, buffer.dimensions());
  CopyDeviceToHost(format, buffer.dimensions(), storage->data(), tensor.MutableData(),
                   DenseHostStrides(format, buffer.dimensions()));
  return tensor;
}

StatusOr<std::unique_ptr<sdk::Buffer>> BufferFromTensor(CpuClient* client, CpuDevice* device,
                                                        const Tensor& tensor) {
  PLUGRT_ASSIGN_OR_RETURN(ElementFormat format, FormatOf(tensor.type()));
  CpuMemory* memory = device->device_memory();
  const size_t bytes = DeviceByteSize(format, tensor.num_elements());
  PLUGRT_ASSIGN_OR_RETURN(StorageRef storage, BufferStorage::Allocate(bytes, memory->accounting()));
  if (tensor.num_elements() > 0) {
    CopyHostToDevice(format, tensor.dims(), tensor.data(), DenseHostStrides(format, tensor.dims()),
                     storage->data());
  }
  return std::unique_ptr<sdk::Buffer>(new CpuBuffer(client, memory, format, tensor.dims(),
                                                    std::move(storage), sdk::Event::MakeReady()));
}

std::string BufferTypeString(const CpuBuffer& buffer) {
  std::optional<shlo::ElementType> type = shlo::FromPjrtType(buffer.format().type);
  if (!type) return "an untyped buffer";
  return shlo::Type::Tensor(*type, buffer.dimensions()).ToString();
}


}  // namespace

CpuLoadedExecutable::CpuLoadedExecutable(CpuClient* client,
                                         std::shared_ptr<CpuExecutable> executable,
                                         std::vector<CpuDevice*> devices)
    : client_(client), executable_(std::move(executable)), devices_(std::move(devices)) {}

std::vector<sdk::Device*> CpuLoadedExecutable::addressable_devices() const {
  return std::vector<sdk::Device*>(devices_.begin(), devices_.end());
}

StatusOr<sdk::ExecuteResult> CpuLoadedExecutable::Execute(
    const std::vector<std::vector<sdk::Buffer*>>& argument_lists, sdk::Device* execute_device,
    const sdk::ExecuteOptions& options) {
  if (deleted_) return FailedPrecondition("the executable has been deleted");
  std::vector<CpuDevice*> devices = devices_;
  if (execute_device != nullptr) {
    CpuDevice* device = client_->FindDevice(execute_device);
    if (device == nullptr) return InvalidArgument("execute_device is not a device of this client");
    if (devices_.size() != 1) {
      return InvalidArgument("execute_device needs a single-device executable; this one runs on ",
                             devices_.size(), " devices");
    }
    devices = {device};
  }
  if (argument_lists.size() != devices.size()) {
    return InvalidArgument("the executable runs on ", devices.size(),
                           " devices and needs one argument list per device; got ",
                           argument_lists.size());
  }

  const Program& program = executable_->program();
  const std::vector<shlo::Type>& inputs = program.entry().input_types;
  std::vector<std::vector<RtValue>> arguments(devices.size());
  for (size_t d = 0; d < devices.size(); ++d) {
    const std::vector<sdk::Buffer*>& list = argument_lists[d];
    if (list.size() != inputs.size()) {
      return InvalidArgument("device ", d, ": the program takes ", inputs.size(),
                             " arguments, got ", list.size());
    }
    for (size_t i = 0; i < list.size(); ++i) {
      auto* buffer = dynamic_cast<CpuBuffer*>(list[i]);
      if (buffer == nullptr) {
        return InvalidArgument("argument ", i, ": not a buffer of the CPU plugin");
      }
      std::optional<shlo::ElementType> type = shlo::FromPjrtType(buffer->format().type);
      if (!type || !inputs[i].is_tensor() || *type != inputs[i].element_type() ||
          buffer->dimensions() != inputs[i].dims()) {
        return InvalidArgument("argument ", i, " (device ", d, "): expected ",
                               inputs[i].ToString(), ", got ", BufferTypeString(*buffer));
      }
      StatusOr<Tensor> tensor = TensorFromBuffer(*buffer);
      if (!tensor.ok()) {
        return Status(tensor.status().code(),
                      StrCat("argument ", i, ": ", tensor.status().message()));
      }
      arguments[d].push_back(RtValue::Of(std::move(*tensor)));
    }
  }

  std::vector<StatusOr<std::vector<RtValue>>> results(devices.size(),
                                                     Status(StatusCode::kUnknown, "not run"));
  const int64_t partitions = executable_->num_partitions();
  // One rendezvous for the collectives of this execution's devices.
  std::optional<CollectiveHub> hub;
  if (devices.size() > 1) hub.emplace(executable_->num_replicas(), partitions);
  auto run_one = [&](size_t d) {
    ExecContext context;
    context.num_replicas = executable_->num_replicas();
    context.num_partitions = partitions;
    context.replica_id = static_cast<int64_t>(d) / partitions;
    context.partition_id = static_cast<int64_t>(d) % partitions;
    context.collectives = hub ? &*hub : nullptr;
    context.execute_options = &options;
    context.device_index = static_cast<int64_t>(d);
    results[d] = program.Run(std::move(arguments[d]), context);
    // A finished or failed device must not leave its peers waiting in a
    // collective.
    if (hub && !results[d].ok()) hub->Abort(results[d].status());
    if (hub) hub->Finished(static_cast<int64_t>(d));
  };
  if (devices.size() == 1) {
    run_one(0);
  } else {
    std::vector<std::thread> threads;
    for (size_t d = 0; d < devices.size(); ++d) threads.emplace_back(run_one, d);
    for (std::thread& thread : threads) thread.join();
  }

  sdk::ExecuteResult result;
  for (size_t d = 0; d < devices.size(); ++d) {
    if (!results[d].ok()) return results[d].status();
    std::vector<std::unique_ptr<sdk::Buffer>> outputs;
    for (const RtValue& value : *results[d]) {
      if (value.kind != RtValue::Kind::kTensor) {
        return Unimplemented("program outputs must be tensors");
      }
      PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<sdk::Buffer> buffer,
                              BufferFromTensor(client_, devices[d], value.tensor));
      outputs.push_back(std::move(buffer));
    }
    result.outputs.push_back(std::move(outputs));
    result.device_complete_events.push_back(sdk::Event::MakeReady());
  }
  return result;
}

}  // namespace plugrt::cpu
