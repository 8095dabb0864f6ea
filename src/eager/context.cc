#include "eager/context.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "client/npy.h"

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
      physical_(*client_, cache_, functions_),
      executor_(options_.async ? MakeAsyncExecutor() : MakeSyncExecutor()) {}

Context::~Context() {
  // Queued nodes refer to this context (runner, cache): finish them first.
  executor_.reset();
}

Status Context::Init() {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, client_->addressable_devices());
  if (devices.empty()) return FailedPrecondition("the client has no addressable devices");
  for (size_t i = 0; i < devices.size(); ++i) {
    PLUGRT_ASSIGN_OR_RETURN(std::string kind, devices[i].kind());
    std::transform(kind.begin(), kind.end(), kind.begin(),
                   [](unsigned char c) { return std::isspace(c) ? '_' : std::tolower(c); });
    devices_.push_back({devices[i], kind + ":" + std::to_string(i)});
  }
  return OkStatus();
}

StatusOr<NamedDevice> Context::FindDevice(std::string_view name) const {
  std::string known;
  for (const NamedDevice& d : devices_) {
    if (d.name == name) return d;
    known += (known.empty() ? "" : ", ") + d.name;
  }
  return NotFound("no device '", name, "' in the context; its devices: ", known);
}

std::string Context::DeviceName(const Device& device) const {
  for (const NamedDevice& d : devices_) {
    if (d.device == device) return d.name;
  }
  return "(unknown device)";
}

Status Context::SetDefaultDevice(std::string_view name) {
  PLUGRT_ASSIGN_OR_RETURN(NamedDevice device, FindDevice(name));
  for (size_t i = 0; i < devices_.size(); ++i) {
    if (devices_[i].name == device.name) default_device_ = i;
  }
  return OkStatus();
}

PlacementPolicy Context::placement_policy() const {
  std::lock_guard<std::mutex> lock(mu_);
  return options_.placement;
}

void Context::set_placement_policy(PlacementPolicy policy) {
  std::lock_guard<std::mutex> lock(mu_);
  options_.placement = policy;
}

bool Context::is_async() const {
  std::lock_guard<std::mutex> lock(mu_);
  return executor_->is_async();
}

Status Context::SetAsync(bool async) {
  std::lock_guard<std::mutex> lock(mu_);
  Status status = executor_->Wait();
  if (executor_->is_async() != async) {
    executor_ = async ? MakeAsyncExecutor() : MakeSyncExecutor();
  }
  return status;
}

Status Context::Wait() {
  std::lock_guard<std::mutex> lock(mu_);
  return executor_->Wait();
}

StatusOr<NamedDevice> Context::DeviceOrDefault(const std::optional<std::string>& name) const {
  if (!name) return default_device();
  return FindDevice(*name);
}

OpRunner& Context::RunnerFor(const NamedDevice& /*device*/) { return physical_; }

StatusOr<Tensor> Context::FromHost(const void* data, PJRT_Buffer_Type type,
                                   std::vector<int64_t> dims, std::optional<std::string> device) {
  PLUGRT_ASSIGN_OR_RETURN(NamedDevice target, DeviceOrDefault(device));
  Client::HostBuffer host(data, type, dims);
  PLUGRT_ASSIGN_OR_RETURN(auto made, client_->BufferFromHostBuffer(host, target.device));
  // kImmutableOnlyDuringCall: the plugin has copied the data on return;
  // waiting keeps that true for plugins that signal later.
  PLUGRT_RETURN_IF_ERROR(made.second.Await());
  auto state = std::make_shared<internal::TensorState>(target.device, target.name);
  state->Resolve(std::move(made.first), TensorType{type, std::move(dims)});
  return Tensor(std::move(state));
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
  StatusOr<std::pair<Buffer, Future>> made = client_->BufferFromHostBuffer(host, target->device);
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
  auto state = std::make_shared<internal::TensorState>(target->device, target->name);
  state->Resolve(std::move(made->first), TensorType{type, std::move(dims)});
  return Tensor(std::move(state));
}

StatusOr<Tensor> Context::CopyToDevice(const Tensor& tensor, std::string_view device) {
  if (!tensor) return InvalidArgument("CopyToDevice: the tensor handle is empty");
  PLUGRT_ASSIGN_OR_RETURN(NamedDevice target, FindDevice(device));
  return RunnerFor(target).CopyToDevice(tensor, target);
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
  std::optional<NamedDevice> requested;
  if (op.device()) {
    PLUGRT_ASSIGN_OR_RETURN(NamedDevice d, FindDevice(*op.device()));
    requested = std::move(d);
  }
  std::vector<Tensor> flat;
  std::vector<NamedDevice> input_devices;
  for (const auto& group : op.input_groups()) {
    for (const Tensor& t : group) {
      flat.push_back(t);
      input_devices.push_back({t.device(), t.device_name()});
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(Placement placement, PlaceOp(op.name(), requested, input_devices,
                                                       default_device(), placement_policy()));
  for (const std::string& warning : placement.warnings) {
    if (options_.warn) {
      options_.warn(warning);
    } else {
      std::fprintf(stderr, "plugrt eager: %s\n", warning.c_str());
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(int64_t num_outputs, op.NumOutputs());
  std::vector<Tensor> outputs;
  for (int64_t i = 0; i < num_outputs; ++i) {
    outputs.emplace_back(
        std::make_shared<internal::TensorState>(placement.device.device, placement.device.name));
  }

  Executor* executor;
  {
    std::lock_guard<std::mutex> lock(mu_);
    executor = executor_.get();
  }
  // A queued op outlives the caller's Op, so the async executor gets a copy;
  // the sync one runs it before Execute returns and borrows it.
  std::shared_ptr<const Op> held = executor->is_async()
                                       ? std::make_shared<const Op>(op)
                                       : std::shared_ptr<const Op>(std::shared_ptr<const Op>(), &op);
  Node node;
  node.op = op.name();
  node.inputs = std::move(flat);
  node.outputs = outputs;
  node.run = [this, held, placement = std::move(placement), outputs]() mutable -> StatusOr<Future> {
    OpRunner& runner = RunnerFor(placement.device);
    const std::vector<std::vector<Tensor>>* groups = &held->input_groups();
    std::vector<std::vector<Tensor>> moved;
    auto copies = std::make_shared<std::vector<Tensor>>();
    if (!placement.copies.empty()) {
      moved = *groups;
      size_t flat_index = 0;
      for (auto& group : moved) {
        for (Tensor& t : group) {
          if (std::find(placement.copies.begin(), placement.copies.end(), flat_index++) !=
              placement.copies.end()) {
            PLUGRT_ASSIGN_OR_RETURN(t, runner.CopyToDevice(t, placement.device));
            copies->push_back(t);
          }
        }
      }
      groups = &moved;
    }
    PLUGRT_ASSIGN_OR_RETURN(Future done, runner.Run(*held, *groups, placement.device, outputs));
    if (!copies->empty()) {
      // The copies live until the device work that reads them has ended.
      Status kept = done.OnReady([copies](Status) {});
      if (!kept.ok()) PLUGRT_RETURN_IF_ERROR(done.Await());
    }
    return done;
  };
  PLUGRT_RETURN_IF_ERROR(executor->Submit(std::move(node)));
  return outputs;
}

}  // namespace plugrt::eager
