// plugrt client: reading single elements of host arrays of any PJRT element
// type, for printing and for widening types NumPy lacks. Kinds, widths and
// dtype names come from the element type table (common/element_type.h).
#ifndef PLUGRT_CLIENT_ELEMENT_DECODE_H_
#define PLUGRT_CLIENT_ELEMENT_DECODE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/element_type.h"  // ElementKind, KindOf, NumpyTypeName

namespace plugrt {

// Floats narrower than 32 bits that need decoding (f16, bf16, f8*, f4).
bool IsNarrowFloat(PJRT_Buffer_Type type);

// The value of element `index` of a dense host array (one element per byte
// for sub-byte types, little-endian). Callers pick the one for KindOf(type);
// ReadComplex reads the real part into `re` and the imaginary into `im`.
int64_t ReadSigned(PJRT_Buffer_Type type, const std::byte* data, size_t index);
uint64_t ReadUnsigned(PJRT_Buffer_Type type, const std::byte* data, size_t index);
double ReadFloat(PJRT_Buffer_Type type, const std::byte* data, size_t index);
void ReadComplex(PJRT_Buffer_Type type, const std::byte* data, size_t index, double& re,
                 double& im);

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_ELEMENT_DECODE_H_
