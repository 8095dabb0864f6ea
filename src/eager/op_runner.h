// plugrt eager: OpRunner, who executes an op once it is placed on a device
// and who copies tensors there. The context asks the runner of the op's
// device, a physical one of the client (PhysicalRunner); ops routed to a
// custom device (custom_device.h) never reach a runner.
#ifndef PLUGRT_EAGER_OP_RUNNER_H_
#define PLUGRT_EAGER_OP_RUNNER_H_

#include <span>
#include <vector>

#include "client/client.h"
#include "client/event.h"
#include "common/status.h"
#include "eager/function_library.h"
#include "eager/op.h"
#include "eager/placement.h"
#include "eager/program_cache.h"
#include "eager/tensor.h"

namespace plugrt::eager {

class OpRunner {
 public:
  virtual ~OpRunner() = default;
  // Runs `op` on `device` with `inputs` (flat, grouped as op's inputs, all
  // resolved and on `device`), resolving `outputs` (pending, one per
  // result); returns the future of the device work.
  virtual StatusOr<Future> Run(const Op& op, std::span<const Tensor> inputs,
                               const NamedDevice& device, std::vector<Tensor>& outputs) = 0;
  // A copy of `tensor` (resolved, on a device of the same client) on
  // `device`.
  virtual StatusOr<Tensor> CopyToDevice(const Tensor& tensor, const NamedDevice& device) = 0;
};

// Builds the op's program text, compiles it once per (device, text) through
// the device's client (NamedDevice::client: the context's own or a remote
// task's), and executes it on the device.
class PhysicalRunner : public OpRunner {
 public:
  PhysicalRunner(ProgramCache& cache, const FunctionLibrary& library)
      : cache_(cache), library_(library) {}

  StatusOr<Future> Run(const Op& op, std::span<const Tensor> inputs, const NamedDevice& device,
                       std::vector<Tensor>& outputs) override;
  StatusOr<Tensor> CopyToDevice(const Tensor& tensor, const NamedDevice& device) override;

  // Runs `op` as one program with a replica on each of `devices` (so that
  // its collectives connect them): inputs[r] (resolved, on devices[r],
  // grouped as op.input_groups(), the same types for every r) and
  // outputs[r] (pending) are replica r's; the futures of each replica's
  // device work.
  StatusOr<std::vector<Future>> RunReplicated(
      const Op& op, const std::vector<std::vector<std::vector<Tensor>>>& inputs,
      const std::vector<NamedDevice>& devices, std::vector<std::vector<Tensor>>& outputs);

 private:
  // The compiled program of `op` on the types of `inputs` (resolved, flat),
  // one replica per device. A hit builds nothing: the key goes into a
  // per-thread buffer, the text only on a miss.
  StatusOr<std::shared_ptr<const CompiledProgram>> Program(const Op& op,
                                                           std::span<const Tensor> inputs,
                                                           std::span<const NamedDevice> devices);

  ProgramCache& cache_;
  const FunctionLibrary& library_;
};

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_OP_RUNNER_H_
