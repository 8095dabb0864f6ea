// plugrt StableHLO: a compile-time estimate of what running a module once
// costs, for PJRT_Executable_GetCostAnalysis ("flops", "transcendentals",
// "bytes accessed"). Read from the IR alone: shapes, attributes and the
// literal constants of loop counters; nothing is executed.
//
// Which rule applies to an op is its cost class in the op table
// (stablehlo/op_code.h, OpCost); kFormula ops have a formula each below.
//
// Counting rules. "Elements" of a value are the product of its dims, a '?'
// dim counting as 1; tuples sum their elements' counts; tokens count 0.
//
// flops (per output element unless stated):
//  - elementwise arithmetic, logic, comparison, select, clamp, rounding,
//    bit counting, is_finite, reduce_precision: 1. On complex values: add,
//    subtract, negate and the rest 2, multiply 6, divide 11.
//  - power on integers: 1 (repeated multiplication, not a transcendental).
//  - rng, rng_bit_generator: 1.
//  - dot / dot_general: 2*M*N*K per batch (K: contracting size; M, N: the
//    free dims of each side); complex operands x4.
//  - convolution / dynamic_conv: 2 * output elements * kernel spatial size *
//    kernel input features (the input features of one group); complex x4.
//  - einsum / unary_einsum: 2 * output elements * product of the summed
//    labels' sizes.
//  - fft: 5 N log2 N per transform (N: product of fft_length).
//  - cholesky: n^3/3 per matrix; triangular_solve: n^2 * m per system
//    (a: n x n, b: n x m or m x n).
//  - batch_norm_inference 4, batch_norm_training 7, batch_norm_grad 12 per
//    operand element, plus 1 transcendental (the rsqrt) per feature.
//  - data movement, conversions, constants, iota, collectives, custom calls
//    other than plugrt.math.*, and unknown ops: 0.
// transcendentals: exponential, exponential_minus_one, log, log_plus_one,
//   logistic, tanh, sine, cosine, tan, atan2, power (floats), sqrt, rsqrt,
//   cbrt, custom calls "plugrt.math.*" and the special-function chlo ops
//   (unlowered modules): 1 per output element, and no flops.
// Ops with regions:
//  - func.call / composite: the callee's cost (each function costed once;
//    a recursive call counts 0).
//  - if / case: the most expensive branch (most flops + transcendentals,
//    then most bytes).
//  - while: (cond + body) x trip count. The trip count is read when the loop
//    has the usual counter: an integer scalar started from a constant,
//    compared LT/LE/GT/GE/NE against a constant in cond and returned by the
//    body as itself plus or minus a constant; otherwise 1.
//  - reduce (per input element), reduce_window (per output element x window
//    size), scatter (per update element), select_and_scatter (select per
//    source element x window size, scatter per source element), sort
//    (n log2 n comparisons per sorted row), map (per output element),
//    all_reduce / reduce_scatter (per operand element): the region's flops
//    and transcendentals per application; its scalar temporaries add no
//    bytes.
//  - other ops with regions: each region once.
// bytes accessed: for each op, the bytes of its operands plus its results
//   (elements x BitWidth rounded up to whole bytes). Constants (materialised
//   at compile time), terminators and control flow themselves (call, if,
//   case, while, tuple, get_tuple_element, optimization_barrier) add none;
//   their regions count as above.
// Ops with unsupported types count 0 for all three; quantized values count
// their storage bytes.
#ifndef PLUGRT_COMPILER_PASSES_COST_ANALYSIS_H_
#define PLUGRT_COMPILER_PASSES_COST_ANALYSIS_H_

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

struct CostEstimate {
  double flops = 0;
  double transcendentals = 0;
  double bytes_accessed = 0;
};

// Cost of running the module's entry function (Module::EntryFunction) once.
// Values are finite and non-negative (saturating at the largest double).
// Errors: INVALID_ARGUMENT when there is no entry function, a call names no
// function of the module, calls nest too deeply, or a costed op's attributes
// are malformed (location and op named).
StatusOr<CostEstimate> EstimateCost(const Module& module);
// The same for one function of `module` (e.g. each test function of a file
// without an entry function).
StatusOr<CostEstimate> EstimateFunctionCost(const Module& module, const Function& function);
// The same for one op of `module` (its regions and callees included): what
// the profiler attaches to the kernel that runs it.
StatusOr<CostEstimate> EstimateOpCost(const Module& module, const Operation& op);
// The bytes of a value of `type`, as counted above.
double TypeBytes(const Type& type);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_PASSES_COST_ANALYSIS_H_
