// plugrt eager: LoggingDevice, a custom device (custom_device.h) that records
// every op routed to it and runs it on a physical device: the one the op
// asked for, else its own target. Its tensors wrap the physical results, so
// ops on them keep coming back here. For tests, and as the smallest example
// of a custom device.
#ifndef PLUGRT_EAGER_LOGGING_DEVICE_H_
#define PLUGRT_EAGER_LOGGING_DEVICE_H_

#include <mutex>
#include <string>
#include <vector>

#include "eager/custom_device.h"

namespace plugrt::eager {

struct LoggedOp {
  std::string op;
  // The device the op asked for ("" when none).
  std::string requested_device;
  // Per flat input, the device it lived on.
  std::vector<std::string> input_devices;
};

class LoggingDevice : public CustomDevice {
 public:
  // `target`: the physical device its tensors live on.
  LoggingDevice(std::string name, std::string target)
      : name_(std::move(name)), target_(std::move(target)) {}

  StatusOr<Tensor> CopyToDevice(Context& context, const Tensor& tensor) override;
  StatusOr<Tensor> CopyFromDevice(Context& context, const Tensor& tensor,
                                  const std::string& target) override;
  StatusOr<std::vector<Tensor>> Execute(Context& context, const Op& op) override;

  // What was routed here so far, in order.
  std::vector<LoggedOp> log() const;
  // The physical tensor behind one of this device's tensors.
  StatusOr<Tensor> Unwrap(const Tensor& tensor) const;

 private:
  StatusOr<Tensor> Wrap(Context& context, Tensor physical) const;

  const std::string name_;
  const std::string target_;
  mutable std::mutex mu_;
  std::vector<LoggedOp> log_;
};

// Registers a LoggingDevice named `name` over physical device `target`; the
// context owns it (the pointer lives as long as the context).
StatusOr<LoggingDevice*> RegisterLoggingDevice(Context& context, std::string name,
                                               std::string target);

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_LOGGING_DEVICE_H_
