// plugrt CPU kernels: a copy of an op's weights in another layout, kept from
// one run to the next.
//
// Models pass their weights as arguments whose device buffers nothing writes
// while they live, so a copy in the layout a kernel reads fastest (oneDNN's
// blocked layouts, the skinny product's panels) stays right for as long as it
// comes from the same storage and data and no storage over those bytes has
// been handed over since (Tensor::HandOverGeneration). Remaking it on every
// run would read and write every weight each time. The kept copy costs the
// memory of one more copy of the op's weights.
#ifndef PLUGRT_CPU_KERNELS_KEPT_COPY_H_
#define PLUGRT_CPU_KERNELS_KEPT_COPY_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

// One op's kept copy (one: of the last weights it was run with).
class KeptCopy {
 public:
  // Whether a copy of `weights` may be kept: it wraps shared storage, which
  // no kernel writes.
  static bool Keepable(const Tensor& weights);

  // The copy of `weights` that `layout` (the caller's key for how the copy is
  // laid out) and `extra` (values the copy was computed with besides the
  // weights, compared bit for bit) describe: the kept one when it is still
  // right, otherwise a new block of `bytes` (64-byte aligned) that
  // `fill(void* to)` writes, returning a Status, and kept. Only for Keepable
  // weights. The result holds the block, so another run may replace the kept
  // one meanwhile. `what` names the kernel in errors. A template, so that the
  // common case (the copy is kept) builds no std::function on each run.
  template <typename Fill>
  StatusOr<std::shared_ptr<void>> Get(const Tensor& weights, const void* layout, size_t bytes,
                                      const Fill& fill, const char* what,
                                      std::span<const std::byte> extra = {}) const {
    uint64_t generation = 0;
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<void> kept,
                            Find(weights, layout, extra, what, generation));
    if (kept != nullptr) return kept;
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<void> block, Allocate(bytes, what));
    PLUGRT_RETURN_IF_ERROR(fill(block.get()));
    Keep(weights, layout, extra, generation, block);
    return block;
  }

  // Whether the last call of Seen or Get saw these same weights, unchanged
  // since; if not, this call is remembered (any kept block let go). For a
  // kernel that can also read the weights as they lie: copying them pays
  // only from their second run, and weights rewritten before every run (a
  // donated buffer updated in place) are then never copied.
  bool Seen(const Tensor& weights, const void* layout) const;

 private:
  // The kept block when it is still right for these weights, else null;
  // `generation` is the weights' hand-over generation now.
  StatusOr<std::shared_ptr<void>> Find(const Tensor& weights, const void* layout,
                                       std::span<const std::byte> extra, const char* what,
                                       uint64_t& generation) const;
  static StatusOr<std::shared_ptr<void>> Allocate(size_t bytes, const char* what);
  void Keep(const Tensor& weights, const void* layout, std::span<const std::byte> extra,
            uint64_t generation, std::shared_ptr<void> block) const;
  // Under mu_: whether the remembered weights are these, unchanged (extra
  // aside); and remembering these, with their copy (null: none yet).
  bool SameWeightsLocked(const Tensor& weights, const void* layout, uint64_t generation) const;
  void RememberLocked(const Tensor& weights, const void* layout, std::span<const std::byte> extra,
                      uint64_t generation, std::shared_ptr<void> block) const;

  mutable std::mutex mu_;
  mutable std::weak_ptr<void> storage_;
  mutable const std::byte* data_ = nullptr;
  mutable size_t data_bytes_ = 0;
  mutable const void* layout_ = nullptr;
  mutable uint64_t generation_ = 0;
  mutable std::vector<std::byte> extra_;
  mutable std::shared_ptr<void> block_;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_KEPT_COPY_H_
