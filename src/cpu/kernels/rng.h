// plugrt CPU kernels: random numbers (rng_bit_generator with XLA's exact
// ThreeFry and Philox streams; rng's uniform and normal distributions).
#ifndef PLUGRT_CPU_KERNELS_RNG_H_
#define PLUGRT_CPU_KERNELS_RNG_H_

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

enum class RngAlgorithm { kDefault, kThreeFry, kPhilox };

struct RngBits {
  Tensor state;
  Tensor bits;
};

// rng_bit_generator: `state` is a ui64 vector (ThreeFry: 2 words, key then
// counter; Philox: 2 or 3 words, key then a 128-bit counter), the output has
// `dims` and integer or float type `type` of 8, 16, 32 or 64 bits (its bit
// pattern filled). kDefault is Philox, as on XLA's CPU backend. The bits
// match XLA's for the same state, algorithm and shape.
StatusOr<RngBits> RngBitGenerator(const Tensor& state, RngAlgorithm algorithm, ElementType type,
                                  const std::vector<int64_t>& dims);

// rng: values of `type` (float or integer; i1 allowed for uniform) with
// `dims`: uniform in [a, b) or normal with mean a and deviation b, from a
// generator seeded by `seed` (the caller advances it per execution).
StatusOr<Tensor> RngUniform(const Tensor& a, const Tensor& b, ElementType type,
                            const std::vector<int64_t>& dims, uint64_t seed);
StatusOr<Tensor> RngNormal(const Tensor& a, const Tensor& b, ElementType type,
                           const std::vector<int64_t>& dims, uint64_t seed);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_KERNELS_RNG_H_
