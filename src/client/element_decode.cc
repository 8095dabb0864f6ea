#include "client/element_decode.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "common/element_type.h"

namespace plugrt {
namespace {

template <typename T>
T Load(const std::byte* data, size_t index) {
  T value;
  std::memcpy(&value, data + index * sizeof(T), sizeof(T));
  return value;
}

// How a small float format spends its bit patterns on non-finite values.
enum class Special {
  kIeee,      // all-ones exponent: infinity (mantissa 0) or NaN
  kFiniteNan, // "fn": no infinity; all-ones exponent and mantissa is NaN
  kUnsignedZeroNan,  // "fnuz": no infinity, no -0; the -0 pattern is NaN
  kNone,      // every pattern is finite (f4e2m1fn)
  kExponentOnly,     // f8e8m0fnu: no sign, no mantissa, 0xff is NaN
};

struct SmallFloat {
  int exponent_bits;
  int mantissa_bits;
  int bias;
  Special special;
};

bool Describe(PJRT_Buffer_Type type, SmallFloat& format) {
  switch (type) {
    case PJRT_Buffer_Type_F16: format = {5, 10, 15, Special::kIeee}; return true;
    case PJRT_Buffer_Type_BF16: format = {8, 7, 127, Special::kIeee}; return true;
    case PJRT_Buffer_Type_F8E5M2: format = {5, 2, 15, Special::kIeee}; return true;
    case PJRT_Buffer_Type_F8E4M3: format = {4, 3, 7, Special::kIeee}; return true;
    case PJRT_Buffer_Type_F8E3M4: format = {3, 4, 3, Special::kIeee}; return true;
    case PJRT_Buffer_Type_F8E4M3FN: format = {4, 3, 7, Special::kFiniteNan}; return true;
    case PJRT_Buffer_Type_F8E4M3FNUZ: format = {4, 3, 8, Special::kUnsignedZeroNan}; return true;
    case PJRT_Buffer_Type_F8E5M2FNUZ: format = {5, 2, 16, Special::kUnsignedZeroNan}; return true;
    case PJRT_Buffer_Type_F8E4M3B11FNUZ:
      format = {4, 3, 11, Special::kUnsignedZeroNan};
      return true;
    case PJRT_Buffer_Type_F8E8M0FNU: format = {8, 0, 127, Special::kExponentOnly}; return true;
    case PJRT_Buffer_Type_F4E2M1FN: format = {2, 1, 1, Special::kNone}; return true;
    default: return false;
  }
}

double DecodeSmallFloat(const SmallFloat& f, uint32_t bits) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (f.special == Special::kExponentOnly) {
    if (bits == 0xff) return nan;
    return std::ldexp(1.0, static_cast<int>(bits) - f.bias);
  }
  const int total = 1 + f.exponent_bits + f.mantissa_bits;
  const bool negative = (bits >> (total - 1)) & 1;
  const uint32_t max_exponent = (1u << f.exponent_bits) - 1;
  const uint32_t exponent = (bits >> f.mantissa_bits) & max_exponent;
  const uint32_t mantissa = bits & ((1u << f.mantissa_bits) - 1);
  const uint32_t max_mantissa = (1u << f.mantissa_bits) - 1;
  switch (f.special) {
    case Special::kIeee:
      if (exponent == max_exponent) {
        if (mantissa != 0) return nan;
        return negative ? -std::numeric_limits<double>::infinity()
                        : std::numeric_limits<double>::infinity();
      }
      break;
    case Special::kFiniteNan:
      if (exponent == max_exponent && mantissa == max_mantissa) return nan;
      break;
    case Special::kUnsignedZeroNan:
      if (negative && exponent == 0 && mantissa == 0) return nan;
      break;
    default:
      break;
  }
  double magnitude =
      exponent == 0
          ? std::ldexp(static_cast<double>(mantissa), 1 - f.bias - f.mantissa_bits)
          : std::ldexp(static_cast<double>(mantissa + (1u << f.mantissa_bits)),
                       static_cast<int>(exponent) - f.bias - f.mantissa_bits);
  return negative ? -magnitude : magnitude;
}

}  // namespace

bool IsNarrowFloat(PJRT_Buffer_Type type) {
  SmallFloat format;
  return Describe(type, format);
}

int64_t ReadSigned(PJRT_Buffer_Type type, const std::byte* data, size_t index) {
  switch (HostElementByteSize(type)) {
    case 1: return Load<int8_t>(data, index);
    case 2: return Load<int16_t>(data, index);
    case 4: return Load<int32_t>(data, index);
    default: return Load<int64_t>(data, index);
  }
}

uint64_t ReadUnsigned(PJRT_Buffer_Type type, const std::byte* data, size_t index) {
  switch (HostElementByteSize(type)) {
    case 1: return Load<uint8_t>(data, index);
    case 2: return Load<uint16_t>(data, index);
    case 4: return Load<uint32_t>(data, index);
    default: return Load<uint64_t>(data, index);
  }
}

double ReadFloat(PJRT_Buffer_Type type, const std::byte* data, size_t index) {
  if (type == PJRT_Buffer_Type_F32) return Load<float>(data, index);
  if (type == PJRT_Buffer_Type_F64) return Load<double>(data, index);
  SmallFloat format;
  if (!Describe(type, format)) return std::numeric_limits<double>::quiet_NaN();
  uint32_t bits = HostElementByteSize(type) == 2 ? Load<uint16_t>(data, index)
                                                 : Load<uint8_t>(data, index);
  // Sub-byte floats sit in the low bits of their host byte.
  const int width = ElementBitWidth(type);
  if (width < 32) bits &= (1u << width) - 1;
  return DecodeSmallFloat(format, bits);
}

void ReadComplex(PJRT_Buffer_Type type, const std::byte* data, size_t index, double& re,
                 double& im) {
  if (type == PJRT_Buffer_Type_C64) {
    re = Load<float>(data, 2 * index);
    im = Load<float>(data, 2 * index + 1);
  } else {
    re = Load<double>(data, 2 * index);
    im = Load<double>(data, 2 * index + 1);
  }
}

}  // namespace plugrt
