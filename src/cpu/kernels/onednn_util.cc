#include "cpu/kernels/onednn_util.h"

#include <omp.h>

#include "cpu/kernels/host_memory.h"

namespace plugrt::cpu::onednn {

const dnnl::engine& Engine() {
  static const dnnl::engine* engine = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *engine;
}

std::optional<dnnl::memory::data_type> DataType(ElementType type) {
  switch (type) {
    case ElementType::kF32:
      return dnnl::memory::data_type::f32;
    case ElementType::kBF16:
      return dnnl::memory::data_type::bf16;
    case ElementType::kSI8:
      return dnnl::memory::data_type::s8;
    case ElementType::kUI8:
      return dnnl::memory::data_type::u8;
    case ElementType::kSI32:
      return dnnl::memory::data_type::s32;
    default:
      return std::nullopt;
  }
}

dnnl::primitive_attr Attributes() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

Scratchpad::Scratchpad(const dnnl::memory::desc& desc) : bytes_(desc.get_size()) {
  block_ = bytes_ > 0 ? AllocateHostMemory(bytes_) : nullptr;
  if (bytes_ > 0 && block_ == nullptr) throw AllocationFailure(bytes_);
  memory_ = dnnl::memory(desc, Engine(), block_);
}

Scratchpad::~Scratchpad() { FreeHostMemory(block_, bytes_); }

void UseThreads(int threads) {
  if (omp_get_max_threads() != threads) omp_set_num_threads(threads);
}

Status Execute(const dnnl::primitive& primitive,
               const std::unordered_map<int, dnnl::memory>& args, const char* what) {
  try {
    dnnl::stream stream(Engine());
    primitive.execute(stream, args);
    stream.wait();
  } catch (const dnnl::error& e) {
    return Internal("oneDNN ", what, " failed: ", e.what());
  }
  return OkStatus();
}

}  // namespace plugrt::cpu::onednn
