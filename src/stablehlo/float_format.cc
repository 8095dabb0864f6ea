#include "stablehlo/float_format.h"

#include <bit>
#include <cmath>
#include <limits>

namespace plugrt::shlo {
namespace {

// How a format spends its top bit patterns on non-finite values.
enum class Specials : uint8_t {
  kIeee,       // exponent all ones: inf (mantissa 0) or NaN
  kNanOnlyFn,  // no inf; exponent and mantissa all ones is NaN (both signs)
  kNanOnlyUz,  // no inf, no -0: the pattern of -0 (sign bit alone) is the NaN
  kFinite,     // every pattern is a finite number
  kE8M0,       // unsigned, exponent only; all ones is NaN
};

struct Format {
  int exp_bits;
  int man_bits;
  int bias;
  Specials specials;
};

// Narrow formats only; f32 and f64 go through the hardware.
bool GetFormat(ElementType type, Format* f) {
  switch (type) {
    case ElementType::kF4E2M1FN: *f = {2, 1, 1, Specials::kFinite}; return true;
    case ElementType::kF6E2M3FN: *f = {2, 3, 1, Specials::kFinite}; return true;
    case ElementType::kF6E3M2FN: *f = {3, 2, 3, Specials::kFinite}; return true;
    case ElementType::kF8E3M4: *f = {3, 4, 3, Specials::kIeee}; return true;
    case ElementType::kF8E4M3: *f = {4, 3, 7, Specials::kIeee}; return true;
    case ElementType::kF8E4M3FN: *f = {4, 3, 7, Specials::kNanOnlyFn}; return true;
    case ElementType::kF8E4M3FNUZ: *f = {4, 3, 8, Specials::kNanOnlyUz}; return true;
    case ElementType::kF8E4M3B11FNUZ: *f = {4, 3, 11, Specials::kNanOnlyUz}; return true;
    case ElementType::kF8E5M2: *f = {5, 2, 15, Specials::kIeee}; return true;
    case ElementType::kF8E5M2FNUZ: *f = {5, 2, 16, Specials::kNanOnlyUz}; return true;
    case ElementType::kF8E8M0FNU: *f = {8, 0, 127, Specials::kE8M0}; return true;
    case ElementType::kBF16: *f = {8, 7, 127, Specials::kIeee}; return true;
    case ElementType::kF16: *f = {5, 10, 15, Specials::kIeee}; return true;
    default: return false;
  }
}

// x / 2^shift rounded to nearest, ties to even.
uint64_t ShiftRoundEven(uint64_t x, int shift) {
  if (shift <= 0) return x;
  if (shift >= 64) return 0;  // x < 2^53 here, so the quotient is below one half
  uint64_t q = x >> shift;
  uint64_t rem = x & ((uint64_t{1} << shift) - 1);
  uint64_t half = uint64_t{1} << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) ++q;
  return q;
}

// The largest finite magnitude pattern (sign bit clear).
uint64_t MaxFinite(const Format& f) {
  int bits = f.exp_bits + f.man_bits;
  switch (f.specials) {
    case Specials::kIeee: return ((((uint64_t{1} << f.exp_bits) - 1)) << f.man_bits) - 1;
    case Specials::kNanOnlyFn: return (uint64_t{1} << bits) - 2;
    case Specials::kNanOnlyUz:
    case Specials::kFinite: return (uint64_t{1} << bits) - 1;
    case Specials::kE8M0: return 0xFE;
  }
  return 0;
}

uint64_t NanPattern(const Format& f, bool negative) {
  int bits = f.exp_bits + f.man_bits;
  uint64_t sign = uint64_t{1} << bits;
  switch (f.specials) {
    case Specials::kIeee: {
      // Quiet NaN: exponent all ones, top mantissa bit set.
      uint64_t p = (((uint64_t{1} << f.exp_bits) - 1) << f.man_bits) |
                   (uint64_t{1} << (f.man_bits - 1));
      return negative ? (p | sign) : p;
    }
    case Specials::kNanOnlyFn: {
      uint64_t p = (uint64_t{1} << bits) - 1;
      return negative ? (p | sign) : p;
    }
    case Specials::kNanOnlyUz: return sign;
    case Specials::kFinite: return 0;  // unreachable: callers saturate instead
    case Specials::kE8M0: return 0xFF;
  }
  return 0;
}

// What a value too large for the format becomes (IEEE overflow semantics with
// round-to-nearest: infinity where it exists, else NaN, else the largest
// finite value).
uint64_t OverflowPattern(const Format& f, bool negative) {
  int bits = f.exp_bits + f.man_bits;
  uint64_t sign = negative ? (uint64_t{1} << bits) : 0;
  switch (f.specials) {
    case Specials::kIeee: return sign | (((uint64_t{1} << f.exp_bits) - 1) << f.man_bits);
    case Specials::kNanOnlyFn:
    case Specials::kNanOnlyUz:
    case Specials::kE8M0: return NanPattern(f, negative);
    case Specials::kFinite: return sign | MaxFinite(f);
  }
  return 0;
}

uint64_t EncodeE8M0(const Format& f, double value) {
  if (std::isnan(value) || value < 0) return NanPattern(f, false);
  if (value == 0) return 0;  // no zero: the smallest value, 2^-127, is nearest in spirit
  if (std::isinf(value)) return OverflowPattern(f, false);
  int exp = 0;
  double frac = std::frexp(value, &exp);  // value = frac * 2^exp, frac in [0.5, 1)
  int64_t biased = static_cast<int64_t>(exp) - 1 + f.bias;
  double sig = frac * 2;  // [1, 2)
  // With no mantissa bits the tie goes to the even encoding.
  if (sig > 1.5 || (sig == 1.5 && (biased & 1))) ++biased;
  if (biased < 0) return 0;
  if (biased > 0xFE) return OverflowPattern(f, false);
  return static_cast<uint64_t>(biased);
}

uint64_t EncodeNarrow(const Format& f, double value) {
  if (f.specials == Specials::kE8M0) return EncodeE8M0(f, value);
  const int bits = f.exp_bits + f.man_bits;
  const uint64_t d = std::bit_cast<uint64_t>(value);
  const bool negative = (d >> 63) != 0;
  const uint64_t sign = negative ? (uint64_t{1} << bits) : 0;
  const int dexp = static_cast<int>((d >> 52) & 0x7FF);
  const uint64_t dman = d & ((uint64_t{1} << 52) - 1);

  if (dexp == 0x7FF) {
    if (dman != 0) {  // NaN
      if (f.specials == Specials::kFinite) return sign | MaxFinite(f);
      return NanPattern(f, negative);
    }
    return OverflowPattern(f, negative);  // infinity
  }
  // Zeros, and doubles so small they round to zero in every narrow format.
  if (dexp == 0) return f.specials == Specials::kNanOnlyUz ? 0 : sign;

  const uint64_t sig = (uint64_t{1} << 52) | dman;  // value = sig * 2^(dexp - 1075)
  const int64_t biased = static_cast<int64_t>(dexp) - 1023 + f.bias;
  uint64_t magnitude;
  if (biased >= 1) {
    uint64_t q = ShiftRoundEven(sig, 52 - f.man_bits);
    // A carry out of the mantissa lands in the exponent field, which is what
    // rounding up to the next binade means.
    magnitude = (static_cast<uint64_t>(biased - 1) << f.man_bits) + q;
    if (biased - 1 > (int64_t{1} << f.exp_bits)) return OverflowPattern(f, negative);
  } else {
    // Subnormal: the mantissa counts units of 2^(1 - bias - man_bits).
    int64_t shift = 52 - f.man_bits + (1 - biased);
    magnitude = ShiftRoundEven(sig, shift > 64 ? 64 : static_cast<int>(shift));
  }
  if (magnitude > MaxFinite(f)) return OverflowPattern(f, negative);
  if (magnitude == 0 && f.specials == Specials::kNanOnlyUz) return 0;
  return sign | magnitude;
}

double DecodeNarrow(const Format& f, uint64_t bits_in) {
  const int bits = f.exp_bits + f.man_bits;
  if (f.specials == Specials::kE8M0) {
    uint64_t e = bits_in & 0xFF;
    if (e == 0xFF) return std::numeric_limits<double>::quiet_NaN();
    return std::ldexp(1.0, static_cast<int>(e) - f.bias);
  }
  const uint64_t pattern = bits_in & ((uint64_t{1} << (bits + 1)) - 1);
  const bool negative = (pattern >> bits) != 0;
  const uint64_t magnitude = pattern & ((uint64_t{1} << bits) - 1);
  const uint64_t exp_field = magnitude >> f.man_bits;
  const uint64_t man_field = magnitude & ((uint64_t{1} << f.man_bits) - 1);
  const uint64_t exp_all_ones = (uint64_t{1} << f.exp_bits) - 1;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (f.specials) {
    case Specials::kIeee:
      if (exp_field == exp_all_ones) {
        if (man_field != 0) return negative ? -nan : nan;
        return negative ? -std::numeric_limits<double>::infinity()
                        : std::numeric_limits<double>::infinity();
      }
      break;
    case Specials::kNanOnlyFn:
      if (magnitude == (uint64_t{1} << bits) - 1) return negative ? -nan : nan;
      break;
    case Specials::kNanOnlyUz:
      if (negative && magnitude == 0) return nan;
      break;
    default:
      break;
  }
  double v;
  if (exp_field == 0) {
    v = std::ldexp(static_cast<double>(man_field), 1 - f.bias - f.man_bits);
  } else {
    v = std::ldexp(static_cast<double>(man_field | (uint64_t{1} << f.man_bits)),
                   static_cast<int>(exp_field) - f.bias - f.man_bits);
  }
  return negative ? -v : v;
}

}  // namespace

uint64_t EncodeFloat(ElementType type, double value) {
  if (type == ElementType::kF64) return std::bit_cast<uint64_t>(value);
  if (type == ElementType::kF32) {
    return std::bit_cast<uint32_t>(static_cast<float>(value));
  }
  Format f;
  if (!GetFormat(type, &f)) return 0;
  return EncodeNarrow(f, value);
}

double DecodeFloat(ElementType type, uint64_t bits) {
  if (type == ElementType::kF64) return std::bit_cast<double>(bits);
  if (type == ElementType::kF32) {
    return std::bit_cast<float>(static_cast<uint32_t>(bits));
  }
  Format f;
  if (!GetFormat(type, &f)) return 0.0;
  return DecodeNarrow(f, bits);
}

}  // namespace plugrt::shlo
