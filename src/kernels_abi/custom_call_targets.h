// plugrt custom calls: the names of the targets plugrt itself defines, each
// written once. The CHLO lowering emits these names and the CPU backend
// registers its kernels under the same constants, so the two cannot drift.
//
//  - "plugrt.math.<fn>": special functions the CHLO lowering turns into
//    custom calls (lgamma, erf_inv, zeta, ...), one result of the operands'
//    type and shape.
//  - "plugrt.quantized_dot": a quantized dot_general lowered to its integer
//    product and rescaling in one op (below), which the CPU backend runs as
//    one oneDNN int8 matmul where it can.
// The conformance checks written as custom calls ("check.expect_*") are
// the IR's (stablehlo/check_targets.h): its verifier checks them.
#ifndef PLUGRT_KERNELS_ABI_CUSTOM_CALL_TARGETS_H_
#define PLUGRT_KERNELS_ABI_CUSTOM_CALL_TARGETS_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace plugrt::kernels_abi {

// X(Fn, "fn", arity): the target "plugrt.math.fn" takes `arity` operands.
#define PLUGRT_MATH_TARGETS(X)  \
  X(Acos, "acos", 1)            \
  X(Acosh, "acosh", 1)          \
  X(Asin, "asin", 1)            \
  X(Asinh, "asinh", 1)          \
  X(Atan, "atan", 1)            \
  X(Atanh, "atanh", 1)          \
  X(Cosh, "cosh", 1)            \
  X(Sinh, "sinh", 1)            \
  X(Tan, "tan", 1)              \
  X(BesselI1e, "bessel_i1e", 1) \
  X(Digamma, "digamma", 1)      \
  X(Erf, "erf", 1)              \
  X(Erfc, "erfc", 1)            \
  X(ErfInv, "erf_inv", 1)       \
  X(Lgamma, "lgamma", 1)        \
  X(Polygamma, "polygamma", 2)  \
  X(Zeta, "zeta", 2)            \
  X(Mulhi, "mulhi", 2)

inline constexpr std::string_view kMathTargetPrefix = "plugrt.math.";

enum class MathTarget : uint8_t {
#define PLUGRT_MATH_TARGET_ENUM_(fn, name, arity) k##fn,
  PLUGRT_MATH_TARGETS(PLUGRT_MATH_TARGET_ENUM_)
#undef PLUGRT_MATH_TARGET_ENUM_
};

struct MathTargetInfo {
  MathTarget fn;
  std::string_view name;    // "lgamma": the chlo op's name without "chlo."
  std::string_view target;  // "plugrt.math.lgamma"
  int arity;
};

inline constexpr MathTargetInfo kMathTargets[] = {
#define PLUGRT_MATH_TARGET_INFO_(fn, name, arity) \
  {MathTarget::k##fn, name, "plugrt.math." name, arity},
    PLUGRT_MATH_TARGETS(PLUGRT_MATH_TARGET_INFO_)
#undef PLUGRT_MATH_TARGET_INFO_
};

constexpr const MathTargetInfo& MathTargetOf(MathTarget fn) {
  return kMathTargets[static_cast<size_t>(fn)];
}

// The function called `name` ("lgamma"); nullopt for any other name.
constexpr std::optional<MathTarget> MathTargetNamed(std::string_view name) {
  for (const MathTargetInfo& info : kMathTargets) {
    if (info.name == name) return info.fn;
  }
  return std::nullopt;
}

// "plugrt.quantized_dot"(lhs, rhs) -> result: lhs and rhs hold the storage
// integers of 8-bit quantized operands (lhs s8 or u8, rhs s8), the result the
// storage integers of the quantized result, with the attribute
// "dot_dimension_numbers" of stablehlo.dot_general and these:
//   lhs_zero_point   i64: subtracted from every lhs integer;
//   scales           array of f32 floats: one, or one per index of
//                    scale_dimension of the result;
//   zero_points      i64 array, as many as scales;
//   scale_dimension  i64: the result dimension the scales run along, -1
//                    when there is one scale;
//   storage_min/max  i64: the result's storage range.
// Each result element, at channel c of scale_dimension, is
//   clamp(round_nearest_even(f32(p) * scales[c] + f32(zero_points[c])),
//         storage_min, storage_max)
// where p = sum over the contracted dimensions of (lhs - lhs_zero_point) *
// rhs, an exact integer (i32 for the depths 8-bit products reach), and the
// multiply and add are f32 operations, each rounded once.
inline constexpr std::string_view kQuantizedDotTarget = "plugrt.quantized_dot";
inline constexpr std::string_view kQuantizedDotLhsZeroPoint = "lhs_zero_point";
inline constexpr std::string_view kQuantizedDotScales = "scales";
inline constexpr std::string_view kQuantizedDotZeroPoints = "zero_points";
inline constexpr std::string_view kQuantizedDotScaleDimension = "scale_dimension";
inline constexpr std::string_view kQuantizedDotStorageMin = "storage_min";
inline constexpr std::string_view kQuantizedDotStorageMax = "storage_max";

}  // namespace plugrt::kernels_abi

#endif  // PLUGRT_KERNELS_ABI_CUSTOM_CALL_TARGETS_H_
