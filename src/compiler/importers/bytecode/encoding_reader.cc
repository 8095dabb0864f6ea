#include "compiler/importers/bytecode/encoding_reader.h"

#include <bit>

namespace plugrt::shlo::bytecode {

Status EncodingReader::ReadByte(uint8_t* out) {
  if (empty()) return Error("unexpected end of data");
  *out = static_cast<uint8_t>(data_[pos_++]);
  return OkStatus();
}

Status EncodingReader::ReadBytes(size_t n, std::string_view* out) {
  if (n > remaining()) return Error("needs ", n, " bytes but only ", remaining(), " remain");
  *out = data_.substr(pos_, n);
  pos_ += n;
  return OkStatus();
}

// The low bits of the first byte say how many bytes follow: a '1' after N
// zeros means N more bytes; a zero first byte means 8 more bytes.
Status EncodingReader::ReadVarInt(uint64_t* out) {
  uint8_t first = 0;
  PLUGRT_RETURN_IF_ERROR(ReadByte(&first));
  if (first & 1) {
    *out = first >> 1;
    return OkStatus();
  }
  int extra = first == 0 ? 8 : std::countr_zero(static_cast<unsigned>(first));
  std::string_view rest;
  PLUGRT_RETURN_IF_ERROR(ReadBytes(static_cast<size_t>(extra), &rest));
  uint64_t value = 0;
  for (int i = extra - 1; i >= 0; --i) value = (value << 8) | static_cast<uint8_t>(rest[i]);
  if (first == 0) {
    *out = value;
  } else {
    value = (value << 8) | first;
    *out = value >> (extra + 1);
  }
  return OkStatus();
}

Status EncodingReader::ReadSignedVarInt(int64_t* out) {
  uint64_t v = 0;
  PLUGRT_RETURN_IF_ERROR(ReadVarInt(&v));
  *out = static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
  return OkStatus();
}

Status EncodingReader::ReadVarIntWithFlag(uint64_t* out, bool* flag) {
  PLUGRT_RETURN_IF_ERROR(ReadVarInt(out));
  *flag = (*out & 1) != 0;
  *out >>= 1;
  return OkStatus();
}

Status EncodingReader::ReadNullTerminated(std::string_view* out) {
  size_t end = data_.find('\0', pos_);
  if (end == std::string_view::npos) return Error("string without a terminating NUL");
  *out = data_.substr(pos_, end - pos_);
  pos_ = end + 1;
  return OkStatus();
}

Status EncodingReader::AlignTo(uint64_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment > 4096) {
    return Error("alignment ", alignment, " is not a power of two up to 4096");
  }
  while (offset() % alignment != 0) {
    uint8_t pad = 0;
    PLUGRT_RETURN_IF_ERROR(ReadByte(&pad));
    if (pad != 0xCB) return Error("expected alignment padding byte 0xCB, found ", int{pad});
  }
  return OkStatus();
}

Status EncodingReader::ReadSection(uint8_t* id, std::string_view* contents,
                                   size_t* contents_base) {
  size_t start = offset();
  uint8_t id_and_align = 0;
  uint64_t length = 0;
  PLUGRT_RETURN_IF_ERROR(ReadByte(&id_and_align));
  PLUGRT_RETURN_IF_ERROR(ReadVarInt(&length));
  *id = id_and_align & 0x7F;
  if (*id >= kNumSections) {
    return InvalidArgument("bytecode: at byte ", start, ": unknown section id ",
                           static_cast<int>(*id));
  }
  if (id_and_align & 0x80) {
    uint64_t alignment = 0;
    PLUGRT_RETURN_IF_ERROR(ReadVarInt(&alignment));
    PLUGRT_RETURN_IF_ERROR(AlignTo(alignment));
  }
  if (length > remaining()) {
    return InvalidArgument("bytecode: at byte ", start, ": section ", static_cast<int>(*id),
                           " claims ", length, " bytes but only ", remaining(), " remain");
  }
  *contents_base = offset();
  return ReadBytes(static_cast<size_t>(length), contents);
}

Status EncodingReader::ReadCount(uint64_t* out, size_t min_item_bytes) {
  size_t at = offset();
  PLUGRT_RETURN_IF_ERROR(ReadVarInt(out));
  if (min_item_bytes > 0 && *out > remaining() / min_item_bytes) {
    return InvalidArgument("bytecode: at byte ", at, ": count ", *out,
                           " is larger than the remaining data allows");
  }
  return OkStatus();
}

}  // namespace plugrt::shlo::bytecode
