// plugrt StableHLO bytecode: reading the primitives of MLIR's bytecode format
// (prefix varints, zigzag signed varints, sections) with every length checked
// against the bytes that remain. Errors name the byte offset in the file.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_ENCODING_READER_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_ENCODING_READER_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/status.h"

namespace plugrt::shlo::bytecode {

// The section kinds of the format (upstream "MLIR Bytecode Format").
enum SectionId : uint8_t {
  kStringSection = 0,
  kDialectSection = 1,
  kAttrTypeSection = 2,
  kAttrTypeOffsetSection = 3,
  kIrSection = 4,
  kResourceSection = 5,
  kResourceOffsetSection = 6,
  kDialectVersionsSection = 7,
  kPropertiesSection = 8,
  kNumSections = 9,
};

// A view of part of the file; `base` is the offset of data[0] in the file.
class EncodingReader {
 public:
  EncodingReader(std::string_view data, size_t base) : data_(data), base_(base) {}

  bool empty() const { return pos_ == data_.size(); }
  size_t remaining() const { return data_.size() - pos_; }
  // Offset of the next byte in the whole file.
  size_t offset() const { return base_ + pos_; }

  template <typename... Args>
  Status Error(const Args&... args) const {
    return InvalidArgument("bytecode: at byte ", offset(), ": ", args...);
  }

  Status ReadByte(uint8_t* out);
  Status ReadBytes(size_t n, std::string_view* out);
  Status ReadVarInt(uint64_t* out);
  Status ReadSignedVarInt(int64_t* out);
  // (value << 1) | flag.
  Status ReadVarIntWithFlag(uint64_t* out, bool* flag);
  Status ReadNullTerminated(std::string_view* out);
  // Skips the 0xCB padding bytes up to the next multiple of `alignment`
  // (a power of two up to 4096) from the start of the file, which the
  // writer placed at an aligned address.
  Status AlignTo(uint64_t alignment);
  // A section header and its contents; `contents` starts at *contents_base.
  Status ReadSection(uint8_t* id, std::string_view* contents, size_t* contents_base);
  // A varint count that must not exceed the remaining bytes (each item
  // takes at least `min_item_bytes`): bounds every allocation by the input.
  Status ReadCount(uint64_t* out, size_t min_item_bytes = 1);

 private:
  std::string_view data_;
  size_t base_ = 0;
  size_t pos_ = 0;
};

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_ENCODING_READER_H_
