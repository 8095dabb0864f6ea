// plugrt CPU kernels: special and transcendental functions behind the CHLO
// ops (lgamma, digamma, erf_inv, bessel_i1e, polygamma, zeta, the inverse
// and hyperbolic trigonometric functions, ...), reached through
// "plugrt.math.<name>" custom calls.
//
// Scalar functions are evaluated in long double, so that f64 results are
// accurate to about one ulp and narrower types are correctly rounded nearly
// always; the tensor kernels round once to the element type.
#ifndef PLUGRT_CPU_KERNELS_SPECIAL_FUNCTIONS_H_
#define PLUGRT_CPU_KERNELS_SPECIAL_FUNCTIONS_H_

#include <optional>
#include <string_view>

#include "cpu/kernels/tensor.h"
#include "kernels_abi/custom_call_targets.h"

namespace plugrt::cpu {

// Scalar functions (real arguments).
long double Lgamma(long double x);     // log|Gamma(x)|; +inf at poles
long double Digamma(long double x);    // NaN at non-positive integers
long double ErfInv(long double y);     // +-inf at +-1, NaN outside [-1, 1]
long double BesselI1e(long double x);  // exp(-|x|) * I1(x)
long double Zeta(long double x, long double q);       // Hurwitz zeta
long double Polygamma(long double n, long double x);  // n-th derivative of digamma

// The functions of the "plugrt.math.*" targets (kernels_abi/
// custom_call_targets.h names them): polygamma takes (n, x), zeta (x, q),
// mulhi (integers) the high half of the full product of its two operands.
using MathFn = kernels_abi::MathTarget;

// "lgamma" -> kLgamma (the suffix of "plugrt.math.<name>"); nullopt if unknown.
std::optional<MathFn> MathFnFromName(std::string_view name);
std::string_view MathFnName(MathFn fn);
int MathFnArity(MathFn fn);

// out[i] = fn(in0[i] [, in1[i]]) over same-shaped tensors; `out` has the
// operands' element type and shape.
using MathKernel = void (*)(const Tensor* const* operands, Tensor& out);
// The kernel of `fn` for element type `type`, or null if `fn` does not
// take that type.
MathKernel GetMathKernel(MathFn fn, ElementType type);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_SPECIAL_FUNCTIONS_H_
