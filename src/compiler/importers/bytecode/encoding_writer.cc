#include "compiler/importers/bytecode/encoding_writer.h"

namespace plugrt::shlo::bytecode {

void EncodingWriter::WriteVarInt(uint64_t value) {
  // Up to 7 bits in one byte, 14 in two, ... 56 in eight; more takes a
  // zero marker byte and the full 8 bytes.
  for (int extra = 0; extra < 8; ++extra) {
    int payload_bits = 7 * (extra + 1);
    if (payload_bits >= 64 || value < (uint64_t{1} << payload_bits)) {
      uint64_t encoded = (value << (extra + 1)) | (uint64_t{1} << extra);
      for (int i = 0; i <= extra; ++i) WriteByte(static_cast<uint8_t>(encoded >> (8 * i)));
      return;
    }
  }
  WriteByte(0);
  for (int i = 0; i < 8; ++i) WriteByte(static_cast<uint8_t>(value >> (8 * i)));
}

void EncodingWriter::WriteSignedVarInt(int64_t value) {
  uint64_t v = static_cast<uint64_t>(value);
  WriteVarInt((v << 1) ^ static_cast<uint64_t>(value >> 63));
}

}  // namespace plugrt::shlo::bytecode
