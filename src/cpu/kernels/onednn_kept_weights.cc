#include "cpu/kernels/onednn_kept_weights.h"

#include <span>
#include <unordered_map>

namespace plugrt::cpu::onednn {
namespace {

// The reorder of `weights` into `to`, in `layout.layout`, times `scales`.
Status Reorder(const WeightsLayout& layout, const Tensor& weights, void* to, const char* what,
               const std::vector<float>* scales) {
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
    return Execute(layout.reorder, args, "weights reorder");
  } catch (const dnnl::error& e) {
    return Internal(what, ": weights reorder: ", e.what());
  }
}

}  // namespace

StatusOr<std::shared_ptr<void>> KeptWeights::Get(const WeightsLayout& layout,
                                                 const Tensor& weights,
                                                 std::optional<Scratchpad>& scratch,
                                                 const char* what,
                                                 const std::vector<float>* scales) const {
  if (!KeptCopy::Keepable(weights)) {
    scratch.emplace(layout.layout);
    void* to = scratch->memory().get_data_handle();
    PLUGRT_RETURN_IF_ERROR(Reorder(layout, weights, to, what, scales));
    return std::shared_ptr<void>(std::shared_ptr<void>(), to);  // not owning
  }
  // Bit for bit: a NaN scale (a batch norm over a negative variance) is the
  // same NaN from run to run.
  std::span<const std::byte> extra;
  if (scales != nullptr) extra = std::as_bytes(std::span<const float>(*scales));
  return kept_.Get(
      weights, &layout, layout.layout.get_size(),
      [&](void* to) { return Reorder(layout, weights, to, what, scales); }, what, extra);
}

}  // namespace plugrt::cpu::onednn
