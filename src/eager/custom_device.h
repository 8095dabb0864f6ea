// plugrt eager: custom devices, devices the program (or a library) defines
// itself by a set of callbacks, registered on a context under a name. The
// context hands such a device the ops routed to it and the copies to and
// from it; the device keeps its tensors as it likes (CustomTensorData) and
// may run any ops itself through the context. The parallel device
// (parallel_device.h) and the logging device (logging_device.h) are two.
//
// Routing (Context::Execute), in this order:
//  1. An op placed on a custom device (Op::SetDevice) runs there, whatever
//     its inputs are.
//  2. Otherwise, an op with inputs on exactly one custom device runs there;
//     a physical device asked for is passed along (Op::device()) for the
//     custom device to honour.
//  3. Inputs on several custom devices: each of them, in input order, is
//     asked whether the op shall be pinned to it (ShallPinToThisDevice);
//     the first that accepts runs it. If none accepts, the op is an
//     INVALID_ARGUMENT error naming every one of them.
//  4. Ops with inputs on physical devices only take the physical path
//     (placement.h).
// Custom devices run their ops on the caller's thread, under either
// executor; the ops they issue go through the context's executor.
#ifndef PLUGRT_EAGER_CUSTOM_DEVICE_H_
#define PLUGRT_EAGER_CUSTOM_DEVICE_H_

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "eager/custom_tensor.h"
#include "eager/op.h"
#include "eager/tensor.h"

namespace plugrt::eager {

class Context;

class CustomDevice {
 public:
  // The device's deletion: when its context is destroyed.
  virtual ~CustomDevice() = default;

  // A tensor of this device holding `tensor` (a physical device's tensor).
  virtual StatusOr<Tensor> CopyToDevice(Context& context, const Tensor& tensor) = 0;
  // A tensor of the physical device `target` holding `tensor` (one of
  // this device's).
  virtual StatusOr<Tensor> CopyFromDevice(Context& context, const Tensor& tensor,
                                          const std::string& target) = 0;
  // Runs `op` (name, attributes, input groups, the device asked for); its
  // outputs.
  virtual StatusOr<std::vector<Tensor>> Execute(Context& context, const Op& op) = 0;

  // Optional: many handles into one tensor of this device.
  virtual bool can_pack() const { return false; }
  virtual StatusOr<Tensor> Pack(Context& context, const std::vector<Tensor>& tensors);
  // Optional: whether `op`, with inputs on this and other custom devices,
  // shall run here (routing rule 3). Without an answer: no.
  virtual StatusOr<bool> ShallPinToThisDevice(const Op& op);
};

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_CUSTOM_DEVICE_H_
