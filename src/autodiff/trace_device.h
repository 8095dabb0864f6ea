// plugrt autodiff: TraceDevice, a custom device (eager/custom_device.h) that
// runs nothing: each op routed to it becomes one line of a StableHLO function
// body, and its outputs are symbolic tensors (a value name and a type). Run a
// function's ops, and a tape's gradient of them, on traced arguments and the
// lines written are a program computing the same thing: how compiled
// gradients (gradient_program.h) reuse the eager VJP rules unchanged.
//
// A physical tensor an op mixes in (a constant a rule made on the host side)
// is written as a constant of its value. Reading a traced tensor's data is
// FAILED_PRECONDITION: it has none until the program runs (so a rule that
// reads values, as `while`'s reads its trip count, cannot be traced).
#ifndef PLUGRT_AUTODIFF_TRACE_DEVICE_H_
#define PLUGRT_AUTODIFF_TRACE_DEVICE_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "eager/context.h"
#include "eager/custom_device.h"

namespace plugrt::autodiff {

class TraceDevice : public eager::CustomDevice {
 public:
  explicit TraceDevice(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }

  // A traced tensor of `type` standing for the function argument `value`
  // ("%arg0"), which the caller declares itself.
  StatusOr<eager::Tensor> Argument(eager::Context& context, const eager::TensorType& type,
                                   std::string value);
  // The value name of a tensor of this device; INVALID_ARGUMENT otherwise.
  StatusOr<std::string> ValueOf(const eager::Tensor& tensor) const;

  // The body written so far, without the lines no value in `live` depends
  // on, in order; the loaded functions they refer to.
  std::vector<std::string> Body(const std::vector<std::string>& live) const;
  const std::set<std::string>& functions() const { return functions_; }

  StatusOr<eager::Tensor> CopyToDevice(eager::Context& context,
                                       const eager::Tensor& tensor) override;
  StatusOr<eager::Tensor> CopyFromDevice(eager::Context& context, const eager::Tensor& tensor,
                                         const std::string& target) override;
  StatusOr<std::vector<eager::Tensor>> Execute(eager::Context& context,
                                               const eager::Op& op) override;

 private:
  struct Line {
    std::string value;                  // the name it binds ("%v3")
    std::vector<std::string> operands;  // the value names it reads
    std::string text;
  };
  // A constant line holding `tensor`'s data (a physical tensor); its name.
  StatusOr<std::string> Embed(const eager::Tensor& tensor);
  StatusOr<eager::Tensor> NewValue(eager::Context& context, const eager::TensorType& type,
                                   std::string value);
  std::string NextName() { return "%v" + std::to_string(lines_.size()); }

  std::string name_;
  std::vector<Line> lines_;
  std::set<std::string> functions_;
};

}  // namespace plugrt::autodiff

#endif  // PLUGRT_AUTODIFF_TRACE_DEVICE_H_
