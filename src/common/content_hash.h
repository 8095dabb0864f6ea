// plugrt: the one home of hashing: the 64- and 32-bit checksums that
// serialized formats store (FNV-1a; frozen, since changing them would change
// every format's bytes), and a 128-bit content hash for fingerprints
// (executable fingerprints, cache keys) whose first lane is the same FNV-1a.
// No other file hashes bytes by hand.
//
// All are defined on bytes alone, with fixed seeds and a fixed byte order,
// so the same input gives the same digest in every process, build and
// platform. A fingerprint, not a cryptographic hash: it spots accidental
// differences, not deliberate collisions.
//
// Update() calls concatenate: Update("ab"); Update("c") equals
// Update("abc"). Callers hashing several fields frame them (e.g. UpdateU64
// of each field's length first) so that field boundaries count.
#ifndef PLUGRT_COMMON_CONTENT_HASH_H_
#define PLUGRT_COMMON_CONTENT_HASH_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace plugrt {

inline constexpr uint64_t kFnv64Offset = 0xcbf29ce484222325ULL;

class ContentHasher {
 public:
  void Update(std::string_view bytes);
  // The 8 bytes of `v`, least significant first.
  void UpdateU64(uint64_t v);
  // 32 lowercase hex chars of the bytes so far; hashing may continue after.
  std::string HexDigest() const;

 private:
  // Two independent byte-wise lanes (FNV-1a and a rotate-multiply one) and
  // the length; the digest finalises each lane with the length.
  uint64_t lane_a_ = kFnv64Offset;
  uint64_t lane_b_ = 0x6a09e667f3bcc908ULL;
  uint64_t length_ = 0;
};

// The digest of `bytes` alone.
std::string ContentHash(std::string_view bytes);

// FNV-1a 64 of `bytes`: the checksum of the binary IR (compiler/importers/serialize.h)
// and of the PLUGRTEX executable envelope.
uint64_t Checksum64(std::string_view bytes);
// FNV-1a 32 of `bytes`: the checksum of a serialized CPU topology.
uint32_t Checksum32(std::string_view bytes);

}  // namespace plugrt

#endif  // PLUGRT_COMMON_CONTENT_HASH_H_
