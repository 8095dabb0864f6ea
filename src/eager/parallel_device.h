// plugrt eager: ParallelDevice, one logical device over N physical component
// devices, built as a custom device (custom_device.h). Its tensors are
// parallel tensors: one component per device, all of one element type
// (their shapes may differ: the axes whose sizes differ read as
// kUnknownDim). An op on it is launched on every component in turn
// (Context::Launch returns once the device has the work queued, so the
// components' device work runs concurrently) and then awaited; the first
// component to fail is the op's error (naming the component), and a failed
// launch cancels the components after it. An op whose program holds collectives
// (stablehlo.all_reduce, all_gather, replica_id, ..., by name or inside a
// loaded function) runs instead as ONE program over the N devices, a
// replica on each (Context::ExecuteReplicated), so that the collectives'
// replica ids are the component indices.
//
//   auto dev = RegisterParallelDevice(ctx, "par", {"cpu:0", "cpu:1"});
//   Tensor x = *ctx.Pack({a0, a1}, "par");      // a0 on cpu:0, a1 on cpu:1
//   Op ids(ctx, "plugrt.device_id"); ids.SetDevice("par");  // [0, 1]
//   std::vector<Tensor> parts = *UnpackParallel(y);
//
// Inputs of an op on it are parallel tensors of this device (component i
// goes to component device i) or physical tensors (given to every
// component, copied as needed). Its ops are launched from the caller's
// thread and wait for their components, under either executor.
#ifndef PLUGRT_EAGER_PARALLEL_DEVICE_H_
#define PLUGRT_EAGER_PARALLEL_DEVICE_H_

#include <string>
#include <vector>

#include "eager/custom_device.h"

namespace plugrt::eager {

class ParallelDevice : public CustomDevice {
 public:
  ParallelDevice(std::string name, std::vector<std::string> components)
      : name_(std::move(name)), components_(std::move(components)) {}

  const std::string& name() const { return name_; }
  const std::vector<std::string>& components() const { return components_; }

  // A physical tensor copied to every component (a broadcast).
  StatusOr<Tensor> CopyToDevice(Context& context, const Tensor& tensor) override;
  // Refused: a parallel tensor has N values; UnpackParallel gives them.
  StatusOr<Tensor> CopyFromDevice(Context& context, const Tensor& tensor,
                                  const std::string& target) override;
  StatusOr<std::vector<Tensor>> Execute(Context& context, const Op& op) override;
  // N physical tensors of one element type: component i is copied to
  // component device i where it is not there already.
  bool can_pack() const override { return true; }
  StatusOr<Tensor> Pack(Context& context, const std::vector<Tensor>& tensors) override;

 private:
  StatusOr<Tensor> MakeParallel(Context& context, std::vector<Tensor> components) const;
  StatusOr<std::vector<std::vector<Tensor>>> RunEach(
      Context& context, const Op& op,
      const std::vector<std::vector<std::vector<Tensor>>>& inputs) const;

  const std::string name_;
  const std::vector<std::string> components_;
};

// Registers a ParallelDevice named `name` over the physical devices
// `components` (at least one, each once); the context owns it.
StatusOr<ParallelDevice*> RegisterParallelDevice(Context& context, std::string name,
                                                 std::vector<std::string> components);

// The components of a parallel tensor, in device order.
StatusOr<std::vector<Tensor>> UnpackParallel(const Tensor& tensor);

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_PARALLEL_DEVICE_H_
