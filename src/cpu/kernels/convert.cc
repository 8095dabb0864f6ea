// stablehlo.convert: every element type to every other.
//
// Rather than one loop per (from, to) pair, values pass through a small
// canonical block (int64, uint64, double or complex<double>, whichever holds
// the source exactly): one load loop per source type, one store loop per
// (target, canonical kind).
#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "cpu/kernels/element_classes.h"
#include "cpu/kernels/element_traits.h"
#include "cpu/kernels/elementwise.h"

namespace plugrt::cpu {
namespace {

using namespace kernels;  // NOLINT: kernel-internal helpers

constexpr int64_t kBlock = 256;

enum class Canon : uint8_t { kSigned, kUnsigned, kReal, kComplex };

struct CanonBlock {
  Canon kind;
  int64_t s[kBlock];
  uint64_t u[kBlock];
  double f[kBlock];
  std::complex<double> c[kBlock];
};

constexpr Canon CanonOf(ElementType t) {
  return IsSignedIntT(t) ? Canon::kSigned
         : (IsUnsignedIntT(t) || IsBoolT(t)) ? Canon::kUnsigned
         : IsFloatT(t) ? Canon::kReal
                       : Canon::kComplex;
}

template <ElementType In>
void LoadBlock(const std::byte* base, int64_t start, int64_t count, CanonBlock& block) {
  using TI = Traits<In>;
  const auto* src = reinterpret_cast<const typename TI::Storage*>(base) + start;
  constexpr Canon kKind = CanonOf(In);
  block.kind = kKind;
  for (int64_t i = 0; i < count; ++i) {
    auto v = TI::Load(src[i]);
    if constexpr (kKind == Canon::kSigned) block.s[i] = static_cast<int64_t>(v);
    else if constexpr (kKind == Canon::kUnsigned) block.u[i] = static_cast<uint64_t>(v);
    else if constexpr (kKind == Canon::kReal) block.f[i] = static_cast<double>(v);
    else block.c[i] = static_cast<std::complex<double>>(v);
  }
}

// Float to integer: truncate toward zero; NaN becomes 0 and values outside
// the target's range saturate to its nearest bound.
template <ElementType Out>
typename Traits<Out>::Compute FloatToInt(double v) {
  using C = typename Traits<Out>::Compute;
  constexpr int kBits = Traits<Out>::kBits;
  if (std::isnan(v)) return C(0);
  double t = std::trunc(v);
  if constexpr (IsSignedIntT(Out)) {
    constexpr int64_t kMax = static_cast<int64_t>((uint64_t{1} << (kBits - 1)) - 1);
    constexpr int64_t kMin = -kMax - 1;
    // Both bounds are powers of two in magnitude, so these compares are exact.
    if (t < -std::ldexp(1.0, kBits - 1)) return static_cast<C>(kMin);
    if (t >= std::ldexp(1.0, kBits - 1)) return static_cast<C>(kMax);
    return static_cast<C>(static_cast<int64_t>(t));
  } else {
    const double hi_excl = std::ldexp(1.0, kBits);
    if (t <= 0) return C(0);
    if (t >= hi_excl) return static_cast<C>(~uint64_t{0} >> (64 - kBits));
    return static_cast<C>(static_cast<uint64_t>(t));
  }
}

template <ElementType Out, Canon K>
void StoreLoop(const CanonBlock& block, int64_t count, typename Traits<Out>::Storage* dst) {
  using TO = Traits<Out>;
  using C = typename TO::Compute;
  for (int64_t i = 0; i < count; ++i) {
    C v;
    if constexpr (IsBoolT(Out)) {
      if constexpr (K == Canon::kSigned) v = block.s[i] != 0;
      else if constexpr (K == Canon::kUnsigned) v = block.u[i] != 0;
      else if constexpr (K == Canon::kReal) v = block.f[i] != 0;
      else v = block.c[i].real() != 0;  // like complex -> int: the real part
    } else if constexpr (IsIntT(Out)) {
      // Integer to integer keeps the low bits (two's complement wrap).
      if constexpr (K == Canon::kSigned) v = static_cast<C>(block.s[i]);
      else if constexpr (K == Canon::kUnsigned) v = static_cast<C>(block.u[i]);
      else if constexpr (K == Canon::kReal) v = FloatToInt<Out>(block.f[i]);
      else v = FloatToInt<Out>(block.c[i].real());
    } else if constexpr (IsFloatT(Out)) {
      // Integers go straight to the compute type, so f32 and f64 round once.
      if constexpr (K == Canon::kSigned) v = static_cast<C>(block.s[i]);
      else if constexpr (K == Canon::kUnsigned) v = static_cast<C>(block.u[i]);
      else if constexpr (K == Canon::kReal) v = static_cast<C>(block.f[i]);
      else v = static_cast<C>(block.c[i].real());
    } else {
      using R = typename C::value_type;
      if constexpr (K == Canon::kSigned) v = C(static_cast<R>(block.s[i]), R(0));
      else if constexpr (K == Canon::kUnsigned) v = C(static_cast<R>(block.u[i]), R(0));
      else if constexpr (K == Canon::kReal) v = C(static_cast<R>(block.f[i]), R(0));
      else v = static_cast<C>(block.c[i]);
    }
    dst[i] = TO::Store(v);
  }
}

template <ElementType Out>
void StoreBlock(const CanonBlock& block, std::byte* base, int64_t start, int64_t count) {
  auto* dst = reinterpret_cast<typename Traits<Out>::Storage*>(base) + start;
  switch (block.kind) {
    case Canon::kSigned: StoreLoop<Out, Canon::kSigned>(block, count, dst); break;
    case Canon::kUnsigned: StoreLoop<Out, Canon::kUnsigned>(block, count, dst); break;
    case Canon::kReal: StoreLoop<Out, Canon::kReal>(block, count, dst); break;
    case Canon::kComplex: StoreLoop<Out, Canon::kComplex>(block, count, dst); break;
  }
}

using LoadFn = void (*)(const std::byte*, int64_t, int64_t, CanonBlock&);
using StoreFn = void (*)(const CanonBlock&, std::byte*, int64_t, int64_t);

}  // namespace

void ConvertElements(const Tensor& x, Tensor& out) {
  LoadFn load = DispatchType(x.type(), []<ElementType T>() -> LoadFn { return &LoadBlock<T>; });
  StoreFn store =
      DispatchType(out.type(), []<ElementType T>() -> StoreFn { return &StoreBlock<T>; });
  auto block = std::make_unique<CanonBlock>();
  const int64_t n = out.num_elements();
  for (int64_t start = 0; start < n; start += kBlock) {
    int64_t count = n - start < kBlock ? n - start : kBlock;
    load(x.data(), start, count, *block);
    store(*block, out.MutableData(), start, count);
  }
}

}  // namespace plugrt::cpu
