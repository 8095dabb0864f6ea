// plugrt CPU kernels: shared helpers of the compute kernels (reductions,
// windows, sort, dot, convolution, fft, linear algebra).
//
// Arithmetic kernels work in a wide "domain" type (double, complex<double>,
// int64_t, uint64_t): operands are converted once into a domain buffer, the
// loops run over plain C++ values, and the result is rounded once into the
// result's element type. This keeps the per-element type switch out of the
// inner loops and gives f16/bf16/f8 a single rounding at the end.
#ifndef PLUGRT_CPU_KERNELS_COMPUTE_COMMON_H_
#define PLUGRT_CPU_KERNELS_COMPUTE_COMMON_H_

#include <complex>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/tensor.h"
#include "stablehlo/float_format.h"

namespace plugrt::cpu {

using Complex = std::complex<double>;

// Every element of `t` converted to D (one of double, Complex, int64_t,
// uint64_t). Integers convert by value (sign-extended for signed kinds);
// complex to real keeps the real part.
template <typename D>
std::vector<D> ToDomain(const Tensor& t);

// A tensor of `type` and `dims` holding `values` rounded/truncated to `type`
// (integers wrap modulo 2^width; i1 is value != 0).
template <typename D>
Tensor FromDomain(ElementType type, std::vector<int64_t> dims, const std::vector<D>& values);

// The domain a result type computes in.
enum class Domain { kReal, kComplex, kSigned, kUnsigned };
Domain DomainOf(ElementType type);

// Rounding applied after every arithmetic step of an accumulation, so a
// wide domain reproduces arithmetic in a narrower type: kNone (the domain's
// own precision), kFloat (IEEE single; exact emulation of float adds and
// multiplies in double), kElement (the element type's own format, e.g.
// bf16, through EncodeFloat/DecodeFloat).
enum class StepRounding { kNone, kFloat, kElement };

// `v` rounded to float. The empty asm makes the compiler keep the rounded
// value: g++ 12 at -O2 otherwise lets its SLP vectorizer fold a pair of
// double->float->double round trips (the real and imaginary parts of a
// complex step) into nothing, so complex<f32> sums came out unrounded.
inline float RoundToFloat(double v) {
  float f = static_cast<float>(v);
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  asm("" : "+x"(f));
#elif defined(__GNUC__) && defined(__aarch64__)
  asm("" : "+w"(f));
#else
  volatile float keep = f;
  f = keep;
#endif
  return f;
}

template <StepRounding R, typename D>
inline D RoundStep(D v, ElementType type) {
  if constexpr (R == StepRounding::kNone || std::is_integral_v<D>) {
    return v;
  } else if constexpr (std::is_same_v<D, Complex>) {
    return Complex(RoundStep<R, double>(v.real(), type), RoundStep<R, double>(v.imag(), type));
  } else if constexpr (R == StepRounding::kFloat) {
    return static_cast<double>(RoundToFloat(v));
  } else {
    ElementType real = shlo::IsComplex(type) ? shlo::ComplexComponent(type) : type;
    return shlo::DecodeFloat(real, shlo::EncodeFloat(real, v));
  }
}

// The rounding that makes arithmetic in `type` exact for real and complex
// floats: kNone for f64/c128 and integers, kFloat for f32/c64, kElement for
// narrower floats.
StepRounding ElementStepRounding(ElementType type);

// A scalar body (reduce, sort comparator, map, select, scatter): rank-0
// tensors in, rank-0 tensors out.
using ScalarBody = std::function<StatusOr<std::vector<Tensor>>(const std::vector<Tensor>&)>;

// A rank-0 tensor holding element `index` of `t` (a byte copy).
Tensor ScalarAt(const Tensor& t, int64_t index);
// Copies the single element of rank-0 `scalar` into element `index` of `t`.
void StoreScalar(const Tensor& scalar, Tensor& t, int64_t index);

// Row-major strides of `dims` in elements.
std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims);
int64_t NumElements(const std::vector<int64_t>& dims);

// Advances a multi-index over `dims` in row-major order; false after the last.
bool NextIndex(std::vector<int64_t>& index, const std::vector<int64_t>& dims);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_COMPUTE_COMMON_H_
