// plugrt compile pass: rewrites programs over uniform quantized types
// (`tensor<4x!quant.uniform<i8:f32, 0.5:-20>>`) into plain StableHLO over
// their storage integers, so the backend compiles them like any program.
//
// What each op becomes (the spec's "Quantization computations"):
//  - uniform_quantize from float: x / scale + zero_point, clamped to the
//    storage range, rounded to nearest even, converted to the storage type;
//    from a quantized type: requantized with the merged scale and zero point.
//  - uniform_dequantize: (stored - zero_point) * scale in the expressed type.
//  - add of per-tensor quantized tensors: both operands requantized to the
//    result's parameters, added as integers (i32), clamped.
//  - data-movement ops (reshape, transpose, gather, slice, pad, concatenate,
//    broadcast_in_dim, select, min/max, ...) whose quantized operands and
//    results share their parameters: the same op on the storage integers.
//  - dot_general / convolution with a float lhs and quantized rhs (hybrid):
//    the rhs dequantized, the op in float.
//  - every other op on quantized tensors: dequantize the operands, the op in
//    the expressed type, quantize the results.
// Function signatures take and return the storage types, so PJRT buffers of
// quantized tensors carry their storage element type.
#ifndef PLUGRT_COMPILER_PASSES_LOWER_QUANTIZED_H_
#define PLUGRT_COMPILER_PASSES_LOWER_QUANTIZED_H_

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::passes {

// True when some value, signature or attribute type of `module` is quantized.
bool HasQuantizedTypes(const shlo::Module& module);

// Rewrites every function of `module` as described above. Errors:
// UNIMPLEMENTED for what it cannot express (a quantized tensor of dynamic
// shape with per-axis parameters, a requantize that moves the quantization
// axis), naming the op and its location.
Status LowerQuantized(shlo::Module& module);

}  // namespace plugrt::passes

#endif  // PLUGRT_COMPILER_PASSES_LOWER_QUANTIZED_H_
