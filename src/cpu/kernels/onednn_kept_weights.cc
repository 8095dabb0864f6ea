#include "cpu/kernels/onednn_kept_weights.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

namespace plugrt::cpu::onednn {

// Bit for bit: a NaN scale (a batch norm over a negative variance) is the
// same NaN from run to run.
bool KeptWeights::SameScales(const std::vector<float>* scales) const {
  if (scales == nullptr) return scales_.empty();
  return scales->size() == scales_.size() &&
         std::memcmp(scales->data(), scales_.data(), scales_.size() * sizeof(float)) == 0;
}

StatusOr<std::shared_ptr<void>> KeptWeights::Get(const WeightsLayout& layout,
                                                 const Tensor& weights,
                                                 std::optional<Scratchpad>& scratch,
                                                 const char* what,
                                                 const std::vector<float>* scales) const {
  const bool keep = weights.WrapsSharedStorage() && weights.storage() != nullptr;
  const uint64_t hand_overs = Tensor::HandOverCount();
  if (keep) {
    std::lock_guard<std::mutex> lock(mu_);
    if (layout_ == &layout && data_ == weights.data() && hand_overs_ == hand_overs &&
        storage_.lock() == weights.storage() &&
        SameScales(scales)) {
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
    std::unordered_map<int, dnnl::memory> args = {
        {DNNL_ARG_FROM, Wrap(layout.user, weights)},
        {DNNL_ARG_TO, dnnl::memory(layout.layout, Engine(), to)},
        {DNNL_ARG_SCRATCHPAD, reorder_scratch.memory()}};
    if (scales != nullptr) {
      const dnnl::memory::desc desc({static_cast<int64_t>(scales->size())},
                                    dnnl::memory::data_type::f32, dnnl::memory::format_tag::x);
      args[DNNL_ARG_ATTR_OUTPUT_SCALES] =
          dnnl::memory(desc, Engine(), const_cast<float*>(scales->data()));
    }
    PLUGRT_RETURN_IF_ERROR(Execute(layout.reorder, args, "weights reorder"));
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
  if (scales != nullptr) {
    scales_ = *scales;
  } else {
    scales_.clear();
  }
  return block;
}

}  // namespace plugrt::cpu::onednn
