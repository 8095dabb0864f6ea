// plugrt CPU kernels: batch normalisation (inference, training, gradient),
// computed in double and rounded once per result.
#ifndef PLUGRT_CPU_KERNELS_BATCH_NORM_H_
#define PLUGRT_CPU_KERNELS_BATCH_NORM_H_

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

// (operand - mean) / sqrt(variance + epsilon) * scale + offset, with the 1-D
// scale/offset/mean/variance indexed by the `feature_index` coordinate.
StatusOr<Tensor> BatchNormInference(const Tensor& operand, const Tensor& scale,
                                    const Tensor& offset, const Tensor& mean,
                                    const Tensor& variance, double epsilon, int64_t feature_index);

// Normalises with the batch's own per-feature mean and (biased) variance;
// returns {output, batch_mean, batch_var}.
StatusOr<std::vector<Tensor>> BatchNormTraining(const Tensor& operand, const Tensor& scale,
                                                const Tensor& offset, double epsilon,
                                                int64_t feature_index);

// Gradients of batch_norm_training: {grad_operand, grad_scale, grad_offset}.
StatusOr<std::vector<Tensor>> BatchNormGrad(const Tensor& operand, const Tensor& scale,
                                            const Tensor& mean, const Tensor& variance,
                                            const Tensor& grad_output, double epsilon,
                                            int64_t feature_index);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_BATCH_NORM_H_
