// plugrt: the byte writer and bounds-checked reader every serialized format
// uses (the CPU topology, the PLUGRTEX executable envelope, the binary IR of
// compiler/importers/serialize.cc). Fixed-width integers are little-endian; varints
// are LEB128 (signed ones zigzag-coded).
//
// Every reader error is INVALID_ARGUMENT reading
//   "<subject> is corrupt at byte <offset>: <what>"
// with the offset counted from the start of the whole serialized object
// (the reader's `base` plus its position), so a user can find the byte.
#ifndef PLUGRT_COMMON_BYTE_IO_H_
#define PLUGRT_COMMON_BYTE_IO_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace plugrt {

// Appends to a string it does not own.
class ByteWriter {
 public:
  explicit ByteWriter(std::string& out) : out_(out) {}

  void U8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  // The low `bytes` bytes of `v`, least significant first.
  void Fixed(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void U32(uint32_t v) { Fixed(v, 4); }
  void U64(uint64_t v) { Fixed(v, 8); }
  void Varint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void SignedVarint(int64_t v) { Varint(ZigZag(v)); }
  void Bytes(std::string_view bytes) { out_.append(bytes); }
  // A u64 length, then the bytes.
  void LengthPrefixed(std::string_view bytes) {
    U64(bytes.size());
    Bytes(bytes);
  }

  static uint64_t ZigZag(int64_t v) {
    return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  }

 private:
  std::string& out_;
};

// Reads `data` front to back; no read goes past its end.
class ByteReader {
 public:
  // `subject` names the format in errors ("serialized module"); `base` is
  // the offset of data[0] within the whole serialized object.
  ByteReader(std::string_view data, std::string_view subject, size_t base = 0)
      : data_(data), subject_(subject), base_(base) {}

  size_t position() const { return pos_; }
  size_t offset() const { return base_ + pos_; }  // absolute
  size_t left() const { return data_.size() - pos_; }
  bool AtEnd() const { return pos_ == data_.size(); }
  std::string_view data() const { return data_; }

  Status U8(uint8_t* out, std::string_view what) {
    if (left() < 1) return Truncated(what, 1);
    *out = static_cast<uint8_t>(data_[pos_++]);
    return OkStatus();
  }
  Status Fixed(uint64_t* out, int bytes, std::string_view what) {
    if (left() < static_cast<size_t>(bytes)) return Truncated(what, bytes);
    *out = LoadFixed(data_.substr(pos_), bytes);
    pos_ += static_cast<size_t>(bytes);
    return OkStatus();
  }
  Status U32(uint32_t* out, std::string_view what) {
    uint64_t v = 0;
    PLUGRT_RETURN_IF_ERROR(Fixed(&v, 4, what));
    *out = static_cast<uint32_t>(v);
    return OkStatus();
  }
  Status U64(uint64_t* out, std::string_view what) { return Fixed(out, 8, what); }
  Status Varint(uint64_t* out, std::string_view what) {
    uint64_t v = 0;
    const size_t start = pos_;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= data_.size()) return ErrorAt(start, "truncated ", what);
      const uint8_t b = static_cast<uint8_t>(data_[pos_++]);
      // The tenth byte holds only the top bit.
      if (shift == 63 && b > 1) return ErrorAt(start, "varint for ", what, " overflows 64 bits");
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        *out = v;
        return OkStatus();
      }
    }
    return ErrorAt(start, "varint for ", what, " overflows 64 bits");
  }
  Status SignedVarint(int64_t* out, std::string_view what) {
    uint64_t v = 0;
    PLUGRT_RETURN_IF_ERROR(Varint(&v, what));
    *out = static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
    return OkStatus();
  }
  // The next `size` bytes, as a view into the input.
  Status Bytes(uint64_t size, std::string_view* out, std::string_view what) {
    if (size > left()) return Truncated(what, size);
    *out = data_.substr(pos_, static_cast<size_t>(size));
    pos_ += static_cast<size_t>(size);
    return OkStatus();
  }
  // A u64 length, then that many bytes.
  Status LengthPrefixed(std::string_view* out, std::string_view what) {
    uint64_t size = 0;
    PLUGRT_RETURN_IF_ERROR(U64(&size, what));
    return Bytes(size, out, what);
  }
  // A varint count of items that take at least `min_bytes` each, checked
  // against the bytes left so a hostile count cannot allocate unboundedly.
  Status Count(size_t* out, std::string_view what, size_t min_bytes = 1) {
    const size_t start = pos_;
    uint64_t v = 0;
    PLUGRT_RETURN_IF_ERROR(Varint(&v, what));
    if (v > left() / min_bytes) {
      return ErrorAt(start, what, " count ", v, " exceeds what the ", left(),
                     " remaining bytes can hold");
    }
    *out = static_cast<size_t>(v);
    return OkStatus();
  }
  // INVALID_ARGUMENT unless every byte was read.
  Status ExpectEnd(std::string_view after) const {
    if (AtEnd()) return OkStatus();
    return Error(left(), " bytes left over after ", after);
  }

  // "<subject> is corrupt at byte <base + pos>: <pieces>".
  template <typename... Pieces>
  Status ErrorAt(size_t pos, const Pieces&... pieces) const {
    return InvalidArgument(subject_, " is corrupt at byte ", base_ + pos, ": ", pieces...);
  }
  template <typename... Pieces>
  Status Error(const Pieces&... pieces) const {
    return ErrorAt(pos_, pieces...);
  }

  // The `bytes`-byte little-endian integer at the start of `in`, which must
  // hold that many bytes (for fixed headers whose size was checked first).
  static uint64_t LoadFixed(std::string_view in, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) {
      v |= static_cast<uint64_t>(static_cast<unsigned char>(in[i])) << (8 * i);
    }
    return v;
  }

 private:
  Status Truncated(std::string_view what, uint64_t wanted) const {
    return Error("truncated ", what, " (needs ", wanted, " bytes, ", left(), " left)");
  }

  std::string_view data_;
  std::string_view subject_;
  size_t base_;
  size_t pos_ = 0;
};

}  // namespace plugrt

#endif  // PLUGRT_COMMON_BYTE_IO_H_
