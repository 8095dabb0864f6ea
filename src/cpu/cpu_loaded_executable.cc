// plugrt CPU backend: running a compiled program on a client's devices
// (CpuLoadedExecutable::Execute). The caller's thread checks the arguments,
// donates what the program may reuse, makes the output buffers (pending) and
// queues one task per device on that device's worker; the task waits for
// its inputs, runs the program, fills the outputs and fires their events.
//
// Size: the execute path in the order it runs (argument checks, donation,
// output buffers, the device task, storing outputs, cross-process runs),
// each phase reading the LaunchPlan worked out at load.
#include <atomic>
#include <chrono>
#include <cstring>
#include <exception>
#include <optional>
#include <span>
#include <typeinfo>
#include <unordered_map>

#include "common/small_array.h"
#include "profiler/recorder.h"
#include "cpu/cpu_buffer.h"
#include "cpu/cpu_client.h"
#include "cpu/cpu_device.h"
#include "cpu/cpu_loaded_executable.h"
#include "cpu/exec/collective_hub.h"
#include "cpu/exec/literal.h"
#include "cpu/launch_host_channels.h"
#include "cpu/kernels/host_memory.h"
#include "cpu/kernels/parallel.h"

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
// themselves where they agree, an unpacked copy for sub-byte types. The
// storage must be defined.
// `exclusive`: the storage was donated and nobody else can see it, so the
// program may write results into it (the tensor holds it through a count of
// its own, which the interpreter's liveness makes unique at the last use).
StatusOr<Tensor> TensorFromStorage(const ElementFormat& format, const std::vector<int64_t>& dims,
                                   StorageRef storage, bool exclusive = false) {
  std::optional<shlo::ElementType> type = shlo::FromPjrtType(format.type);
  if (!type) return InvalidArgument("buffer type has no StableHLO element type");
  if (!format.packed) {
    auto* data = static_cast<std::byte*>(storage->data());
    if (exclusive) {
      return Tensor(*type, dims, std::make_shared<StorageRef>(std::move(storage)), data,
                    /*exclusive=*/true);
    }
    return Tensor(*type, dims, std::move(storage), data);
  }
  Tensor tensor(*type, dims);
  CopyDeviceToHost(format, dims, storage->data(), tensor.MutableData(),
                   DenseHostStrides(format, dims));
  return tensor;
}

std::string BufferTypeString(const CpuBuffer& buffer) {
  std::optional<shlo::ElementType> type = shlo::FromPjrtType(buffer.format().type);
  if (!type) return "an untyped buffer";
  return shlo::Type::Tensor(*type, buffer.dimensions()).ToString();
}

std::chrono::milliseconds RecvTimeout(const CpuClient& client) {
  return std::chrono::milliseconds(client.options().host_recv_timeout_ms);
}

// What one launch shares between the caller and its device tasks.
struct Launch {
  struct Argument {
    StorageRef storage;
    sdk::EventRef ready;
    ElementFormat format;
    const std::vector<int64_t>* dims = nullptr;  // the program's input type
    bool exclusive = false;  // donated, seen by nobody else: the program may overwrite it
  };
  struct Output {
    StorageRef storage;
    sdk::EventRef ready;
    ElementFormat format;
    bool reused = false;  // the storage is a donated input's
  };
  struct PerDevice {
    std::vector<Argument> arguments;
    std::vector<Output> outputs;
    sdk::EventRef complete;
    int64_t device_id = -1;  // for kernel plugins (ExecContext::device_id)
    int64_t process_id = 0;  // flattened id: replica * num_partitions + partition
  };

  std::shared_ptr<CpuExecutable> executable;
  sdk::ExecuteOptions options;
  std::shared_ptr<CollectiveHub> hub;  // null when the program runs one process
  std::vector<PerDevice> devices;
  int kernel_threads = 1;  // the client's, for each device's kernels
  const JobNodes* job = nullptr;  // the client's job, when it has one
  std::chrono::milliseconds recv_timeout{0};  // the client's host_recv_timeout_ms
  int64_t run_id = 0;  // ExecContext::run_id of every device
};

// A run id for a launch: the caller's launch_id when it gives one (devices
// of several processes then agree), else a fresh number of this process.
int64_t NewRunId(int64_t launch_id) {
  static std::atomic<int64_t> next{1};
  return launch_id != 0 ? launch_id : next.fetch_add(1, std::memory_order_relaxed);
}

// Gives a program result to its output storage: deferred storage adopts a
// result nothing else holds that is already in the device layout, and gets
// bytes of its own (a copy) otherwise.
Status SettleOutput(const Tensor& tensor, const ElementFormat& format, BufferStorage& storage,
                    bool may_adopt = true) {
  if (storage.deferred()) {
    if (may_adopt && !format.packed && tensor.HasUniqueStorage() &&
        tensor.byte_size() == storage.size()) {
      storage.Adopt(tensor.storage(), const_cast<std::byte*>(tensor.data()));
      return OkStatus();
    }
    PLUGRT_RETURN_IF_ERROR(storage.Materialize());
  }
  if (tensor.num_elements() == 0) return OkStatus();
  CopyHostToDevice(format, tensor.dims(), tensor.data(), DenseHostStrides(format, tensor.dims()),
                   storage.data());
  return OkStatus();
}

// Checks that the program's results have the types it declares.
Status CheckResults(const std::vector<RtValue>& values, const std::vector<shlo::Type>& result_types) {
  if (values.size() != result_types.size()) {
    return Internal("the program returned ", values.size(), " values for ", result_types.size(),
                    " outputs");
  }
  for (size_t j = 0; j < values.size(); ++j) {
    if (values[j].kind != RtValue::Kind::kTensor) {
      return Unimplemented("program outputs must be tensors");
    }
    const Tensor& tensor = values[j].tensor;
    if (tensor.type() != result_types[j].element_type() ||
        tensor.dims() != result_types[j].dims()) {
      return Internal("output ", j, " came out with another type than the program declares (",
                      result_types[j].ToString(), ")");
    }
  }
  return OkStatus();
}

// Writes the program's results into the launch's output storage. Outputs
// that reuse a donated input are written last, from sources that no earlier
// write can have changed.
Status StoreOutputs(std::vector<RtValue>& values, std::vector<Launch::Output>& outputs,
                    const std::vector<shlo::Type>& result_types) {
  PLUGRT_RETURN_IF_ERROR(CheckResults(values, result_types));
  if (values.size() != outputs.size()) return Internal("output count");
  auto inside = [](const Tensor& tensor, const StorageRef& storage) {
    const std::byte* begin = static_cast<const std::byte*>(storage->data());
    return tensor.data() >= begin && tensor.data() < begin + storage->size();
  };
  auto inside_reused = [&](const Tensor& tensor) {
    for (const Launch::Output& output : outputs) {
      if (output.reused && inside(tensor, output.storage)) return true;
    }
    return false;
  };
  // A result computed into a donated input's memory that another output
  // reuses is copied out before that output is written (never adopted).
  for (size_t j = 0; j < values.size(); ++j) {
    if (outputs[j].reused) continue;
    PLUGRT_RETURN_IF_ERROR(SettleOutput(values[j].tensor, outputs[j].format, *outputs[j].storage,
                                        /*may_adopt=*/!inside_reused(values[j].tensor)));
  }
  for (size_t j = 0; j < values.size(); ++j) {
    if (!outputs[j].reused) continue;
    Tensor& tensor = values[j].tensor;
    if (tensor.data() == outputs[j].storage->data()) continue;  // computed in place
    if (inside_reused(tensor)) tensor = tensor.Clone();
  }
  for (size_t j = 0; j < values.size(); ++j) {
    if (!outputs[j].reused) continue;
    const Tensor& tensor = values[j].tensor;
    if (tensor.num_elements() == 0 || tensor.data() == outputs[j].storage->data()) continue;
    CopyHostToDevice(outputs[j].format, tensor.dims(), tensor.data(),
                     DenseHostStrides(outputs[j].format, tensor.dims()), outputs[j].storage->data());
  }
  return OkStatus();
}

// What escaped a run as an exception, as its error: the executor reports
// what it can (allocation failures name the op); anything left here still
// must reach the events the run owes, never stop at the worker.
Status StatusOfException(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::bad_alloc& e) {
    return OutOfMemory(e);
  } catch (const std::exception& e) {
    return Internal("the run failed with an exception: ", e.what());
  } catch (...) {
    return Internal("the run failed with an unknown exception");
  }
}

Status ComputeOnDevice(Launch& launch, size_t d);

// One device's part of a launch, on that device's worker. Whatever happens,
// it completes every event it owes: the outputs' and the device's.
void RunOnDevice(const std::shared_ptr<Launch>& launch, size_t d) {
  Launch::PerDevice& mine = launch->devices[d];
  CollectiveHub* hub = launch->hub.get();
  Status status;
  try {
    status = ComputeOnDevice(*launch, d);
  } catch (...) {
    status = StatusOfException(std::current_exception());
  }
  // A failed device must not leave its peers waiting in a collective.
  if (hub != nullptr) {
    if (!status.ok()) hub->Abort(status);
    hub->Finished(mine.process_id);
  }

  // Let go of the storage before anyone can see the events fire: a reader
  // that donates an output onward then finds it unshared.
  mine.arguments.clear();
  std::vector<sdk::EventRef> events;
  events.reserve(mine.outputs.size() + 1);
  for (Launch::Output& output : mine.outputs) {
    output.storage.reset();
    events.push_back(std::move(output.ready));
  }
  mine.outputs.clear();
  events.push_back(std::move(mine.complete));
  for (sdk::EventRef& event : events) event->Set(status);
}

// Waits for device d's inputs, runs the program and stores the outputs.
Status ComputeOnDevice(Launch& launch, size_t d) {
  Launch::PerDevice& mine = launch.devices[d];
  const CpuExecutable& executable = *launch.executable;
  const Program& program = executable.program();
  CollectiveHub* hub = launch.hub.get();
  Status status;

  std::vector<RtValue> arguments;
  arguments.reserve(mine.arguments.size());
  for (size_t i = 0; i < mine.arguments.size() && status.ok(); ++i) {
    Launch::Argument& argument = mine.arguments[i];
    Status defined = argument.ready->Await();
    if (!defined.ok()) {
      status = Status(defined.code(), StrCat("argument ", i, ": ", defined.message()));
      break;
    }
    StatusOr<Tensor> tensor = TensorFromStorage(argument.format, *argument.dims,
                                                std::move(argument.storage), argument.exclusive);
    if (!tensor.ok()) {
      status = Status(tensor.status().code(),
                      StrCat("argument ", i, ": ", tensor.status().message()));
      break;
    }
    arguments.push_back(RtValue::Of(std::move(*tensor)));
  }
  // The tensors hold the storage from here on.
  mine.arguments.clear();

  if (status.ok()) {
    ExecContext context;
    context.num_replicas = executable.num_replicas();
    context.num_partitions = executable.num_partitions();
    context.replica_id = mine.process_id / context.num_partitions;
    context.partition_id = mine.process_id % context.num_partitions;
    LaunchHostChannels channels(launch.options, launch.recv_timeout);
    context.collectives = hub;
    context.host_channels = &channels;
    context.device_index = static_cast<int64_t>(d);
    context.device_id = mine.device_id;
    context.run_id = launch.run_id;
    context.user_data = launch.options.user_data.get();
    context.trace_flow = static_cast<uint64_t>(launch.options.trace_context_id);
    context.kernel_threads = launch.kernel_threads;
    context.job = launch.job;
    StatusOr<std::vector<RtValue>> results = program.Run(std::move(arguments), context);
    if (results.ok()) {
      status = StoreOutputs(*results, mine.outputs, program.entry().result_types);
    } else {
      status = results.status();
    }
  }
  return status;
}

// The event of every output of a successful inline run: ready, no error.
const sdk::EventRef& ReadyEvent() {
  static const sdk::EventRef* ready = new sdk::EventRef(sdk::Event::MakeReady());
  return *ready;
}

// The device formats of a program's outputs (all tensors, static shapes).
StatusOr<std::vector<ElementFormat>> OutputFormats(const std::vector<shlo::Type>& results) {
  std::vector<ElementFormat> formats;
  for (size_t j = 0; j < results.size(); ++j) {
    if (!results[j].is_tensor()) {
      return Unimplemented("output ", j, " is ", results[j].ToString(),
                           "; program outputs must be tensors");
    }
    PLUGRT_ASSIGN_OR_RETURN(ElementFormat format, FormatOf(results[j].element_type()));
    formats.push_back(format);
  }
  return formats;
}

// Runs a small program on the calling thread (the device's queue is held
// idle meanwhile) and makes the output buffers from its results. A failed
// run still gives outputs, whose events carry the error.
// The output buffers of an inline run, from its storage and status (an
// output settled before a later one failed is still handed out ready; the
// failure shows in the later outputs and in the device event).
void MakeInlineOutput(CpuClient* client, CpuDevice* device, const ElementFormat& format,
                      const shlo::Type& type, StorageRef storage, const Status& status,
                      sdk::ExecuteResult& result) {
  result.outputs[0].push_back(std::make_unique<CpuBuffer>(
      client, device->device_memory(), format, type.dims(), std::move(storage),
      status.ok() ? ReadyEvent() : sdk::Event::MakeReady(status)));
}

// The tensors of an inline run's arguments, over their buffers' storage
// (moved out of `argument_storage`), into out[0..n). The first argument that
// does not fit its buffer ends it with "argument i: ...".
Status ArgumentTensors(const Program& program, const std::vector<sdk::Buffer*>& argument_list,
                       StorageRef* argument_storage, Tensor* out) {
  for (size_t i = 0; i < argument_list.size(); ++i) {
    auto* buffer = static_cast<CpuBuffer*>(argument_list[i]);  // checked by Execute
    StatusOr<Tensor> tensor = TensorFromStorage(
        buffer->format(), program.entry().input_types[i].dims(), std::move(argument_storage[i]));
    if (!tensor.ok()) {
      return Status(tensor.status().code(), StrCat("argument ", i, ": ", tensor.status().message()));
    }
    out[i] = std::move(*tensor);
  }
  return OkStatus();
}

// RunInline for a program that is one op writing its result into a given
// tensor (Program::single_op): the op reads the argument buffers and writes
// the output buffer's own bytes, without the interpreter's frames.
Status RunSingleOpInline(CpuClient* client, CpuDevice* device, const Program& program,
                         const std::vector<sdk::Buffer*>& argument_list,
                         StorageRef* argument_storage, const ElementFormat& output_format,
                         size_t output_bytes, sdk::ExecuteResult& result) {
  const SingleOpRegion& single = *program.single_op();
  const shlo::Type& result_type = program.entry().result_types[0];
  SmallArray<Tensor, 4> arguments(argument_list.size());
  SmallArray<const Tensor*, 4> operands(single.arguments.size());
  Status status = ArgumentTensors(program, argument_list, argument_storage, arguments.data());
  for (size_t k = 0; k < operands.size(); ++k) {
    operands[k] = &arguments[static_cast<size_t>(single.arguments[k])];
  }
  result.outputs.resize(1);
  result.outputs[0].clear();
  result.device_complete_events.clear();
  PLUGRT_ASSIGN_OR_RETURN(StorageRef storage,
                          BufferStorage::Deferred(output_bytes,
                                                  device->device_memory()->accounting()));
  if (status.ok()) status = storage->Materialize();
  if (status.ok()) {
    ExecContext context;
    context.kernel_threads = client->kernel_threads();
    try {
      Tensor out(result_type.element_type(), result_type.dims(), storage,
                 static_cast<std::byte*>(storage->data()));
      status = single.op->ExecuteInto(std::span<const Tensor* const>(operands.data(), operands.size()),
                                      out, context);
    } catch (...) {
      status = StatusOfException(std::current_exception());
    }
    if (!status.ok() && status.message().rfind(single.ir->location.ToString(), 0) != 0) {
      status = Status(status.code(), StrCat(single.ir->location.ToString(), ": ", single.ir->name,
                                            ": ", status.message()));
    }
  }
  MakeInlineOutput(client, device, output_format, result_type, std::move(storage), status, result);
  result.device_complete_events.push_back(status.ok() ? ReadyEvent()
                                                      : sdk::Event::MakeReady(status));
  return OkStatus();
}

Status RunInline(CpuClient* client, CpuDevice* device, const CpuExecutable& executable,
                 const std::vector<sdk::Buffer*>& argument_list, StorageRef* argument_storage,
                 const std::vector<ElementFormat>& output_formats,
                 const std::vector<size_t>& output_bytes, const sdk::ExecuteOptions& options,
                 sdk::ExecuteResult& result) {
  const Program& program = executable.program();
  // Under the profiler the op runs through the interpreter, which records it.
  if (program.single_op() != nullptr && output_formats.size() == 1 && !output_formats[0].packed &&
      !profiler::Enabled()) {
    return RunSingleOpInline(client, device, program, argument_list, argument_storage,
                             output_formats[0], output_bytes[0], result);
  }
  const std::vector<shlo::Type>& result_types = program.entry().result_types;
  std::vector<RtValue> arguments;
  Status status;
  {
    SmallArray<Tensor, 4> tensors(argument_list.size());
    status = ArgumentTensors(program, argument_list, argument_storage, tensors.data());
    arguments.reserve(tensors.size());
    for (Tensor& tensor : tensors) arguments.push_back(RtValue::Of(std::move(tensor)));
  }
  std::vector<RtValue> values;
  if (status.ok()) {
    ExecContext context;
    context.device_id = device->id();
    context.run_id = NewRunId(options.launch_id);
    context.user_data = options.user_data.get();
    context.trace_flow = static_cast<uint64_t>(options.trace_context_id);
    LaunchHostChannels channels(options, RecvTimeout(*client));
    context.host_channels = &channels;
    context.kernel_threads = client->kernel_threads();
    if (client->cluster() != nullptr) context.job = &client->cluster()->job();
    try {
      StatusOr<std::vector<RtValue>> results = program.Run(std::move(arguments), context);
      if (results.ok()) {
        values = std::move(*results);
        status = CheckResults(values, result_types);
      } else {
        status = results.status();
      }
    } catch (...) {
      status = StatusOfException(std::current_exception());
    }
  }
  result.outputs.resize(1);
  result.outputs[0].clear();
  result.outputs[0].reserve(result_types.size());
  result.device_complete_events.clear();
  const std::shared_ptr<MemoryAccounting>& accounting = device->device_memory()->accounting();
  for (size_t j = 0; j < result_types.size(); ++j) {
    PLUGRT_ASSIGN_OR_RETURN(StorageRef storage,
                            BufferStorage::Deferred(output_bytes[j], accounting));
    if (status.ok()) status = SettleOutput(values[j].tensor, output_formats[j], *storage);
    MakeInlineOutput(client, device, output_formats[j], result_types[j], std::move(storage),
                     status, result);
  }
  result.device_complete_events.push_back(status.ok() ? ReadyEvent()
                                                      : sdk::Event::MakeReady(status));
  return OkStatus();
}

bool ArgumentsReady(const Launch::PerDevice& per) {
  for (const Launch::Argument& argument : per.arguments) {
    if (!argument.ready->IsReady()) return false;
  }
  return true;
}

// Which donated input each output reuses (when types agree and each output
// is named once), for a donation table.
std::vector<int64_t> ReuseOfOutputs(const std::vector<int64_t>& donation,
                                    const std::vector<shlo::Type>& inputs,
                                    const std::vector<shlo::Type>& results) {
  std::vector<int64_t> reuse_of_output(results.size(), -1);
  for (size_t input = 0; input < donation.size(); ++input) {
    const int64_t output = donation[input];
    if (output < 0 || static_cast<size_t>(output) >= results.size()) continue;
    if (reuse_of_output[output] != -1) continue;
    if (inputs[input] == results[output]) reuse_of_output[output] = static_cast<int64_t>(input);
  }
  return reuse_of_output;
}

}  // namespace

CpuLoadedExecutable::LaunchPlan CpuLoadedExecutable::MakePlan(const CpuExecutable& executable) {
  LaunchPlan plan;
  // A polymorphic program plans per specialization (Specialized).
  if (executable.is_polymorphic()) return plan;
  const shlo::Function& entry = executable.program().entry();
  plan.output_formats = OutputFormats(entry.result_types);
  plan.donation = DonatableInputs(entry);
  for (int64_t d : plan.donation) plan.any_donated = plan.any_donated || d != kNotDonated;
  plan.reuse_of_output = ReuseOfOutputs(plan.donation, entry.input_types, entry.result_types);
  if (plan.output_formats.ok()) {
    for (size_t j = 0; j < entry.result_types.size(); ++j) {
      plan.output_bytes.push_back(
          DeviceByteSize((*plan.output_formats)[j], entry.result_types[j].num_elements()));
    }
  }
  plan.small = executable.RunsInline();
  return plan;
}

CpuLoadedExecutable::CpuLoadedExecutable(CpuClient* client,
                                         std::shared_ptr<CpuExecutable> executable,
                                         DevicePlacement placement)
    : client_(client),
      executable_(std::move(executable)),
      placement_(std::move(placement)),
      plan_(MakePlan(*executable_)) {}

namespace {

// The value of a scalar integer argument (a dimension size), once defined.
StatusOr<int64_t> ScalarArgumentValue(const CpuBuffer& buffer, size_t index) {
  std::optional<shlo::ElementType> type = shlo::FromPjrtType(buffer.format().type);
  if (!type || !shlo::IsInteger(*type) || !buffer.dimensions().empty() || buffer.format().packed) {
    return InvalidArgument("argument ", index, ": a dimension argument must be a scalar of i8 "
                           "to i64, got ", BufferTypeString(buffer));
  }
  PLUGRT_ASSIGN_OR_RETURN(sdk::EventRef ready, buffer.definition_event());
  Status defined = ready->Await();
  if (!defined.ok()) {
    return Status(defined.code(), StrCat("argument ", index, ": ", defined.message()));
  }
  PLUGRT_ASSIGN_OR_RETURN(StorageRef storage, buffer.storage());
  const auto bytes = static_cast<size_t>(shlo::StorageBytes(*type));
  if (storage->size() < bytes) return Internal("argument ", index, ": short scalar storage");
  uint64_t raw = 0;
  std::memcpy(&raw, storage->data(), bytes);
  const int width = static_cast<int>(bytes * 8);
  if (shlo::IsSignedInteger(*type) && width < 64 && (raw >> (width - 1)) != 0) {
    raw |= ~((uint64_t{1} << width) - 1);
  }
  return static_cast<int64_t>(raw);
}

}  // namespace

StatusOr<std::shared_ptr<CpuLoadedExecutable>> CpuLoadedExecutable::Specialized(
    const std::vector<std::vector<sdk::Buffer*>>& argument_lists) {
  const shlo::Function* entry = executable_->module().EntryFunction();
  const size_t count = entry->input_types.size();
  // Every device runs the same specialization: their argument types agree.
  std::vector<shlo::Type> types;
  for (size_t d = 0; d < argument_lists.size(); ++d) {
    const std::vector<sdk::Buffer*>& list = argument_lists[d];
    if (list.size() != count) {
      return InvalidArgument("device ", d, ": the program takes ", count, " arguments, got ",
                             list.size());
    }
    for (size_t i = 0; i < count; ++i) {
      sdk::Buffer* given = list[i];
      auto* buffer = given != nullptr && typeid(*given) == typeid(CpuBuffer)
                         ? static_cast<CpuBuffer*>(given)
                         : nullptr;
      if (buffer == nullptr) return InvalidArgument("argument ", i, ": not a buffer of the CPU plugin");
      std::optional<shlo::ElementType> type = shlo::FromPjrtType(buffer->format().type);
      if (!type) return InvalidArgument("argument ", i, ": ", BufferTypeString(*buffer));
      shlo::Type t = shlo::Type::Tensor(*type, buffer->dimensions());
      if (d == 0) {
        types.push_back(std::move(t));
      } else if (t != types[i]) {
        return InvalidArgument("argument ", i, " (device ", d, ") is ", t.ToString(),
                               " but ", types[i].ToString(), " on device 0; a shape-polymorphic "
                               "program runs with the same shapes on every device");
      }
    }
  }
  std::vector<std::optional<int64_t>> values(count);
  for (size_t i : executable_->dimension_arguments()) {
    if (argument_lists.empty() || i >= count) break;
    PLUGRT_ASSIGN_OR_RETURN(values[i], ScalarArgumentValue(
                                           *static_cast<CpuBuffer*>(argument_lists[0][i]), i));
  }
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<CpuExecutable> executable,
                          executable_->Specialize(types, values));
  std::lock_guard<std::mutex> lock(specialized_mu_);
  std::shared_ptr<CpuLoadedExecutable>& loaded = specialized_[executable.get()];
  if (loaded == nullptr) {
    // The executable's own cache may have started over; drop loads of
    // executables it no longer holds.
    if (specialized_.size() > 64) {
      for (auto it = specialized_.begin(); it != specialized_.end();) {
        it = it->first != executable.get() ? specialized_.erase(it) : std::next(it);
      }
    }
    loaded = std::make_shared<CpuLoadedExecutable>(client_, executable, placement_);
  }
  return loaded;
}

std::vector<sdk::Device*> CpuLoadedExecutable::addressable_devices() const {
  return std::vector<sdk::Device*>(devices_.begin(), devices_.end());
}

StatusOr<sdk::ExecuteResult> CpuLoadedExecutable::Execute(
    const std::vector<std::vector<sdk::Buffer*>>& argument_lists, sdk::Device* execute_device,
    const sdk::ExecuteOptions& options) {
  sdk::ExecuteResult result;
  PLUGRT_RETURN_IF_ERROR(ExecuteInto(argument_lists, execute_device, options, result));
  return result;
}

Status CpuLoadedExecutable::ExecuteInto(
    const std::vector<std::vector<sdk::Buffer*>>& argument_lists, sdk::Device* execute_device,
    const sdk::ExecuteOptions& options, sdk::ExecuteResult& result) {
  if (deleted_) return FailedPrecondition("the executable has been deleted");
  // The devices to run on: the executable's, or the one execute_device names.
  std::vector<CpuDevice*> chosen;
  const std::vector<CpuDevice*>* devices_in_use = &devices_;
  if (execute_device != nullptr) {
    CpuDevice* device = client_->FindDevice(execute_device);
    if (device == nullptr) return InvalidArgument("execute_device is not a device of this client");
    if (devices_.size() != 1 || placement_.nodes.size() > 1) {
      return InvalidArgument("execute_device needs a single-device executable; this one runs on ",
                             executable_->num_replicas() * executable_->num_partitions(),
                             " devices");
    }
    if (device != devices_[0]) {
      chosen = {device};
      devices_in_use = &chosen;
    }
  }
  const std::vector<CpuDevice*>& devices = *devices_in_use;
  if (argument_lists.size() != devices.size()) {
    return InvalidArgument("the executable runs on ", devices.size(),
                           " devices and needs one argument list per device; got ",
                           argument_lists.size());
  }
  if (executable_->is_polymorphic()) {
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<CpuLoadedExecutable> specialized,
                            Specialized(argument_lists));
    return specialized->ExecuteInto(argument_lists, execute_device, options, result);
  }

  const Program& program = executable_->program();
  const std::vector<shlo::Type>& inputs = program.entry().input_types;
  const std::vector<shlo::Type>& results = program.entry().result_types;

  // Outputs: static shapes, known at load time.
  PLUGRT_RETURN_IF_ERROR(plan_.output_formats.status());
  const std::vector<ElementFormat>& output_formats = *plan_.output_formats;

  // Donation: what the program allows, less what the caller keeps (a copy
  // only when the caller keeps something).
  std::vector<int64_t> kept;
  for (int64_t index : options.non_donatable_input_indices) {
    if (index < 0 || static_cast<size_t>(index) >= inputs.size()) {
      return InvalidArgument("non_donatable_input_indices names input ", index,
                             " but the program takes ", inputs.size(), " arguments");
    }
    if (plan_.donation[index] == kNotDonated) continue;  // nothing to take back
    if (kept.empty()) kept = plan_.donation;
    kept[index] = kNotDonated;
  }
  const std::vector<int64_t>& donation = kept.empty() ? plan_.donation : kept;
  auto donated = [&donation](size_t i) { return donation[i] != kNotDonated; };
  bool any_donated = plan_.any_donated;
  if (!kept.empty()) {
    any_donated = false;
    for (size_t i = 0; i < donation.size(); ++i) any_donated = any_donated || donated(i);
  }

  // Argument checks; nothing changes until all of them pass. The same buffer
  // twice matters only when one of them is donated.
  std::unordered_map<const sdk::Buffer*, std::pair<size_t, size_t>> seen;  // -> (device, index)
  bool inputs_ready = true;
  // Each argument's storage, read once, for the inline run (not kept when
  // something is donated: the extra reference would make donated storage
  // look shared).
  const bool spans_nodes = placement_.nodes.size() > 1;
  const bool may_run_inline = devices.size() == 1 && !any_donated && !spans_nodes;
  SmallArray<StorageRef, 8> storage(may_run_inline ? inputs.size() : 0);
  for (size_t d = 0; d < devices.size(); ++d) {
    const std::vector<sdk::Buffer*>& list = argument_lists[d];
    if (list.size() != inputs.size()) {
      return InvalidArgument("device ", d, ": the program takes ", inputs.size(),
                             " arguments, got ", list.size());
    }
    for (size_t i = 0; i < list.size(); ++i) {
      // CpuBuffer is final: comparing the dynamic type is exact and cheaper
      // than dynamic_cast.
      sdk::Buffer* given = list[i];
      CpuBuffer* buffer = given != nullptr && typeid(*given) == typeid(CpuBuffer)
                              ? static_cast<CpuBuffer*>(given)
                              : nullptr;
      if (buffer == nullptr) {
        return InvalidArgument("argument ", i, ": not a buffer of the CPU plugin");
      }
      std::optional<shlo::ElementType> type = shlo::FromPjrtType(buffer->format().type);
      if (!type || !inputs[i].is_tensor() || *type != inputs[i].element_type() ||
          buffer->dimensions() != inputs[i].dims()) {
        return InvalidArgument("argument ", i, " (device ", d, "): expected ",
                               inputs[i].ToString(), ", got ", BufferTypeString(*buffer));
      }
      bool defined = false;
      StatusOr<StorageRef> live = buffer->LiveStorage("Execute", &defined);
      if (!live.ok()) {
        return Status(live.status().code(),
                      StrCat("argument ", i, " (device ", d, "): ", live.status().message()));
      }
      // Pending or failed inputs go the launch's way, which waits for them
      // and hands their errors on.
      inputs_ready = inputs_ready && defined;
      if (may_run_inline) storage[i] = std::move(*live);
      if (!any_donated) continue;
      auto [it, inserted] = seen.emplace(list[i], std::make_pair(d, i));
      if (!inserted && (donated(i) || donated(it->second.second))) {
        const size_t which = donated(i) ? i : it->second.second;
        return InvalidArgument("argument ", i, " (device ", d, ") and argument ",
                               it->second.second, " (device ", it->second.first,
                               ") are the same buffer, and argument ", which,
                               " is donated; pass a copy, or list ", which,
                               " in non_donatable_input_indices");
      }
    }
  }

  // A small single-device program with ready inputs and nothing donated runs
  // right here when its device is idle: no launch object, no worker hand-off,
  // outputs created with their results.
  if (may_run_inline && inputs_ready && options.send_callbacks.empty() &&
      options.recv_callbacks.empty() && plan_.small) {
    std::optional<Status> ran;
    const size_t device = static_cast<size_t>(devices[0]->local_hardware_id());
    auto run = [&] {
      ran = RunInline(client_, devices[0], *executable_, argument_lists[0], storage.data(),
                      output_formats, plan_.output_bytes, options, result);
    };
    // Through a reference: a std::function holding one never allocates.
    client_->device_queues().TryRunInline(device, std::ref(run));
    if (ran) return *ran;
  }

  // Which donated input each output reuses: the plan's, unless this call
  // keeps some inputs back.
  std::vector<int64_t> reuse_kept;
  if (!kept.empty()) reuse_kept = ReuseOfOutputs(kept, inputs, results);
  const std::vector<int64_t>& reuse_of_output = kept.empty() ? plan_.reuse_of_output : reuse_kept;

  auto launch = std::make_shared<Launch>();
  launch->executable = executable_;
  launch->options = options;
  launch->kernel_threads = client_->kernel_threads();
  if (client_->cluster() != nullptr) launch->job = &client_->cluster()->job();
  launch->recv_timeout = RecvTimeout(*client_);
  launch->run_id = NewRunId(options.launch_id);
  if (spans_nodes) {
    // Local waits outlast a cross-process exchange's own timeout, so the
    // exchange's error (naming the nodes) is the one reported.
    const auto timeout = 2 * client_->cluster()->timeout() + CollectiveHub::kDefaultTimeout;
    launch->hub = std::make_shared<CollectiveHub>(executable_->num_replicas(),
                                                  executable_->num_partitions(), placement_.cross,
                                                  timeout);
  } else if (devices.size() > 1) {
    launch->hub = std::make_shared<CollectiveHub>(executable_->num_replicas(),
                                                  executable_->num_partitions());
  }
  launch->devices.resize(devices.size());

  // Fresh storage for the outputs that reuse nothing; allocation failures
  // surface here, before any input is donated.
  for (size_t d = 0; d < devices.size(); ++d) {
    Launch::PerDevice& per = launch->devices[d];
    per.device_id = devices[d]->id();
    // execute_device may replace the one device of a one-process program.
    per.process_id = devices_in_use == &devices_ ? placement_.process_ids[d] : 0;
    per.outputs.resize(results.size());
    for (size_t j = 0; j < results.size(); ++j) {
      per.outputs[j].format = output_formats[j];
      per.outputs[j].ready = sdk::Event::Create();
      if (reuse_of_output[j] >= 0) continue;  // decided at donation
      // Its bytes are settled when the result is known (StoreOutputs).
      PLUGRT_ASSIGN_OR_RETURN(
          per.outputs[j].storage,
          BufferStorage::Deferred(plan_.output_bytes[j], devices[d]->device_memory()->accounting()));
    }
    per.complete = sdk::Event::Create();
  }

  // Donate, and take the other arguments' storage and events.
  for (size_t d = 0; d < devices.size(); ++d) {
    Launch::PerDevice& per = launch->devices[d];
    per.arguments.resize(inputs.size());
    std::vector<std::optional<CpuBuffer::Donation>> donations(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      auto* buffer = static_cast<CpuBuffer*>(argument_lists[d][i]);
      Launch::Argument& argument = per.arguments[i];
      argument.format = buffer->format();
      argument.dims = &inputs[i].dims();
      if (donated(i)) {
        StatusOr<CpuBuffer::Donation> donation = buffer->Donate();
        if (!donation.ok()) {
          return Status(donation.status().code(), StrCat("argument ", i, " (device ", d, "): ",
                                                         donation.status().message()));
        }
        argument.storage = donation->storage;
        argument.ready = donation->ready;
        argument.exclusive = donation->exclusive;
        donations[i] = std::move(*donation);
      } else {
        PLUGRT_ASSIGN_OR_RETURN(argument.storage, buffer->storage());
        PLUGRT_ASSIGN_OR_RETURN(argument.ready, buffer->definition_event());
      }
    }
    for (size_t j = 0; j < results.size(); ++j) {
      if (reuse_of_output[j] < 0) continue;
      const std::optional<CpuBuffer::Donation>& donation = donations[reuse_of_output[j]];
      Launch::Output& output = per.outputs[j];
      if (donation && donation->exclusive) {
        output.storage = donation->storage;
        output.reused = true;
      } else {
        // Someone else still sees the donated storage: write the output
        // into storage of its own instead.
        PLUGRT_ASSIGN_OR_RETURN(
            output.storage,
            BufferStorage::Allocate(plan_.output_bytes[j], devices[d]->device_memory()->accounting()));
      }
    }
  }

  std::vector<size_t> device_indices;
  std::vector<std::function<void()>> tasks;
  result.outputs.resize(devices.size());
  result.device_complete_events.clear();
  for (size_t d = 0; d < devices.size(); ++d) {
    Launch::PerDevice& per = launch->devices[d];
    std::vector<std::unique_ptr<sdk::Buffer>>& outputs = result.outputs[d];
    outputs.clear();
    for (size_t j = 0; j < results.size(); ++j) {
      outputs.push_back(std::make_unique<CpuBuffer>(client_, devices[d]->device_memory(),
                                                    output_formats[j], results[j].dims(),
                                                    per.outputs[j].storage, per.outputs[j].ready));
    }
    result.device_complete_events.push_back(per.complete);
    device_indices.push_back(static_cast<size_t>(devices[d]->local_hardware_id()));
    tasks.push_back([launch, d] { RunOnDevice(launch, d); });
  }
  // Small programs that donate inputs (ready ones) also run inline when the
  // device is idle, through the launch (donation needs its bookkeeping).
  if (devices.size() == 1 && !spans_nodes && options.send_callbacks.empty() &&
      options.recv_callbacks.empty() && plan_.small && ArgumentsReady(launch->devices[0]) &&
      client_->device_queues().TryRunInline(device_indices[0], tasks[0])) {
    return OkStatus();
  }
  client_->device_queues().ScheduleTogether(device_indices, std::move(tasks));
  return OkStatus();
}

}  // namespace plugrt::cpu
