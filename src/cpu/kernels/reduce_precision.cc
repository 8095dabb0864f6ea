// stablehlo.reduce_precision: rounds floats as if to a format with fewer
// exponent and mantissa bits, keeping the operand's type.
#include <bit>
#include <cmath>
#include <cstdint>

#include "cpu/kernels/element_classes.h"
#include "cpu/kernels/element_traits.h"
#include "cpu/kernels/elementwise.h"

namespace plugrt::cpu {
namespace {

using namespace kernels;  // NOLINT: kernel-internal helpers

// Works on the IEEE bit layout `bits` with `src_exp` exponent and `src_man`
// mantissa bits. Mantissa: round to nearest even at `man` bits. Exponent:
// values above the reduced range become infinity, values at or below its
// smallest normal exponent become zero (the reduced format has no
// subnormals). NaN stays NaN unless no mantissa bits are left (then infinity).
uint64_t ReduceBits(uint64_t bits, int src_exp, int src_man, int exp, int man) {
  const uint64_t sign_mask = uint64_t{1} << (src_exp + src_man);
  const uint64_t exp_mask = ((uint64_t{1} << src_exp) - 1) << src_man;
  const uint64_t man_mask = (uint64_t{1} << src_man) - 1;
  const bool is_nan = (bits & exp_mask) == exp_mask && (bits & man_mask) != 0;
  uint64_t x = bits;
  if (man < src_man) {
    const int drop = src_man - man;
    const uint64_t last_kept = uint64_t{1} << drop;
    const uint64_t bias = ((x & last_kept) >> drop) + (last_kept >> 1) - 1;
    x = (x + bias) & ~(last_kept - 1);
  }
  if (exp < src_exp) {
    const int64_t src_bias = (int64_t{1} << (src_exp - 1)) - 1;
    const int64_t reduced_bias = (int64_t{1} << (exp - 1)) - 1;
    const uint64_t max_exp = static_cast<uint64_t>(src_bias + reduced_bias);
    const uint64_t min_exp = static_cast<uint64_t>(src_bias - reduced_bias);
    const uint64_t x_exp = x & exp_mask;
    const uint64_t signed_zero = x & sign_mask;
    if (x_exp > (max_exp << src_man)) {
      x = signed_zero | exp_mask;
    } else if (x_exp <= (min_exp << src_man)) {
      x = signed_zero;
    }
  }
  if (is_nan) {
    // With no mantissa bits left a NaN cannot be told from infinity.
    return man > 0 ? bits : (bits & sign_mask) | exp_mask;
  }
  return x;
}

struct NarrowLayout {
  int exp;
  int man;
};

constexpr NarrowLayout LayoutOf(ElementType t) {
  switch (t) {
    case ElementType::kF4E2M1FN: return {2, 1};
    case ElementType::kF6E2M3FN: return {2, 3};
    case ElementType::kF6E3M2FN: return {3, 2};
    case ElementType::kF8E3M4: return {3, 4};
    case ElementType::kF8E5M2:
    case ElementType::kF8E5M2FNUZ: return {5, 2};
    case ElementType::kF8E8M0FNU: return {8, 0};
    default: return {4, 3};  // the f8E4M3 family
  }
}

template <ElementType T>
void ReduceLoop(const Tensor& in, int exp, int man, Tensor& out) {
  using TT = Traits<T>;
  const auto* src = in.as<typename TT::Storage>();
  auto* dst = out.mutable_as<typename TT::Storage>();
  const int64_t n = out.num_elements();
  if constexpr (T == ElementType::kF64) {
    for (int64_t i = 0; i < n; ++i) {
      dst[i] = std::bit_cast<double>(ReduceBits(std::bit_cast<uint64_t>(src[i]), 11, 52, exp, man));
    }
  } else if constexpr (T == ElementType::kF32) {
    for (int64_t i = 0; i < n; ++i) {
      dst[i] = std::bit_cast<float>(static_cast<uint32_t>(
          ReduceBits(std::bit_cast<uint32_t>(src[i]), 8, 23, exp, man)));
    }
  } else if constexpr (T == ElementType::kF16) {
    for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<uint16_t>(ReduceBits(src[i], 5, 10, exp, man));
  } else if constexpr (T == ElementType::kBF16) {
    for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<uint16_t>(ReduceBits(src[i], 8, 7, exp, man));
  } else {
    // 8-bit and smaller kinds: exact in double; reduce there, skipping the
    // steps that cannot narrow the type further.
    constexpr NarrowLayout kLayout = LayoutOf(T);
    const int type_exp = kLayout.exp;
    const int type_man = kLayout.man;
    const int e = exp >= type_exp ? 11 : exp;
    const int m = man >= type_man ? 52 : man;
    for (int64_t i = 0; i < n; ++i) {
      double v = TT::Load(src[i]);
      v = std::bit_cast<double>(ReduceBits(std::bit_cast<uint64_t>(v), 11, 52, e, m));
      dst[i] = TT::Store(v);
    }
  }
}

}  // namespace

ReducePrecisionKernel GetReducePrecisionKernel(ElementType type) {
  return DispatchType(type, []<ElementType T>() -> ReducePrecisionKernel {
    if constexpr (IsFloatT(T)) {
      return &ReduceLoop<T>;
    } else {
      return nullptr;
    }
  });
}

}  // namespace plugrt::cpu
