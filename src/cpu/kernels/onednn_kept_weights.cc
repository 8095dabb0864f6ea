#include "cpu/kernels/onednn_kept_weights.h"

#include <algorithm>
#include <cstdlib>

namespace plugrt::cpu::onednn {

StatusOr<std::shared_ptr<void>> KeptWeights::Get(const WeightsLayout& layout,
                                                 const Tensor& weights,
                                                 std::optional<Scratchpad>& scratch,
                                                 const char* what) const {
  const bool keep = weights.WrapsSharedStorage() && weights.storage() != nullptr;
  const uint64_t hand_overs = Tensor::HandOverCount();
  if (keep) {
    std::lock_guard<std::mutex> lock(mu_);
    if (layout_ == &layout && data_ == weights.data() && hand_overs_ == hand_overs &&
        storage_.lock() == weights.storage()) {
      return block_;
    }
  }
  std::shared_ptr<void> block;
  void* to = nullptr;
  if (keep) {
    const size_t bytes = std::max<size_t>(64, (layout.layout.get_size() + 63) / 64 * 64);
    block.reset(std::aligned_alloc(64, bytes), std::free);
    if (block == nullptr) {
      return ResourceExhausted(what, ": no memory for ", bytes, " bytes of weights");
    }
    to = block.get();
  } else {
    scratch.emplace(layout.layout);
    to = scratch->memory().get_data_handle();
  }
  try {
    const Scratchpad reorder_scratch(layout.reorder_scratchpad);
    PLUGRT_RETURN_IF_ERROR(Execute(layout.reorder,
                                   {{DNNL_ARG_FROM, Wrap(layout.user, weights)},
                                    {DNNL_ARG_TO, dnnl::memory(layout.layout, Engine(), to)},
                                    {DNNL_ARG_SCRATCHPAD, reorder_scratch.memory()}},
                                   "weights reorder"));
  } catch (const dnnl::error& e) {
    return Internal(what, ": weights reorder: ", e.what());
  }
  if (!keep) return std::shared_ptr<void>(std::shared_ptr<void>(), to);  // not owning
  std::lock_guard<std::mutex> lock(mu_);
  storage_ = weights.storage();
  data_ = weights.data();
  layout_ = &layout;
  hand_overs_ = hand_overs;
  block_ = block;
  return block;
}

}  // namespace plugrt::cpu::onednn
