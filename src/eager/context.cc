#include "eager/context.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "client/npy.h"
#include "common/log.h"
#include "eager/op_observer.h"

namespace plugrt::eager {

StatusOr<std::unique_ptr<Context>> Context::Create(const std::string& plugin_path,
                                                   const ClientOptions& client_options,
                                                   ContextOptions options) {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, Plugin::Load(plugin_path));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, Client::Create(plugin, client_options));
  return Create(std::shared_ptr<Client>(std::move(client)), std::move(options));
}

StatusOr<std::unique_ptr<Context>> Context::Create(std::shared_ptr<Client> client,
                                                   ContextOptions options) {
  if (client == nullptr) return InvalidArgument("Context::Create needs a client");
  std::unique_ptr<Context> context(new Context(std::move(client), std::move(options)));
  PLUGRT_RETURN_IF_ERROR(context->Init());
  return context;
}

Context::Context(std::shared_ptr<Client> client, ContextOptions options)
    : client_(std::move(client)),
      options_(std::move(options)),
      cache_(options_.cache_capacity),
      physical_(cache_, functions_),
      placement_(options_.placement),
      async_(options_.async),
      executor_(options_.async ? MakeAsyncExecutor() : MakeSyncExecutor()) {}

Context::~Context() {
  // Queued nodes refer to this context (runner, cache): finish them first.
  executor_.reset();
  // Then the custom devices' deletion, while the client still lives.
  std::map<std::string, std::shared_ptr<CustomDevice>, std::less<>> devices;
  {
    std::lock_guard<std::mutex> lock(custom_mu_);
    devices.swap(custom_devices_);
  }
  devices.clear();
}

Status Context::Init() {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, client_->addressable_devices());
  if (devices.empty()) return FailedPrecondition("the client has no addressable devices");
  for (size_t i = 0; i < devices.size(); ++i) {
    PLUGRT_ASSIGN_OR_RETURN(std::string kind, devices[i].kind());
    std::transform(kind.begin(), kind.end(), kind.begin(),
                   [](unsigned char c) { return std::isspace(c) ? '_' : std::tolower(c); });
    local_devices_.push_back({devices[i], kind + ":" + std::to_string(i), client_.get(), nullptr});
  }
  ListDevices();
  return OkStatus();
}

void Context::ListDevices() {
  devices_ = local_devices_;
  for (const auto& task : cluster_.tasks()) {
    devices_.insert(devices_.end(), task->devices.begin(), task->devices.end());
  }
}

Status Context::SetClusterSpec(const ClusterSpec& spec, ClusterUpdate mode,
                               const RemoteOptions& options) {
  {
    // Queued ops may use the tasks about to go.
    std::lock_guard<std::mutex> lock(mu_);
    Status earlier = executor_->Wait();
    if (deferred_error_.ok()) deferred_error_ = std::move(earlier);
  }
  const std::string default_name = default_device().name;
  PLUGRT_ASSIGN_OR_RETURN(std::vector<std::shared_ptr<RemoteTask>> dropped,
                          cluster_.Apply(spec, mode, options));
  // The programs compiled on released clients go with them (they hold the
  // clients, and a new task may reuse a device name).
  for (const auto& task : dropped) {
    const void* client = task->client.get();
    cache_.EraseIf([client](const CompiledProgram& p) { return p.client == client; });
  }
  ListDevices();
  default_device_ = 0;
  for (size_t i = 0; i < devices_.size(); ++i) {
    if (devices_[i].name == default_name) default_device_ = i;
  }
  return OkStatus();
}

StatusOr<NamedDevice> Context::FindDevice(std::string_view name) const {
  std::string canonical;
  if (!name.empty() && name.front() == '/') {
    PLUGRT_ASSIGN_OR_RETURN(std::optional<TaskDeviceName> full, ParseTaskDeviceName(name));
    if (full && full->job == kLocalJob) {
      if (full->task != 0) {
        return NotFound("no device '", name, "': the context's own devices are task 0 of job ",
                        kLocalJob);
      }
      canonical = full->device;
    } else if (full) {
      if (!cluster_.HasJob(full->job)) {
        return NotFound("no device '", name, "': the context's cluster has no job '", full->job,
                        "' (its jobs: ", cluster_.Describe(), ")");
      }
      if (cluster_.FindTask(full->job, full->task) == nullptr) {
        return NotFound("no device '", name, "': job '", full->job, "' has no task ", full->task,
                        " (the cluster: ", cluster_.Describe(), ")");
      }
      canonical = StrCat(TaskName(full->job, full->task), "/device:", full->device);
    }
    if (full) name = canonical;
  }
  std::string known;
  for (const NamedDevice& d : devices_) {
    if (d.name == name) return d;
    known += (known.empty() ? "" : ", ") + d.name;
  }
  if (FindCustomDevice(name) != nullptr) {
    return InvalidArgument("'", name, "' is a custom device; this needs a physical one (", known,
                           ")");
  }
  return NotFound("no device '", name, "' in the context; its devices: ", known);
}

std::string Context::DeviceName(const Device& device) const {
  const NamedDevice* found = FindNamedDevice(devices_, device);
  return found != nullptr ? found->name : "(unknown device)";
}

Status Context::SetDefaultDevice(std::string_view name) {
  PLUGRT_ASSIGN_OR_RETURN(NamedDevice device, FindDevice(name));
  for (size_t i = 0; i < devices_.size(); ++i) {
    if (devices_[i].name == device.name) default_device_ = i;
  }
  return OkStatus();
}

PlacementPolicy Context::placement_policy() const {
  return placement_.load(std::memory_order_relaxed);
}

void Context::set_placement_policy(PlacementPolicy policy) {
  placement_.store(policy, std::memory_order_relaxed);
}

bool Context::is_async() const { return async_.load(std::memory_order_acquire); }

Status Context::SetAsync(bool async) {
  std::lock_guard<std::mutex> lock(mu_);
  Status status = executor_->Wait();
  if (executor_->is_async() != async) {
    executor_ = async ? MakeAsyncExecutor() : MakeSyncExecutor();
    async_.store(async, std::memory_order_release);
  }
  return status;
}

Status Context::Wait() {
  std::lock_guard<std::mutex> lock(mu_);
  Status status = executor_->Wait();
  if (!deferred_error_.ok()) {
    status = std::move(deferred_error_);
    deferred_error_ = OkStatus();
  }
  return status;
}

StatusOr<NamedDevice> Context::DeviceOrDefault(const std::optional<std::string>& name) const {
  if (!name) return default_device();
  return FindDevice(*name);
}

OpRunner& Context::RunnerFor(const NamedDevice& /*device*/) { return physical_; }

StatusOr<Tensor> Context::CopyPhysical(const Tensor& tensor, const NamedDevice& target) {
  PLUGRT_RETURN_IF_ERROR(tensor.state()->CheckHeld());
  PLUGRT_RETURN_IF_ERROR(target.lease != nullptr ? target.lease->status() : OkStatus());
  const NamedDevice* source = FindNamedDevice(devices_, tensor.device());
  if (source != nullptr && source->client == target.client) {
    return RunnerFor(target).CopyToDevice(tensor, target);
  }
  // Clients cannot copy into each other's devices: download, then upload.
  PLUGRT_RETURN_IF_ERROR(tensor.state()->WaitResolved());
  const TensorType& type = tensor.state()->type();
  PLUGRT_ASSIGN_OR_RETURN(std::vector<std::byte> bytes, tensor.ToHost());
  return Upload(bytes.data(), type.type, type.dims, target);
}

StatusOr<Tensor> Context::Upload(const void* data, PJRT_Buffer_Type type,
                                 std::vector<int64_t> dims, const NamedDevice& target) {
  Client::HostBuffer host(data, type, dims);
  PLUGRT_ASSIGN_OR_RETURN(auto made, target.client->BufferFromHostBuffer(host, target.device));
  // kImmutableOnlyDuringCall: the plugin has copied the data on return;
  // waiting keeps that true for plugins that signal later.
  PLUGRT_RETURN_IF_ERROR(made.second.Await());
  auto state = std::make_shared<internal::TensorState>(target.device, target.name, target.lease);
  state->Resolve(std::move(made.first), TensorType{type, std::move(dims)});
  return Tensor(std::move(state));
}

StatusOr<Tensor> Context::FromHost(const void* data, PJRT_Buffer_Type type,
                                   std::vector<int64_t> dims, std::optional<std::string> device) {
  if (device && FindCustomDevice(*device) != nullptr) {
    // Made on the default device, then handed to the custom one.
    PLUGRT_ASSIGN_OR_RETURN(Tensor physical, FromHost(data, type, std::move(dims)));
    return CopyToDevice(physical, *device);
  }
  PLUGRT_ASSIGN_OR_RETURN(NamedDevice target, DeviceOrDefault(device));
  return Upload(data, type, std::move(dims), target);
}

namespace {

// Calls the deallocator at most once, however many paths reach it.
class OnceDeallocator {
 public:
  explicit OnceDeallocator(std::function<void()> f) : f_(std::move(f)) {}
  void operator()() {
    std::function<void()> f;
    {
      std::lock_guard<std::mutex> lock(mu_);
      f.swap(f_);
    }
    if (f) f();
  }

 private:
  std::mutex mu_;
  std::function<void()> f_;
};

}  // namespace

StatusOr<Tensor> Context::FromHostZeroCopy(void* data, PJRT_Buffer_Type type,
                                           std::vector<int64_t> dims,
                                           std::function<void()> deallocator,
                                           std::optional<std::string> device) {
  auto release = std::make_shared<OnceDeallocator>(std::move(deallocator));
  StatusOr<NamedDevice> target = DeviceOrDefault(device);
  if (!target.ok()) {
    (*release)();
    return target.status();
  }
  Client::HostBuffer host(data, type, dims);
  host.semantics = PJRT_HostBufferSemantics_kImmutableZeroCopy;
  StatusOr<std::pair<Buffer, Future>> made =
      target->client->BufferFromHostBuffer(host, target->device);
  if (!made.ok()) {
    (*release)();
    return made.status();
  }
  // done_with_host_buffer completes when the plugin lets go of `data`: at
  // once after a copy, or when an aliasing buffer's storage goes.
  Status registered = made->second.OnReady([release](Status) { (*release)(); });
  if (!registered.ok()) {
    // Without a callback the only safe moment is now, after a copy; an
    // aliasing buffer cannot be kept without one.
    made->first = Buffer();
    made->second.Await().IgnoreError();
    (*release)();
    return registered;
  }
  auto state = std::make_shared<internal::TensorState>(target->device, target->name, target->lease);
  state->Resolve(std::move(made->first), TensorType{type, std::move(dims)});
  return Tensor(std::move(state));
}

StatusOr<Tensor> Context::CopyToDevice(const Tensor& tensor, std::string_view device) {
  if (!tensor) return InvalidArgument("CopyToDevice: the tensor handle is empty");
  if (CustomDevice* target = FindCustomDevice(device)) {
    if (tensor.device_name() == device) return tensor;
    Tensor physical = tensor;
    if (tensor.is_custom()) {
      PLUGRT_ASSIGN_OR_RETURN(physical, CopyToDevice(tensor, default_device().name));
    }
    PLUGRT_RETURN_IF_ERROR(physical.state()->WaitResolved());
    return target->CopyToDevice(*this, physical);
  }
  PLUGRT_ASSIGN_OR_RETURN(NamedDevice target, FindDevice(device));
  if (tensor.is_custom()) {
    PLUGRT_ASSIGN_OR_RETURN(CustomDevice * source, CustomDeviceOf(tensor));
    PLUGRT_ASSIGN_OR_RETURN(Tensor copy, source->CopyFromDevice(*this, tensor, target.name));
    if (copy.is_custom() || copy.device_name() != target.name) {
      return Internal("custom device ", tensor.device_name(), " copied a tensor to ",
                      copy.device_name(), " when asked for ", target.name);
    }
    return copy;
  }
  return CopyPhysical(tensor, target);
}

StatusOr<std::vector<std::vector<Tensor>>> Context::ExecuteReplicated(
    const Op& op, const std::vector<std::vector<std::vector<Tensor>>>& inputs,
    const std::vector<std::string>& devices) {
  if (devices.empty() || inputs.size() != devices.size()) {
    return InvalidArgument(op.name(), ": a replicated run needs one input list per device; got ",
                           inputs.size(), " lists for ", devices.size(), " devices");
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t num_outputs, op.NumOutputs());
  std::vector<NamedDevice> targets;
  std::vector<std::vector<std::vector<Tensor>>> placed = inputs;
  std::vector<std::vector<Tensor>> outputs(devices.size());
  for (size_t r = 0; r < devices.size(); ++r) {
    PLUGRT_ASSIGN_OR_RETURN(NamedDevice target, FindDevice(devices[r]));
    for (auto& group : placed[r]) {
      for (Tensor& t : group) {
        if (!t) return InvalidArgument(op.name(), ": an input of replica ", r, " is empty");
        PLUGRT_RETURN_IF_ERROR(t.state()->CheckHeld());
        if (t.is_custom() || t.device() != target.device) {
          PLUGRT_ASSIGN_OR_RETURN(t, CopyToDevice(t, target.name));
        }
        Status ready = t.state()->WaitResolved();
        if (!ready.ok()) {
          return Status(ready.code(), op.name() + ": an input of replica " + std::to_string(r) +
                                          " comes from an op that failed: " + ready.message());
        }
      }
    }
    for (int64_t i = 0; i < num_outputs; ++i) {
      outputs[r].emplace_back(
          std::make_shared<internal::TensorState>(target.device, target.name, target.lease));
    }
    targets.push_back(std::move(target));
  }
  StatusOr<std::vector<Future>> done = physical_.RunReplicated(op, placed, targets, outputs);
  Status status = done.status();
  if (done.ok()) {
    // Every replica's work, so that none is left running on an error.
    for (Future& f : *done) {
      Status s = f.Await();
      if (status.ok()) status = s;
    }
  }
  if (!status.ok()) {
    for (auto& replica : outputs) {
      for (Tensor& t : replica) t.state()->Poison(status);
    }
    return status;
  }
  return outputs;
}

Status Context::RegisterCustomDevice(std::string name, std::unique_ptr<CustomDevice> device) {
  if (device == nullptr) return InvalidArgument("custom device '", name, "': no device given");
  if (name.empty()) return InvalidArgument("a custom device needs a name");
  for (const NamedDevice& d : devices_) {
    if (d.name == name) {
      return MakeError(StatusCode::kAlreadyExists, "custom device '", name,
                       "': a physical device has that name");
    }
  }
  if (name.front() == '/') {
    return InvalidArgument("custom device '", name,
                           "': names starting with '/' are full device names "
                           "(/job:JOB/task:T/device:KIND:N)");
  }
  std::lock_guard<std::mutex> lock(custom_mu_);
  if (custom_devices_.count(name) != 0) {
    return MakeError(StatusCode::kAlreadyExists, "custom device '", name,
                     "' is already registered on this context");
  }
  custom_devices_.emplace(std::move(name), std::shared_ptr<CustomDevice>(std::move(device)));
  return OkStatus();
}

CustomDevice* Context::FindCustomDevice(std::string_view name) const {
  std::lock_guard<std::mutex> lock(custom_mu_);
  auto it = custom_devices_.find(name);
  return it == custom_devices_.end() ? nullptr : it->second.get();
}

std::vector<std::string> Context::CustomDeviceNames() const {
  std::lock_guard<std::mutex> lock(custom_mu_);
  std::vector<std::string> names;
  for (const auto& [name, device] : custom_devices_) names.push_back(name);
  return names;
}

StatusOr<CustomDevice*> Context::CustomDeviceOf(const Tensor& tensor) const {
  CustomDevice* device = FindCustomDevice(tensor.device_name());
  if (device == nullptr) {
    return FailedPrecondition("the tensor's custom device '", tensor.device_name(),
                              "' is not registered on this context");
  }
  return device;
}

StatusOr<Tensor> Context::NewCustomTensor(std::string_view device, PJRT_Buffer_Type dtype,
                                          std::unique_ptr<CustomTensorData> data) {
  if (data == nullptr) return InvalidArgument("NewCustomTensor: no tensor data given");
  std::weak_ptr<CustomDevice> weak;
  {
    std::lock_guard<std::mutex> lock(custom_mu_);
    auto it = custom_devices_.find(device);
    if (it == custom_devices_.end()) {
      return NotFound("NewCustomTensor: no custom device '", device, "' on this context");
    }
    weak = it->second;
  }
  // Host reads copy the tensor to the default device through its device;
  // once the context (and so the device) is gone, they fail instead.
  internal::CopyOff copy_off = [this, weak](const Tensor& tensor) -> StatusOr<Tensor> {
    std::shared_ptr<CustomDevice> owner = weak.lock();
    if (owner == nullptr) {
      return FailedPrecondition("custom device ", tensor.device_name(), " was deleted");
    }
    return CopyToDevice(tensor, default_device().name);
  };
  return Tensor(std::make_shared<internal::TensorState>(std::string(device), dtype,
                                                        std::move(data), std::move(copy_off)));
}

StatusOr<Tensor> Context::Pack(const std::vector<Tensor>& tensors, std::string_view device) {
  CustomDevice* target = FindCustomDevice(device);
  if (target == nullptr) {
    return InvalidArgument("Pack: '", device, "' is not a custom device of this context");
  }
  if (!target->can_pack()) return Unimplemented("custom device ", device, " cannot pack tensors");
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!tensors[i]) return InvalidArgument("Pack: tensor ", i, " is an empty handle");
  }
  return target->Pack(*this, tensors);
}

StatusOr<CustomDevice*> Context::RouteToCustomDevice(const Op& op) const {
  if (op.device()) {
    if (CustomDevice* placed = FindCustomDevice(*op.device())) return placed;  // rule 1
  }
  // The common case, physical inputs only, without building anything.
  const std::span<const Tensor> inputs = op.inputs();
  if (std::none_of(inputs.begin(), inputs.end(), [](const Tensor& t) { return t.is_custom(); })) {
    return nullptr;  // rule 4
  }
  std::vector<std::string> names;
  std::vector<CustomDevice*> candidates;
  for (const Tensor& t : inputs) {
    if (!t.is_custom()) continue;
    if (std::find(names.begin(), names.end(), t.device_name()) != names.end()) continue;
    PLUGRT_ASSIGN_OR_RETURN(CustomDevice * device, CustomDeviceOf(t));
    names.push_back(t.device_name());
    candidates.push_back(device);
  }
  if (candidates.empty()) return nullptr;                 // rule 4
  if (candidates.size() == 1) return candidates.front();  // rule 2
  for (CustomDevice* device : candidates) {               // rule 3
    PLUGRT_ASSIGN_OR_RETURN(bool pin, device->ShallPinToThisDevice(op));
    if (pin) return device;
  }
  std::string listed;
  for (size_t i = 0; i < names.size(); ++i) {
    listed += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return InvalidArgument(op.name(), ": its inputs live on custom devices ", listed,
                         " and none of them takes the op (ShallPinToThisDevice); copy the "
                         "inputs to one device first");
}

StatusOr<Tensor> Context::LoadNpy(const std::string& path, std::optional<std::string> device) {
  PLUGRT_ASSIGN_OR_RETURN(HostArray array, ReadNpyFile(path));
  return FromHost(array.data.data(), array.type, array.dims, std::move(device));
}

Status Context::SaveNpy(const Tensor& tensor, const std::string& path) {
  HostArray array;
  PLUGRT_ASSIGN_OR_RETURN(TensorType type, tensor.type());
  PLUGRT_ASSIGN_OR_RETURN(array.data, tensor.ToHost());
  array.type = type.type;
  array.dims = type.dims;
  return WriteNpyFile(path, array);
}

StatusOr<std::vector<Tensor>> Context::Execute(const Op& op) {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, Dispatch(op));
  // Observers (a gradient tape) hear of the op as the caller ran it.
  if (OpObserversActive()) PLUGRT_RETURN_IF_ERROR(NotifyOpExecuted(op, outputs));
  return outputs;
}

StatusOr<std::vector<Tensor>> Context::Dispatch(const Op& op) {
  PLUGRT_ASSIGN_OR_RETURN(CustomDevice * custom, RouteToCustomDevice(op));
  if (custom != nullptr) {
    // The ops a custom device runs for this one are its business.
    ScopedOpObserverPause pause;
    return custom->Execute(*this, op);
  }
  if (!is_async()) return ExecuteInline(op);
  Executor* executor;
  {
    std::lock_guard<std::mutex> lock(mu_);
    executor = executor_.get();
  }
  // A queued op outlives the caller's Op: the node holds a copy.
  Node node;
  std::vector<Tensor> outputs;
  PLUGRT_RETURN_IF_ERROR(MakeNode(std::make_shared<const Op>(op), node, outputs));
  PLUGRT_RETURN_IF_ERROR(executor->Submit(std::move(node)));
  return outputs;
}

StatusOr<std::vector<Tensor>> Context::ExecuteInline(const Op& op) {
  // The synchronous executor's work without a node (no queue, no closure,
  // no copies of the op): the per-op cost of eager mode is paid here.
  Placement placement;
  std::vector<Tensor> outputs;
  PLUGRT_RETURN_IF_ERROR(Place(op, placement, outputs));
  Status status;
  const std::span<const Tensor> inputs = op.inputs();
  for (size_t i = 0; i < inputs.size() && status.ok(); ++i) {
    status = CheckInput(op.name(), i, inputs[i]);
  }
  StatusOr<Future> done = status.ok() ? RunPlaced(op, placement, outputs) : StatusOr<Future>(status);
  if (!done.ok()) {
    for (Tensor& output : outputs) output.state()->Poison(done.status());
    return done.status();
  }
  PLUGRT_RETURN_IF_ERROR(done->Await());
  // The device work has ended, so the outputs are ready: reading them needs
  // no readiness query of the plugin.
  for (Tensor& output : outputs) output.state()->set_known_ready();
  return outputs;
}

StatusOr<Context::Launched> Context::Launch(const Op& op) {
  for (const Tensor& t : op.inputs()) {
    if (t.is_custom()) {
      return InvalidArgument(op.name(), ": Launch takes physical tensors; an input is on ",
                             t.device_name());
    }
  }
  // Run here and now, so the caller's op is borrowed.
  Node node;
  std::vector<Tensor> outputs;
  PLUGRT_RETURN_IF_ERROR(
      MakeNode(std::shared_ptr<const Op>(std::shared_ptr<const Op>(), &op), node, outputs));
  PLUGRT_ASSIGN_OR_RETURN(Future done, RunNode(node));
  return Launched{std::move(outputs), std::move(done)};
}

Status Context::Place(const Op& op, Placement& placement, std::vector<Tensor>& outputs) {
  std::optional<NamedDevice> requested;
  if (op.device()) {
    PLUGRT_ASSIGN_OR_RETURN(NamedDevice d, FindDevice(*op.device()));
    requested = std::move(d);
  }
  for (const Tensor& input : op.inputs()) {
    // A tensor of a released cluster task (one atomic load for remote
    // tensors, one null test for local ones).
    if (input) PLUGRT_RETURN_IF_ERROR(input.state()->CheckHeld());
  }
  PLUGRT_RETURN_IF_ERROR(PlaceOp(op.name(), requested, op.inputs(), devices_, default_device(),
                                 placement_policy(), placement));
  for (const std::string& warning : placement.warnings) {
    if (options_.warn) {
      options_.warn(warning);
    } else {
      Log(LogLevel::kWarning, "eager", warning);
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t num_outputs, op.NumOutputs());
  outputs.reserve(static_cast<size_t>(num_outputs));
  for (int64_t o = 0; o < num_outputs; ++o) {
    outputs.emplace_back(std::make_shared<internal::TensorState>(
        placement.device.device, placement.device.name, placement.device.lease));
  }
  return OkStatus();
}

StatusOr<Future> Context::RunPlaced(const Op& op, const Placement& placement,
                                    std::vector<Tensor>& outputs) {
  OpRunner& runner = RunnerFor(placement.device);
  if (placement.copies.empty()) return runner.Run(op, op.inputs(), placement.device, outputs);
  std::vector<Tensor> moved(op.inputs().begin(), op.inputs().end());
  auto copies = std::make_shared<std::vector<Tensor>>();
  for (size_t index : placement.copies) {
    PLUGRT_ASSIGN_OR_RETURN(moved[index], CopyPhysical(moved[index], placement.device));
    copies->push_back(moved[index]);
  }
  PLUGRT_ASSIGN_OR_RETURN(Future done, runner.Run(op, moved, placement.device, outputs));
  // The copies live until the device work that reads them has ended.
  Status kept = done.OnReady([copies](Status) {});
  if (!kept.ok()) PLUGRT_RETURN_IF_ERROR(done.Await());
  return done;
}

Status Context::MakeNode(std::shared_ptr<const Op> held, Node& node,
                         std::vector<Tensor>& outputs) {
  const Op& op = *held;
  Placement placement;
  PLUGRT_RETURN_IF_ERROR(Place(op, placement, outputs));
  node.op = op.name();
  node.inputs.assign(op.inputs().begin(), op.inputs().end());
  node.outputs = outputs;
  node.run = [this, held, placement = std::move(placement), outputs]() mutable {
    return RunPlaced(*held, placement, outputs);
  };
  return OkStatus();
}

}  // namespace plugrt::eager
