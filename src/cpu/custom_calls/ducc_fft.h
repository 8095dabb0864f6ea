// plugrt CPU custom calls: JAX's older CPU FFT targets, "ducc_fft" and
// "dynamic_ducc_fft", run on the backend's own FFT kernel (kernels/fft.h).
#ifndef PLUGRT_CPU_CUSTOM_CALLS_DUCC_FFT_H_
#define PLUGRT_CPU_CUSTOM_CALLS_DUCC_FFT_H_

#include <memory>
#include <string_view>

#include "cpu/exec/compiled_op.h"

namespace plugrt::cpu {

// jaxlib's conventions (jaxlib/cpu/ducc_fft_kernels.cc):
//  - "ducc_fft": operands (descriptor, x). The descriptor is a u8 tensor
//    holding a DuccFftDescriptor flatbuffer: dtype (complex64/128), fft_type
//    (C2C, C2R, R2C), shape, strides_in, strides_out (in elements), axes,
//    forward, scale. For C2R `shape` is the real result's shape, otherwise
//    the operand's.
//  - "dynamic_ducc_fft": operands (descriptor, x, shape, strides_in,
//    strides_out, scale); the DynamicDuccFftDescriptor gives ndims, dtype,
//    fft_type, axes and forward; shape and strides are 32-bit integer
//    tensors, scale an f64 scalar.
// plugrt runs transforms over trailing, row-major axes (what JAX emits);
// others are UNIMPLEMENTED. The descriptor is read on each execution (it is
// an operand); a malformed one is INVALID_ARGUMENT.
StatusOr<std::unique_ptr<CompiledOp>> CompileDuccFftCall(const shlo::Operation& op,
                                                         std::string_view target,
                                                         const ProgramOptions& /*options*/);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CUSTOM_CALLS_DUCC_FFT_H_
