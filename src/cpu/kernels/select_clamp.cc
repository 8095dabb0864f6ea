// stablehlo.select and stablehlo.clamp: elementwise choices with optional
// scalar operands.
#include <cstring>

#include "cpu/kernels/element_classes.h"
#include "cpu/kernels/element_traits.h"
#include "cpu/kernels/elementwise.h"
#include "cpu/kernels/min_max.h"

namespace plugrt::cpu {
namespace {

using namespace kernels;  // NOLINT: kernel-internal helpers

// Select only moves bytes, so one loop per element size serves every type.
template <int kBytes>
void SelectLoop(const Tensor& pred, const Tensor& on_true, const Tensor& on_false, Tensor& out) {
  struct Elem {
    unsigned char b[kBytes];
  };
  const auto* p = pred.as<uint8_t>();
  const auto* t = on_true.as<Elem>();
  const auto* f = on_false.as<Elem>();
  auto* dst = out.mutable_as<Elem>();
  const int64_t n = out.num_elements();
  if (pred.rank() == 0 && n > 0) {
    const Elem* src = p[0] ? t : f;
    if (src != dst) std::memcpy(dst, src, static_cast<size_t>(n) * kBytes);  // out may be src
    return;
  }
  for (int64_t i = 0; i < n; ++i) dst[i] = p[i] ? t[i] : f[i];
}

template <ElementType T>
void ClampLoop(const Tensor& lo, const Tensor& x, const Tensor& hi, Tensor& out) {
  using TT = Traits<T>;
  const auto* l = lo.as<typename TT::Storage>();
  const auto* v = x.as<typename TT::Storage>();
  const auto* h = hi.as<typename TT::Storage>();
  auto* dst = out.mutable_as<typename TT::Storage>();
  // A rank-0 bound with a non-scalar operand is broadcast: stride 0.
  const int64_t l_step = lo.rank() == 0 ? 0 : 1;
  const int64_t h_step = hi.rank() == 0 ? 0 : 1;
  const int64_t n = out.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    auto r = MaxOf(TT::Load(v[i]), TT::Load(l[i * l_step]));
    dst[i] = TT::Store(MinOf(r, TT::Load(h[i * h_step])));
  }
}

}  // namespace

void SelectElements(const Tensor& pred, const Tensor& on_true, const Tensor& on_false,
                    Tensor& out) {
  switch (shlo::StorageBytes(out.type())) {
    case 1: SelectLoop<1>(pred, on_true, on_false, out); break;
    case 2: SelectLoop<2>(pred, on_true, on_false, out); break;
    case 4: SelectLoop<4>(pred, on_true, on_false, out); break;
    case 8: SelectLoop<8>(pred, on_true, on_false, out); break;
    case 16: SelectLoop<16>(pred, on_true, on_false, out); break;
    default: break;
  }
}

ClampKernel GetClampKernel(ElementType type) {
  return DispatchType(type, []<ElementType T>() -> ClampKernel { return &ClampLoop<T>; });
}

}  // namespace plugrt::cpu
