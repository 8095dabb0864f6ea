// plugrt StableHLO: conversions between double and the bit patterns of every
// floating-point element type (f64 down to the 4-bit f4E2M1FN), shared by the
// parser (dense literals) and the CPU kernels (narrow float arithmetic).
#ifndef PLUGRT_STABLEHLO_FLOAT_FORMAT_H_
#define PLUGRT_STABLEHLO_FLOAT_FORMAT_H_

#include <cstdint>

#include "stablehlo/element_type.h"

namespace plugrt::shlo {

// The bit pattern of `value` in float type `type`, rounded to nearest even;
// out-of-range values become infinity, or NaN / the largest finite value for
// formats without infinities, as each format defines. `type` must satisfy
// IsFloat.
uint64_t EncodeFloat(ElementType type, double value);
// The value of bit pattern `bits` of float type `type`.
double DecodeFloat(ElementType type, uint64_t bits);

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_FLOAT_FORMAT_H_
