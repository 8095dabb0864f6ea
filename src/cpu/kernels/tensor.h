// plugrt CPU kernels: Tensor, the runtime value the kernels read and write.
#ifndef PLUGRT_CPU_KERNELS_TENSOR_H_
#define PLUGRT_CPU_KERNELS_TENSOR_H_

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "stablehlo/element_type.h"

namespace plugrt::cpu {

using shlo::ElementType;

// A dense, row-major array in host memory. Copies share storage (cheap);
// kernels never write into a tensor they did not create, except through
// MutableData() on a tensor they own alone.
//
// Storage format, StorageBytes(type) bytes per element, little-endian:
//   i1 -> uint8_t 0/1;  si2/si4/si8 -> int8_t;  ui2/ui4/ui8 -> uint8_t;
//   wider integers -> intN_t/uintN_t;  f8/f6/f4 kinds -> uint8_t bit pattern;
//   f16, bf16 -> uint16_t bit pattern;  f32 -> float;  f64 -> double;
//   complex<f32> -> std::complex<float>;  complex<f64> -> std::complex<double>.
// Sub-byte integers hold their value sign- or zero-extended to the byte.
class Tensor {
 public:
  Tensor() = default;
  // Zero-filled.
  Tensor(ElementType type, std::vector<int64_t> dims);
  // Storage left uninitialized, for kernels that write every element (it
  // saves a pass over memory on large outputs).
  static Tensor Uninitialized(ElementType type, std::vector<int64_t> dims);
  // Wraps existing storage (e.g. a device buffer) without copying; `keepalive`
  // owns it. Such storage is seen outside this tensor and its copies, so it
  // never counts as unique, unless `exclusive` says the caller handed it
  // over whole (a donated input nobody else can see).
  Tensor(ElementType type, std::vector<int64_t> dims, std::shared_ptr<void> keepalive,
         std::byte* data, bool exclusive = false);

  ElementType type() const { return type_; }
  const std::vector<int64_t>& dims() const { return dims_; }
  int64_t rank() const { return static_cast<int64_t>(dims_.size()); }
  int64_t num_elements() const { return num_elements_; }
  size_t byte_size() const;

  const std::byte* data() const { return data_; }
  std::byte* MutableData() { return data_; }
  template <typename T>
  const T* as() const { return reinterpret_cast<const T*>(data_); }
  template <typename T>
  T* mutable_as() { return reinterpret_cast<T*>(data_); }

  // A deep copy with its own storage.
  Tensor Clone() const;
  // Same storage, other dims (same element count).
  Tensor Reshaped(std::vector<int64_t> dims) const;
  // Same storage, seen as shared (WrapsSharedStorage): what a program's
  // constants are handed out as, so that no kernel writes them and copies of
  // them in other layouts may be kept from one run to the next (KeptCopy),
  // as for weights passed as arguments.
  Tensor AsShared() const;

  // True when no other tensor (or device buffer) shares this storage, so a
  // kernel holding the last reference may write its result into it.
  bool HasUniqueStorage() const {
    return !shared_ && storage_ != nullptr && storage_.use_count() == 1;
  }
  // What keeps the storage alive (shared with copies of this tensor).
  const std::shared_ptr<void>& storage() const { return storage_; }
  // True when this tensor wraps storage others may see (a device buffer, a
  // constant) without having been handed it: no kernel writes such storage,
  // so its contents stay as they are for as long as the storage lives, unless
  // a later tensor over it is made `exclusive` (see HandOverGeneration).
  bool WrapsSharedStorage() const { return shared_; }
  // A number that changes whenever a tensor is made over storage handed over
  // `exclusive` (which kernels may then write) that overlaps the `bytes` at
  // `data`; it may also change for hand-overs elsewhere (the count is kept
  // per 1 MiB of address space, folded into a fixed table). A value computed
  // from shared storage (weights in another layout, KeptCopy) stays right
  // while this number stays the same.
  static uint64_t HandOverGeneration(const std::byte* data, size_t bytes);

  // Row-major strides in elements.
  std::vector<int64_t> Strides() const;

 private:
  ElementType type_ = ElementType::kF32;
  std::vector<int64_t> dims_;
  int64_t num_elements_ = 1;
  std::shared_ptr<void> storage_;
  std::byte* data_ = nullptr;
  bool shared_ = false;  // wraps storage others may see (never unique)
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_TENSOR_H_
