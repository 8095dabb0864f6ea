// stablehlo.bitcast_convert: reinterprets the bits of each element, splitting
// or joining elements (lowest bits first) when the widths differ.
#include <cstring>

#include "cpu/kernels/elementwise.h"

namespace plugrt::cpu {
namespace {

using shlo::ElementType;

// Element `i` of `t` as its `bits` low bits (a sub-byte element's storage byte
// holds it extended; only the low bits belong to it).
uint8_t SubByteBits(const Tensor& t, int64_t i, int bits) {
  return static_cast<uint8_t>(t.as<uint8_t>()[i] & ((1u << bits) - 1));
}

// Extends the low `bits` of `v` to a storage byte for element type `type`.
uint8_t ExtendSubByte(uint8_t v, int bits, ElementType type) {
  uint8_t mask = static_cast<uint8_t>((1u << bits) - 1);
  v &= mask;
  if (shlo::IsSignedInteger(type) && (v & (1u << (bits - 1)))) v |= static_cast<uint8_t>(~mask);
  return v;
}

}  // namespace

Status BitcastConvertElements(const Tensor& x, Tensor& out) {
  const int in_bits = shlo::BitWidth(x.type());
  const int out_bits = shlo::BitWidth(out.type());
  if (x.num_elements() * in_bits != out.num_elements() * out_bits) {
    return InvalidArgument("bitcast_convert: ", x.num_elements(), " elements of ", in_bits,
                           " bits cannot fill ", out.num_elements(), " elements of ", out_bits,
                           " bits");
  }
  const bool in_bytes = in_bits % 8 == 0;
  const bool out_bytes = out_bits % 8 == 0;
  if (in_bytes && out_bytes) {
    // Storage is exactly the little-endian bits: a plain copy.
    if (out.byte_size() != 0) std::memcpy(out.MutableData(), x.data(), out.byte_size());
    return OkStatus();
  }
  // At least one side is narrower than a byte: stream bits, lowest first.
  const int64_t total_bits = x.num_elements() * in_bits;
  std::vector<uint8_t> packed(static_cast<size_t>((total_bits + 7) / 8), 0);
  if (in_bytes) {
    std::memcpy(packed.data(), x.data(), packed.size());
  } else {
    for (int64_t i = 0; i < x.num_elements(); ++i) {
      uint8_t v = SubByteBits(x, i, in_bits);
      for (int b = 0; b < in_bits; ++b) {
        int64_t bit = i * in_bits + b;
        if (v & (1u << b)) packed[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
      }
    }
  }
  if (out_bytes) {
    std::memcpy(out.MutableData(), packed.data(), packed.size());
  } else {
    auto* dst = out.mutable_as<uint8_t>();
    for (int64_t i = 0; i < out.num_elements(); ++i) {
      uint8_t v = 0;
      for (int b = 0; b < out_bits; ++b) {
        int64_t bit = i * out_bits + b;
        if (packed[bit / 8] & (1u << (bit % 8))) v |= static_cast<uint8_t>(1u << b);
      }
      dst[i] = ExtendSubByte(v, out_bits, out.type());
    }
  }
  return OkStatus();
}

}  // namespace plugrt::cpu
