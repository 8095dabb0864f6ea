#include "eager/logging_device.h"

#include "eager/context.h"

namespace plugrt::eager {

namespace {

// A logging device's tensor: the physical tensor it wraps.
class LoggedTensor : public CustomTensorData {
 public:
  explicit LoggedTensor(Tensor physical) : physical_(std::move(physical)) {}
  StatusOr<std::vector<int64_t>> Dims() const override { return physical_.dims(); }
  StatusOr<std::string> Summary() const override { return "(" + physical_.Summary() + ")"; }
  Status Await() const override { return physical_.Await(); }
  bool IsReady() const override { return physical_.IsReady(); }
  const Tensor& physical() const { return physical_; }

 private:
  Tensor physical_;
};

}  // namespace

StatusOr<Tensor> LoggingDevice::Wrap(Context& context, Tensor physical) const {
  PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type dtype, physical.dtype());
  return context.NewCustomTensor(name_, dtype, std::make_unique<LoggedTensor>(std::move(physical)));
}

StatusOr<Tensor> LoggingDevice::Unwrap(const Tensor& tensor) const {
  const auto* logged = dynamic_cast<const LoggedTensor*>(tensor.custom_data());
  if (logged == nullptr || tensor.device_name() != name_) {
    return InvalidArgument("a tensor on ", tensor.device_name(), " is not one of logging device ",
                           name_, "'s");
  }
  return logged->physical();
}

StatusOr<Tensor> LoggingDevice::CopyToDevice(Context& context, const Tensor& tensor) {
  PLUGRT_ASSIGN_OR_RETURN(Tensor physical, context.CopyToDevice(tensor, target_));
  return Wrap(context, std::move(physical));
}

StatusOr<Tensor> LoggingDevice::CopyFromDevice(Context& context, const Tensor& tensor,
                                               const std::string& target) {
  PLUGRT_ASSIGN_OR_RETURN(Tensor physical, Unwrap(tensor));
  return context.CopyToDevice(physical, target);
}

StatusOr<std::vector<Tensor>> LoggingDevice::Execute(Context& context, const Op& op) {
  LoggedOp entry{op.name(), op.device().value_or(""), {}};
  std::vector<std::vector<Tensor>> inputs = op.input_groups();
  for (auto& group : inputs) {
    for (Tensor& t : group) {
      entry.input_devices.push_back(t.device_name());
      if (t.device_name() == name_) {
        PLUGRT_ASSIGN_OR_RETURN(t, Unwrap(t));
      } else if (t.is_custom()) {
        // Another custom device's tensor: brought to the physical side.
        PLUGRT_ASSIGN_OR_RETURN(t, context.CopyToDevice(t, target_));
      }
    }
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    log_.push_back(entry);
  }
  // A physical device the op asked for is honoured; else the target.
  std::string device = target_;
  if (op.device() && context.FindCustomDevice(*op.device()) == nullptr) device = *op.device();
  PLUGRT_ASSIGN_OR_RETURN(Op forwarded, op.Rebound(std::move(inputs), device));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, forwarded.Execute());
  std::vector<Tensor> wrapped;
  for (Tensor& t : outputs) {
    // Under the async executor the output may still be pending: its dtype
    // comes from the op that makes it, so wait for that (not the data).
    PLUGRT_RETURN_IF_ERROR(t.state()->WaitResolved());
    PLUGRT_ASSIGN_OR_RETURN(Tensor w, Wrap(context, std::move(t)));
    wrapped.push_back(std::move(w));
  }
  return wrapped;
}

std::vector<LoggedOp> LoggingDevice::log() const {
  std::lock_guard<std::mutex> lock(mu_);
  return log_;
}

StatusOr<LoggingDevice*> RegisterLoggingDevice(Context& context, std::string name,
                                               std::string target) {
  PLUGRT_RETURN_IF_ERROR(context.FindDevice(target).status());
  auto device = std::make_unique<LoggingDevice>(name, std::move(target));
  LoggingDevice* raw = device.get();
  PLUGRT_RETURN_IF_ERROR(context.RegisterCustomDevice(std::move(name), std::move(device)));
  return raw;
}

}  // namespace plugrt::eager
