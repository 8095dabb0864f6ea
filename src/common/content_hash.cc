// plugrt: the content hash (see content_hash.h).
#include "common/content_hash.h"

namespace plugrt {
namespace {

constexpr uint64_t kFnvPrime = 0x100000001b3ULL;
constexpr uint32_t kFnv32Offset = 2166136261u;
constexpr uint32_t kFnv32Prime = 16777619u;
constexpr uint64_t kLaneBMultiplier = 0x9e3779b97f4a7c15ULL;  // odd: a bijection mod 2^64

uint64_t RotateLeft(uint64_t x, int bits) { return (x << bits) | (x >> (64 - bits)); }

// A bijective 64-bit finaliser: spreads every input bit over the output.
uint64_t Mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

void AppendHex(uint64_t v, std::string& out) {
  static const char kDigits[] = "0123456789abcdef";
  for (int shift = 60; shift >= 0; shift -= 4) out += kDigits[(v >> shift) & 0xf];
}

}  // namespace

void ContentHasher::Update(std::string_view bytes) {
  uint64_t a = lane_a_, b = lane_b_;
  for (char c : bytes) {
    const uint64_t byte = static_cast<unsigned char>(c);
    a = (a ^ byte) * kFnvPrime;
    b = (RotateLeft(b, 23) ^ byte) * kLaneBMultiplier;
  }
  lane_a_ = a;
  lane_b_ = b;
  length_ += bytes.size();
}

void ContentHasher::UpdateU64(uint64_t v) {
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  Update(std::string_view(bytes, sizeof(bytes)));
}

std::string ContentHasher::HexDigest() const {
  const uint64_t high = Mix(lane_a_ ^ Mix(length_));
  const uint64_t low = Mix(lane_b_ + length_ * 0xc2b2ae3d27d4eb4fULL);
  std::string out;
  out.reserve(32);
  AppendHex(high, out);
  AppendHex(low, out);
  return out;
}

uint64_t Checksum64(std::string_view bytes) {
  uint64_t h = kFnv64Offset;
  for (char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * kFnvPrime;
  return h;
}

uint32_t Checksum32(std::string_view bytes) {
  uint32_t h = kFnv32Offset;
  for (char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * kFnv32Prime;
  return h;
}

std::string ContentHash(std::string_view bytes) {
  ContentHasher hasher;
  hasher.Update(bytes);
  return hasher.HexDigest();
}

}  // namespace plugrt
