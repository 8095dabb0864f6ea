// plugrt CPU kernels: fft (FFT, IFFT, RFFT, IRFFT over the trailing dims).
#ifndef PLUGRT_CPU_KERNELS_FFT_H_
#define PLUGRT_CPU_KERNELS_FFT_H_

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

enum class FftType { kFft, kIfft, kRfft, kIrfft };

// The result dims of an fft of `operand_dims` over the trailing
// `fft_length.size()` (1 to 3) dims, with shape checks.
StatusOr<std::vector<int64_t>> FftResultDims(const std::vector<int64_t>& operand_dims,
                                             FftType type, const std::vector<int64_t>& fft_length);

// Computes in complex<double> (O(n log n) for powers of two, a direct DFT
// otherwise) and rounds once into `result_type` (complex for FFT, IFFT and
// RFFT; real for IRFFT). IFFT and IRFFT divide by the transform size.
Tensor Fft(const Tensor& operand, FftType type, const std::vector<int64_t>& fft_length,
           ElementType result_type);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_FFT_H_
