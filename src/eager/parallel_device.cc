#include "eager/parallel_device.h"

#include <algorithm>
#include <mutex>
#include <optional>

#include "common/element_type.h"
#include "eager/context.h"

namespace plugrt::eager {

namespace {

// A parallel tensor: one component per component device.
class ParallelTensor : public CustomTensorData {
 public:
  explicit ParallelTensor(std::vector<Tensor> components) : components_(std::move(components)) {}

  const std::vector<Tensor>& components() const { return components_; }

  // Computed once, on the first ask (it waits for every component).
  StatusOr<std::vector<int64_t>> Dims() const override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!dims_) dims_ = ComputeDims();
    return *dims_;
  }

  StatusOr<std::string> Summary() const override {
    std::string text = "{";
    for (size_t i = 0; i < components_.size(); ++i) {
      text += (i == 0 ? "" : ", ") + components_[i].Summary();
    }
    return text + "}";
  }

  Status Await() const override {
    for (const Tensor& t : components_) PLUGRT_RETURN_IF_ERROR(t.Await());
    return OkStatus();
  }

  bool IsReady() const override {
    return std::all_of(components_.begin(), components_.end(),
                       [](const Tensor& t) { return t.IsReady(); });
  }

 private:
  StatusOr<std::vector<int64_t>> ComputeDims() const {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, components_[0].dims());
    for (size_t i = 1; i < components_.size(); ++i) {
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> other, components_[i].dims());
      if (other.size() != dims.size()) {
        return FailedPrecondition("the parallel tensor's components have different ranks (",
                                  dims.size(), " on ", components_[0].device_name(), ", ",
                                  other.size(), " on ", components_[i].device_name(), ")");
      }
      for (size_t d = 0; d < dims.size(); ++d) {
        if (other[d] != dims[d]) dims[d] = kUnknownDim;
      }
    }
    return dims;
  }

  const std::vector<Tensor> components_;
  mutable std::mutex mu_;
  mutable std::optional<StatusOr<std::vector<int64_t>>> dims_;
};

constexpr std::string_view kCollectives[] = {
    "stablehlo.all_reduce",         "stablehlo.all_gather",
    "stablehlo.all_to_all",         "stablehlo.reduce_scatter",
    "stablehlo.collective_permute", "stablehlo.collective_broadcast",
    "stablehlo.replica_id",         "stablehlo.partition_id"};

// Whether the op's program has collectives (then its replicas must meet in
// one execution); a loaded function is searched with every function it calls.
StatusOr<bool> UsesCollectives(const Context& context, const Op& op) {
  const auto named = [](std::string_view text) {
    return std::any_of(std::begin(kCollectives), std::end(kCollectives),
                       [&](std::string_view c) { return text.find(c) != std::string_view::npos; });
  };
  if (!op.function()) return named(op.name());
  PLUGRT_ASSIGN_OR_RETURN(std::string text, context.functions().DefinitionsFor({op.name()}));
  return named(text);
}

}  // namespace

StatusOr<Tensor> ParallelDevice::MakeParallel(Context& context,
                                              std::vector<Tensor> components) const {
  if (components.size() != components_.size()) {
    return Internal("parallel device ", name_, ": ", components.size(), " components for ",
                    components_.size(), " devices");
  }
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type dtype, components[0].dtype());
  for (size_t i = 1; i < components.size(); ++i) {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type other, components[i].dtype());
    if (other != dtype) {
      return InvalidArgument("parallel device ", name_, ": component ", i, " is ",
                             ElementTypeName(other), " but component 0 is ",
                             ElementTypeName(dtype), "; a parallel tensor has one element type");
    }
  }
  return context.NewCustomTensor(name_, dtype,
                                 std::make_unique<ParallelTensor>(std::move(components)));
}

StatusOr<Tensor> ParallelDevice::CopyToDevice(Context& context, const Tensor& tensor) {
  std::vector<Tensor> copies;
  for (const std::string& device : components_) {
    if (tensor.device_name() == device) {
      copies.push_back(tensor);
      continue;
    }
    PLUGRT_ASSIGN_OR_RETURN(Tensor copy, context.CopyToDevice(tensor, device));
    copies.push_back(std::move(copy));
  }
  return MakeParallel(context, std::move(copies));
}

StatusOr<Tensor> ParallelDevice::CopyFromDevice(Context& /*context*/, const Tensor& /*tensor*/,
                                                const std::string& target) {
  return InvalidArgument("a tensor of parallel device ", name_, " has ", components_.size(),
                         " values; it cannot be copied to ", target,
                         " as one (UnpackParallel gives its components)");
}

StatusOr<Tensor> ParallelDevice::Pack(Context& context, const std::vector<Tensor>& tensors) {
  if (tensors.size() != components_.size()) {
    return InvalidArgument("packing onto parallel device ", name_, " takes ", components_.size(),
                           " tensors (one per component device); got ", tensors.size());
  }
  std::vector<Tensor> components;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i].is_custom()) {
      return InvalidArgument("packing onto parallel device ", name_, ": tensor ", i,
                             " is on custom device ", tensors[i].device_name(),
                             "; components are physical tensors");
    }
    if (tensors[i].device_name() == components_[i]) {
      components.push_back(tensors[i]);
      continue;
    }
    PLUGRT_ASSIGN_OR_RETURN(Tensor copy, context.CopyToDevice(tensors[i], components_[i]));
    components.push_back(std::move(copy));
  }
  return MakeParallel(context, std::move(components));
}

StatusOr<std::vector<std::vector<Tensor>>> ParallelDevice::RunEach(
    Context& context, const Op& op,
    const std::vector<std::vector<std::vector<Tensor>>>& inputs) const {
  const size_t n = components_.size();
  const auto failure = [&](size_t r, const Status& status) {
    return Status(status.code(), "parallel device " + name_ + ", component " + std::to_string(r) +
                                     " (" + components_[r] + "): " + status.message());
  };
  // Launches return once the work is queued on the component's device, so
  // the components' device work runs concurrently. A failed launch cancels
  // the components after it: they are not launched.
  std::vector<std::vector<Tensor>> outputs(n);
  std::vector<Future> done;
  Status first;
  for (size_t r = 0; r < n && first.ok(); ++r) {
    StatusOr<Context::Launched> launched = [&]() -> StatusOr<Context::Launched> {
      PLUGRT_ASSIGN_OR_RETURN(Op rebound, op.Rebound(inputs[r], components_[r]));
      return context.Launch(rebound);
    }();
    if (!launched.ok()) {
      first = failure(r, launched.status());
      break;
    }
    outputs[r] = std::move(launched->outputs);
    done.push_back(std::move(launched->done));
  }
  // Every launched component ends before this returns, error or not.
  for (size_t r = 0; r < done.size(); ++r) {
    Status status = done[r].Await();
    if (!status.ok() && first.ok()) first = failure(r, status);
  }
  if (!first.ok()) return first;
  return outputs;
}

StatusOr<std::vector<Tensor>> ParallelDevice::Execute(Context& context, const Op& op) {
  const size_t n = components_.size();
  if (op.name() == kDeviceIdOp) {
    std::vector<Tensor> ids;
    for (size_t r = 0; r < n; ++r) {
      PLUGRT_ASSIGN_OR_RETURN(
          Tensor id, context.FromVector<int64_t>({static_cast<int64_t>(r)}, {}, components_[r]));
      ids.push_back(std::move(id));
    }
    PLUGRT_ASSIGN_OR_RETURN(Tensor parallel, MakeParallel(context, std::move(ids)));
    return std::vector<Tensor>{std::move(parallel)};
  }
  // Replica r's inputs: component r of this device's tensors, the physical
  // ones as they are.
  std::vector<std::vector<std::vector<Tensor>>> inputs(n, op.input_groups());
  const auto& groups = op.input_groups();
  for (size_t g = 0; g < groups.size(); ++g) {
    for (size_t i = 0; i < groups[g].size(); ++i) {
      const Tensor& t = groups[g][i];
      if (!t.is_custom()) continue;
      const auto* parallel = dynamic_cast<const ParallelTensor*>(t.custom_data());
      if (parallel == nullptr || t.device_name() != name_) {
        return InvalidArgument(op.name(), " on parallel device ", name_, ": an input is on custom "
                               "device ", t.device_name(), "; it takes its own tensors or "
                               "physical ones");
      }
      for (size_t r = 0; r < n; ++r) inputs[r][g][i] = parallel->components()[r];
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(bool collective, UsesCollectives(context, op));
  StatusOr<std::vector<std::vector<Tensor>>> outputs =
      collective ? context.ExecuteReplicated(op, inputs, components_)
                 : RunEach(context, op, inputs);
  if (!outputs.ok()) return outputs.status();
  std::vector<Tensor> results;
  for (size_t o = 0; o < (*outputs)[0].size(); ++o) {
    std::vector<Tensor> components;
    for (size_t r = 0; r < n; ++r) components.push_back((*outputs)[r][o]);
    PLUGRT_ASSIGN_OR_RETURN(Tensor parallel, MakeParallel(context, std::move(components)));
    results.push_back(std::move(parallel));
  }
  return results;
}

StatusOr<ParallelDevice*> RegisterParallelDevice(Context& context, std::string name,
                                                 std::vector<std::string> components) {
  if (components.empty()) {
    return InvalidArgument("parallel device '", name, "' needs at least one component device");
  }
  for (size_t i = 0; i < components.size(); ++i) {
    PLUGRT_RETURN_IF_ERROR(context.FindDevice(components[i]).status());
    if (std::find(components.begin(), components.begin() + i, components[i]) !=
        components.begin() + i) {
      return InvalidArgument("parallel device '", name, "': component device ", components[i],
                             " is listed twice");
    }
  }
  auto device = std::make_unique<ParallelDevice>(name, std::move(components));
  ParallelDevice* raw = device.get();
  PLUGRT_RETURN_IF_ERROR(context.RegisterCustomDevice(std::move(name), std::move(device)));
  return raw;
}

StatusOr<std::vector<Tensor>> UnpackParallel(const Tensor& tensor) {
  const auto* parallel = dynamic_cast<const ParallelTensor*>(tensor.custom_data());
  if (parallel == nullptr) {
    return InvalidArgument("the tensor on ", tensor.device_name(), " is not a parallel tensor");
  }
  return parallel->components();
}

}  // namespace plugrt::eager
