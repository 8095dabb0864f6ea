// plugrt StableHLO bytecode: writing the primitives of MLIR's bytecode
// format (prefix varints, zigzag signed varints, NUL-terminated strings,
// sections): the inverse of encoding_reader.h.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_ENCODING_WRITER_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_ENCODING_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace plugrt::shlo::bytecode {

class EncodingWriter {
 public:
  void WriteByte(uint8_t b) { out_.push_back(static_cast<char>(b)); }
  void WriteBytes(std::string_view bytes) { out_.append(bytes); }
  // The first byte's low bits say how many bytes follow (a '1' after N
  // zeros: N more bytes; a zero byte: 8 more bytes), the value follows
  // little-endian.
  void WriteVarInt(uint64_t value);
  void WriteSignedVarInt(int64_t value);  // zigzag
  void WriteVarIntWithFlag(uint64_t value, bool flag) {
    WriteVarInt((value << 1) | (flag ? 1 : 0));
  }
  void WriteNullTerminated(std::string_view s) {
    out_.append(s);
    out_.push_back('\0');
  }
  // A section: id, length, contents (never aligned).
  void WriteSection(uint8_t id, std::string_view contents) {
    WriteByte(id);
    WriteVarInt(contents.size());
    WriteBytes(contents);
  }

  const std::string& bytes() const { return out_; }
  std::string Take() { return std::move(out_); }
  size_t size() const { return out_.size(); }

 private:
  std::string out_;
};

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_ENCODING_WRITER_H_
