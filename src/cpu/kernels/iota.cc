// stablehlo.iota: each element is its index along one dimension.
#include <algorithm>
#include <complex>
#include <cstring>
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
  using S = typename TT::Storage;
  S* dst = out.mutable_as<S>();
  const std::vector<int64_t>& dims = out.dims();
  // Row-major: the result is `outer` copies of one block of `size` runs of
  // `inner` equal elements (run k holds k). The first block is written
  // element by element and copied to the others: no division per element.
  int64_t inner = 1, outer = 1;
  for (size_t d = static_cast<size_t>(dimension) + 1; d < dims.size(); ++d) inner *= dims[d];
  for (size_t d = 0; d < static_cast<size_t>(dimension); ++d) outer *= dims[d];
  const int64_t size = dims[static_cast<size_t>(dimension)];
  const int64_t block = size * inner;
  if (block == 0 || outer == 0) return;
  for (int64_t k = 0; k < size; ++k) {
    C v;
    if constexpr (kIsComplex<C>) {
      v = C(static_cast<typename C::value_type>(k), 0);
    } else {
      v = static_cast<C>(k);
    }
    const S stored = TT::Store(v);
    std::fill_n(dst + k * inner, inner, stored);
  }
  for (int64_t o = 1; o < outer; ++o) {
    std::memcpy(dst + o * block, dst, static_cast<size_t>(block) * sizeof(S));
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
