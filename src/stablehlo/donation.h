// plugrt StableHLO: which entry-function inputs a program lets its caller
// donate, read from their argument attributes.
//
// "tf.aliasing_output = N": the input may be donated and its storage reused
// for output N. "jax.buffer_donor" (true or unit): donated, reused for no
// particular output. The compiler hands this to optimizer plugins; the CPU
// backend plans buffer reuse with it.
#ifndef PLUGRT_STABLEHLO_DONATION_H_
#define PLUGRT_STABLEHLO_DONATION_H_

#include <cstdint>
#include <vector>

#include "stablehlo/ir.h"

namespace plugrt::shlo {

inline constexpr int64_t kDonatedOnly = -1;
inline constexpr int64_t kNotDonated = -2;

// Per entry-function input: the output index it may be donated to,
// kDonatedOnly, or kNotDonated.
std::vector<int64_t> DonatableInputs(const Function& entry);

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_DONATION_H_
