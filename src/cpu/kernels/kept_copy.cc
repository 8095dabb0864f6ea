#include "cpu/kernels/kept_copy.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "cpu/kernels/host_memory.h"

namespace plugrt::cpu {

bool KeptCopy::Keepable(const Tensor& weights) {
  return weights.WrapsSharedStorage() && weights.storage() != nullptr;
}

StatusOr<std::shared_ptr<void>> KeptCopy::Find(const Tensor& weights, const void* layout,
                                               std::span<const std::byte> extra, const char* what,
                                               uint64_t& generation) const {
  if (!Keepable(weights)) {
    return Internal(what, ": a copy of weights that do not wrap shared storage cannot be kept");
  }
  generation = Tensor::HandOverGeneration(weights.data(), weights.byte_size());
  std::lock_guard<std::mutex> lock(mu_);
  if (SameWeightsLocked(weights, layout, generation) && extra.size() == extra_.size() &&
      (extra.empty() || std::memcmp(extra.data(), extra_.data(), extra.size()) == 0)) {
    return block_;
  }
  return std::shared_ptr<void>();
}

bool KeptCopy::Seen(const Tensor& weights, const void* layout) const {
  if (!Keepable(weights)) return false;
  const uint64_t generation = Tensor::HandOverGeneration(weights.data(), weights.byte_size());
  std::lock_guard<std::mutex> lock(mu_);
  if (SameWeightsLocked(weights, layout, generation)) return true;
  RememberLocked(weights, layout, {}, generation, nullptr);
  return false;
}

bool KeptCopy::SameWeightsLocked(const Tensor& weights, const void* layout,
                                 uint64_t generation) const {
  return layout_ == layout && data_ == weights.data() && data_bytes_ == weights.byte_size() &&
         generation_ == generation && storage_.lock() == weights.storage();
}

void KeptCopy::RememberLocked(const Tensor& weights, const void* layout,
                              std::span<const std::byte> extra, uint64_t generation,
                              std::shared_ptr<void> block) const {
  storage_ = weights.storage();
  data_ = weights.data();
  data_bytes_ = weights.byte_size();
  layout_ = layout;
  generation_ = generation;
  extra_.assign(extra.begin(), extra.end());
  block_ = std::move(block);
}

StatusOr<std::shared_ptr<void>> KeptCopy::Allocate(size_t bytes, const char* what) {
  // From the host memory pool: large blocks come in huge pages (a fresh
  // 4 KiB page faults on first touch, and its TLB entry covers 512 times
  // less of a weight that every run streams through).
  const size_t rounded = std::max<size_t>(kHostAlignment, bytes);
  std::shared_ptr<void> block(AllocateHostMemory(rounded),
                              [rounded](void* p) { FreeHostMemory(p, rounded); });
  if (block == nullptr) {
    return ResourceExhausted(what, ": no memory for ", rounded, " bytes of weights");
  }
  return block;
}

void KeptCopy::Keep(const Tensor& weights, const void* layout, std::span<const std::byte> extra,
                    uint64_t generation, std::shared_ptr<void> block) const {
  std::lock_guard<std::mutex> lock(mu_);
  RememberLocked(weights, layout, extra, generation, std::move(block));
}

}  // namespace plugrt::cpu
