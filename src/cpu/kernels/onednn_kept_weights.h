// plugrt CPU kernels: weights in a oneDNN primitive's own layout, kept from
// one run to the next (a KeptCopy).
//
// A convolution or matmul runs fastest on weights reordered into oneDNN's
// blocked layout. Reordering on every execute read and wrote every weight
// each time (ResNet-50: 100 MB). Weights computed during a run are reordered
// into the caller's scratch block instead, every run.
#ifndef PLUGRT_CPU_KERNELS_ONEDNN_KEPT_WEIGHTS_H_
#define PLUGRT_CPU_KERNELS_ONEDNN_KEPT_WEIGHTS_H_

#include <memory>
#include <optional>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/kept_copy.h"
#include "cpu/kernels/onednn_util.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu::onednn {

// How to lay out one operand for a primitive: the reorder from the user's
// layout to the primitive's, and what it needs.
struct WeightsLayout {
  dnnl::memory::desc user;       // the tensor as it lies
  dnnl::memory::desc layout;     // the primitive's layout
  dnnl::reorder reorder;         // user -> layout
  dnnl::memory::desc reorder_scratchpad;
};

// One op's kept weights (one copy: the last weights it was run with).
class KeptWeights {
 public:
  // `weights` in `layout.layout`: the kept copy when it is still `weights`'s
  // (KeptCopy); else a new copy, kept when `weights` wraps shared storage,
  // otherwise written into `scratch` (a block from the per-thread pool). The
  // result holds the kept block, so another run may replace it meanwhile.
  // `what` names the kernel in errors.
  // With `scales` (one per output channel, the layout's reorder made with
  // runtime output scales), the copy holds the weights times those scales,
  // and is kept while the scales' values stay the same too.
  StatusOr<std::shared_ptr<void>> Get(const WeightsLayout& layout, const Tensor& weights,
                                      std::optional<Scratchpad>& scratch, const char* what,
                                      const std::vector<float>* scales = nullptr) const;

 private:
  KeptCopy kept_;
};

}  // namespace plugrt::cpu::onednn

#endif  // PLUGRT_CPU_KERNELS_ONEDNN_KEPT_WEIGHTS_H_
