// stablehlo.iota: each element is its index along one dimension.
#include <complex>
#include <vector>

#include "cpu/kernels/element_classes.h"
#include "cpu/kernels/element_traits.h"
#include "cpu/kernels/elementwise.h"

namespace plugrt::cpu {
namespace {

using namespace kernels;  // NOLINT: kernel-internal helpers

template <ElementType T>
void IotaLoop(int64_t dimension, Tensor& out) {
  using TT = Traits<T>;
  using C = typename TT::Compute;
  auto* dst = out.mutable_as<typename TT::Storage>();
  const std::vector<int64_t>& dims = out.dims();
  // Row-major: the index along `dimension` is (i / inner) % size.
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(dimension) + 1; d < dims.size(); ++d) inner *= dims[d];
  const int64_t size = dims[static_cast<size_t>(dimension)];
  const int64_t n = out.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    int64_t index = (i / inner) % size;
    C v;
    if constexpr (kIsComplex<C>) {
      v = C(static_cast<typename C::value_type>(index), 0);
    } else {
      v = static_cast<C>(index);
    }
    dst[i] = TT::Store(v);
  }
}

}  // namespace

IotaKernel GetIotaKernel(ElementType type) {
  return DispatchType(type, []<ElementType T>() -> IotaKernel {
    if constexpr (IsBoolT(T)) {
      return nullptr;
    } else {
      return &IotaLoop<T>;
    }
  });
}

}  // namespace plugrt::cpu
