// plugrt CPU kernels: elementwise math over Tensors.
//
// Each Get*Kernel picks, once, the loop instantiated for an element type; a
// null result means the op does not accept that type (the caller reports it).
// Kernels write into `out`, which the caller allocates with the result type
// and shape; operands have the result's shape unless noted.
#ifndef PLUGRT_CPU_KERNELS_ELEMENTWISE_H_
#define PLUGRT_CPU_KERNELS_ELEMENTWISE_H_

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

enum class UnaryOpKind : uint8_t {
  kAbs, kCbrt, kCeil, kCosine, kCountLeadingZeros, kExponential, kExponentialMinusOne,
  kFloor, kImag, kIsFinite, kLog, kLogPlusOne, kLogistic, kNegate, kNot, kPopcnt, kReal,
  kRoundNearestAfz, kRoundNearestEven, kRsqrt, kSign, kSine, kSqrt, kTan, kTanh,
};

enum class BinaryOpKind : uint8_t {
  kAdd, kAnd, kAtan2, kComplex, kDivide, kMaximum, kMinimum, kMultiply, kOr, kPower,
  kRemainder, kShiftLeft, kShiftRightArithmetic, kShiftRightLogical, kSubtract, kXor,
};

enum class CompareDirection : uint8_t { kEq, kNe, kGe, kGt, kLe, kLt };
// kDefault: FLOAT for floats and complex, SIGNED/UNSIGNED per integer type.
enum class CompareType : uint8_t { kDefault, kFloat, kTotalOrder, kSigned, kUnsigned };

using UnaryKernel = void (*)(const Tensor& x, Tensor& out);
using BinaryKernel = void (*)(const Tensor& x, const Tensor& y, Tensor& out);

// The element type of unary op `op`'s result for operand type `type`
// (abs/real/imag of complex give the component type, is_finite gives i1).
ElementType UnaryResultType(UnaryOpKind op, ElementType type);
UnaryKernel GetUnaryKernel(UnaryOpKind op, ElementType type);

// kComplex takes the component type and writes the complex type; the others
// write the operand type.
BinaryKernel GetBinaryKernel(BinaryOpKind op, ElementType type);

// Writes i1. Null when `compare_type` does not fit `type`.
BinaryKernel GetCompareKernel(CompareDirection direction, CompareType compare_type,
                              ElementType type);

// Elementwise convert from x's type to out's type (every pair).
void ConvertElements(const Tensor& x, Tensor& out);

// Reinterprets bits; out's shape follows the spec (an extra or dropped
// trailing dimension when widths differ). Fails on shapes that do not fit.
Status BitcastConvertElements(const Tensor& x, Tensor& out);

// Rounds each float to `exponent_bits` / `mantissa_bits` and back.
// Null for non-float types.
using ReducePrecisionKernel = void (*)(const Tensor& x, int exponent_bits, int mantissa_bits,
                                       Tensor& out);
ReducePrecisionKernel GetReducePrecisionKernel(ElementType type);

// out[i] = pred[i] ? on_true[i] : on_false[i]; `pred` (i1) may be rank 0.
void SelectElements(const Tensor& pred, const Tensor& on_true, const Tensor& on_false,
                    Tensor& out);

// out[i] = min(max(x[i], lo), hi); lo and hi may each be rank 0.
using ClampKernel = void (*)(const Tensor& lo, const Tensor& x, const Tensor& hi, Tensor& out);
ClampKernel GetClampKernel(ElementType type);

// out[index] = index[dimension], in out's type. Null for i1.
using IotaKernel = void (*)(int64_t dimension, Tensor& out);
IotaKernel GetIotaKernel(ElementType type);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_ELEMENTWISE_H_
