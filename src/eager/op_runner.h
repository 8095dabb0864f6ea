// plugrt eager: OpRunner, who executes an op once it is placed on a device
// and who copies tensors there. The context asks the runner of the op's
// device; today every device is a physical one of the client
// (PhysicalRunner). This is the point where a custom device (a later issue)
// takes over the ops placed on it and the copies to and from it.
#ifndef PLUGRT_EAGER_OP_RUNNER_H_
#define PLUGRT_EAGER_OP_RUNNER_H_

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
  // Runs `op` on `device` with `inputs` (grouped as op.input_groups(), all
  // resolved and on `device`), resolving `outputs` (pending, one per
  // result); returns the future of the device work.
  virtual StatusOr<Future> Run(const Op& op, const std::vector<std::vector<Tensor>>& inputs,
                               const NamedDevice& device, std::vector<Tensor>& outputs) = 0;
  // A copy of `tensor` (resolved) on `device`.
  virtual StatusOr<Tensor> CopyToDevice(const Tensor& tensor, const NamedDevice& device) = 0;
};

// Builds the op's program text, compiles it once per (device, text) through
// the client, and executes it on the device.
class PhysicalRunner : public OpRunner {
 public:
  PhysicalRunner(const Client& client, ProgramCache& cache, const FunctionLibrary& library)
      : client_(client), cache_(cache), library_(library) {}

  StatusOr<Future> Run(const Op& op, const std::vector<std::vector<Tensor>>& inputs,
                       const NamedDevice& device, std::vector<Tensor>& outputs) override;
  StatusOr<Tensor> CopyToDevice(const Tensor& tensor, const NamedDevice& device) override;

 private:
  const Client& client_;
  ProgramCache& cache_;
  const FunctionLibrary& library_;
};

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_OP_RUNNER_H_
