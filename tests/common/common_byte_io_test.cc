// The byte reader/writer of every serialized format (common/byte_io.h) and
// the checksums (common/content_hash.h): round trips, and reads past the end
// refused with the byte offset named.
#include "common/byte_io.h"

#include <gtest/gtest.h>

#include <string>

#include "common/content_hash.h"

namespace plugrt {
namespace {

TEST(ByteIoTest, RoundTripsEveryEncoding) {
  std::string bytes;
  ByteWriter writer(bytes);
  writer.U8(7);
  writer.U32(0xdeadbeef);
  writer.U64(0x0123456789abcdefULL);
  writer.Varint(300);
  writer.SignedVarint(-5);
  writer.Varint(~uint64_t{0});
  writer.LengthPrefixed("hello");
  // Little-endian on every host.
  EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0xef);
  EXPECT_EQ(static_cast<unsigned char>(bytes[4]), 0xde);

  ByteReader reader(bytes, "test blob");
  uint8_t u8 = 0;
  uint32_t u32 = 0;
  uint64_t u64 = 0, varint = 0, big = 0;
  int64_t negative = 0;
  std::string_view text;
  ASSERT_TRUE(reader.U8(&u8, "u8").ok());
  ASSERT_TRUE(reader.U32(&u32, "u32").ok());
  ASSERT_TRUE(reader.U64(&u64, "u64").ok());
  ASSERT_TRUE(reader.Varint(&varint, "varint").ok());
  ASSERT_TRUE(reader.SignedVarint(&negative, "signed").ok());
  ASSERT_TRUE(reader.Varint(&big, "big").ok());
  ASSERT_TRUE(reader.LengthPrefixed(&text, "text").ok());
  EXPECT_EQ(u8, 7);
  EXPECT_EQ(u32, 0xdeadbeefu);
  EXPECT_EQ(u64, 0x0123456789abcdefULL);
  EXPECT_EQ(varint, 300u);
  EXPECT_EQ(negative, -5);
  EXPECT_EQ(big, ~uint64_t{0});
  EXPECT_EQ(text, "hello");
  EXPECT_TRUE(reader.ExpectEnd("the blob").ok());
}

TEST(ByteIoTest, ReadsPastTheEndNameTheOffset) {
  std::string bytes;
  ByteWriter(bytes).U32(1);
  ByteReader reader(std::string_view(bytes).substr(0, 3), "test blob", 100);
  uint32_t value = 0;
  Status status = reader.U32(&value, "version");
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "test blob is corrupt at byte 100: truncated version (needs 4 "
                              "bytes, 3 left)");

  // A length prefix that promises more than there is.
  std::string prefixed;
  ByteWriter(prefixed).U64(1000);
  ByteReader lying(prefixed, "test blob");
  std::string_view text;
  status = lying.LengthPrefixed(&text, "name");
  EXPECT_NE(status.message().find("at byte 8: truncated name (needs 1000 bytes, 0 left)"),
            std::string::npos)
      << status.message();

  // An eleven-byte varint overflows; a count larger than the bytes left is refused.
  const std::string eleven(11, '\xff');
  ByteReader overflow(eleven, "test blob");
  uint64_t v = 0;
  EXPECT_NE(overflow.Varint(&v, "size").message().find("overflows 64 bits"), std::string::npos);
  std::string count;
  ByteWriter(count).Varint(50);
  ByteReader counted(count, "test blob");
  size_t n = 0;
  EXPECT_NE(counted.Count(&n, "item").message().find("item count 50 exceeds"), std::string::npos);

  ByteReader leftover("ab", "test blob");
  uint8_t b = 0;
  ASSERT_TRUE(leftover.U8(&b, "first").ok());
  EXPECT_EQ(leftover.ExpectEnd("the header").message(),
            "test blob is corrupt at byte 1: 1 bytes left over after the header");
}

// The checksums are frozen: serialized files store them. Values of FNV-1a.
TEST(ContentHashTest, ChecksumsKeepTheirValues) {
  EXPECT_EQ(Checksum64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(Checksum64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(Checksum32(""), 2166136261u);
  EXPECT_EQ(Checksum32("a"), 0xe40c292cu);
  EXPECT_NE(ContentHash("a"), ContentHash("b"));
  EXPECT_EQ(ContentHash("abc").size(), 32u);
}

}  // namespace
}  // namespace plugrt
