#include "cpu/kernels/tensor.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "cpu/kernels/host_memory.h"

namespace plugrt::cpu {
namespace {

// Kernels vectorise best over cache-line aligned storage.
constexpr size_t kAlignment = 64;

int64_t CountElements(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

std::shared_ptr<void> Allocate(size_t bytes, bool zeroed) {
  // Never allocate zero bytes so data() is a valid pointer even when empty.
  size_t rounded = ((bytes == 0 ? 1 : bytes) + kAlignment - 1) / kAlignment * kAlignment;
  void* p = AllocateHostMemory(rounded);
  if (p == nullptr) throw AllocationFailure(rounded);
  if (zeroed) std::memset(p, 0, rounded);
  return std::shared_ptr<void>(p, [rounded](void* q) { FreeHostMemory(q, rounded); });
}

}  // namespace

Tensor::Tensor(ElementType type, std::vector<int64_t> dims)
    : type_(type), dims_(std::move(dims)), num_elements_(CountElements(dims_)) {
  storage_ = Allocate(byte_size(), /*zeroed=*/true);
  data_ = static_cast<std::byte*>(storage_.get());
}

Tensor Tensor::Uninitialized(ElementType type, std::vector<int64_t> dims) {
  Tensor t;
  t.type_ = type;
  t.dims_ = std::move(dims);
  t.num_elements_ = CountElements(t.dims_);
  t.storage_ = Allocate(t.byte_size(), /*zeroed=*/false);
  t.data_ = static_cast<std::byte*>(t.storage_.get());
  return t;
}

namespace {

// Hand-overs counted per 1 MiB of address space, the chunks folded onto a
// table: weights elsewhere than a donated buffer (a decode step's KV cache,
// handed over every run) keep their copies in other layouts.
constexpr int kChunkBits = 20;
constexpr size_t kGenerationSlots = 4096;
std::atomic<uint64_t> hand_over_generations[kGenerationSlots];

// Calls `visit` with each slot the bytes at `data` fall in (each once when
// the range covers the whole table).
template <typename Visit>
void ForEachGenerationSlot(const std::byte* data, size_t bytes, Visit visit) {
  const uintptr_t first = reinterpret_cast<uintptr_t>(data) >> kChunkBits;
  const uintptr_t last =
      (reinterpret_cast<uintptr_t>(data) + (bytes == 0 ? 0 : bytes - 1)) >> kChunkBits;
  const uintptr_t count = std::min<uintptr_t>(last - first + 1, kGenerationSlots);
  for (uintptr_t c = 0; c < count; ++c) visit(hand_over_generations[(first + c) % kGenerationSlots]);
}

}  // namespace

Tensor::Tensor(ElementType type, std::vector<int64_t> dims, std::shared_ptr<void> keepalive,
               std::byte* data, bool exclusive)
    : type_(type),
      dims_(std::move(dims)),
      num_elements_(CountElements(dims_)),
      storage_(std::move(keepalive)),
      data_(data),
      shared_(!exclusive) {
  // Counted before any kernel can write through this tensor.
  if (exclusive) {
    ForEachGenerationSlot(data_, byte_size(), [](std::atomic<uint64_t>& slot) {
      slot.fetch_add(1, std::memory_order_acq_rel);
    });
  }
}

uint64_t Tensor::HandOverGeneration(const std::byte* data, size_t bytes) {
  uint64_t sum = 0;  // each slot only grows, so the sum changes when any does
  ForEachGenerationSlot(data, bytes, [&](const std::atomic<uint64_t>& slot) {
    sum += slot.load(std::memory_order_acquire);
  });
  return sum;
}

size_t Tensor::byte_size() const {
  return static_cast<size_t>(num_elements_) * static_cast<size_t>(shlo::StorageBytes(type_));
}

Tensor Tensor::Clone() const {
  Tensor copy(type_, dims_);
  size_t bytes = byte_size();
  if (bytes != 0 && data_ != nullptr) std::memcpy(copy.data_, data_, bytes);
  return copy;
}

Tensor Tensor::Reshaped(std::vector<int64_t> dims) const {
  Tensor view = *this;
  view.dims_ = std::move(dims);
  // Callers promise the same element count; keep it consistent with dims.
  view.num_elements_ = CountElements(view.dims_);
  return view;
}

Tensor Tensor::AsShared() const {
  Tensor view = *this;
  view.shared_ = true;
  return view;
}

std::vector<int64_t> Tensor::Strides() const {
  std::vector<int64_t> strides(dims_.size(), 1);
  for (int64_t i = static_cast<int64_t>(dims_.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * dims_[i + 1];
  }
  return strides;
}

}  // namespace plugrt::cpu
