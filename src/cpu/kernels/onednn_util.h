// plugrt CPU kernels: what the oneDNN-backed kernels share (the engine, type
// mapping, running a primitive on the calling thread's OpenMP team).
#ifndef PLUGRT_CPU_KERNELS_ONEDNN_UTIL_H_
#define PLUGRT_CPU_KERNELS_ONEDNN_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <dnnl.hpp>
#include <unordered_map>
#include <optional>

#include "common/status.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu::onednn {

// Products (dot_general, convolution) below this many multiply-adds stay on
// the reference kernels: a oneDNN call costs microseconds of set-up that a
// tiny product never wins back.
inline constexpr int64_t kMinMultiplyAdds = 4096;
// The OpenMP team size for a product: one thread per 2^20 multiply-adds, so a
// small product runs on one.
inline int ThreadsForMultiplyAdds(int64_t multiply_adds) {
  return static_cast<int>(std::clamp<int64_t>(multiply_adds >> 20, 1, 1 << 16));
}

// The process-wide CPU engine.
const dnnl::engine& Engine();

// oneDNN's type for `type`, for the types plugrt hands to oneDNN (f32, bf16).
std::optional<dnnl::memory::data_type> DataType(ElementType type);

// Sets the calling thread's OpenMP team size for the next oneDNN call.
void UseThreads(int threads);

// Runs `primitive` with `args` on a stream of the engine; oneDNN errors
// (exceptions in its C++ API) become INTERNAL statuses naming `what`.
Status Execute(const dnnl::primitive& primitive,
               const std::unordered_map<int, dnnl::memory>& args, const char* what);

// Primitive attributes plugrt creates every primitive with: the scratchpad
// is the caller's (Scratchpad below), so oneDNN's per-call temporary memory
// comes from plugrt's block cache instead of fresh pages every run.
dnnl::primitive_attr Attributes();

// Temporary memory of `desc`'s size for one primitive call.
class Scratchpad {
 public:
  explicit Scratchpad(const dnnl::memory::desc& desc);
  ~Scratchpad();
  Scratchpad(const Scratchpad&) = delete;
  Scratchpad& operator=(const Scratchpad&) = delete;
  const dnnl::memory& memory() const { return memory_; }

 private:
  size_t bytes_ = 0;
  void* block_ = nullptr;
  dnnl::memory memory_;
};

// A memory object over tensor storage oneDNN only reads.
inline dnnl::memory Wrap(const dnnl::memory::desc& desc, const Tensor& t) {
  return dnnl::memory(desc, Engine(), const_cast<std::byte*>(t.data()));
}

}  // namespace plugrt::cpu::onednn

#endif  // PLUGRT_CPU_KERNELS_ONEDNN_UTIL_H_
