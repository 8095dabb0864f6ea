// plugrt StableHLO: a versioned binary form of an IR module, so serialized
// executables load without re-parsing MLIR text.
//
// Layout (all fixed-width integers little-endian):
//   offset  0  8 bytes  magic "PLUGRTIR"
//   offset  8  u32      format version (kModuleFormatVersion)
//   offset 12  u64      payload length N
//   offset 20  N bytes  payload
//   offset 20+N u64     Checksum64 (common/content_hash.h) of the payload
// The hash is checked before decoding, so a flipped byte reads as corruption.
//
// Payload: unsigned integers are LEB128 varints, signed ones zigzag varints,
// doubles their 8 raw bytes. It starts with a string table (count, then each
// string as length + bytes); every later string (op, attribute, value and
// function names, file names, element types by MLIR spelling, string
// attributes) is an index into it. Then the module: name, attributes,
// location, functions. Ops store their name (the op code is looked up on
// load, never stored), location, operands, attributes, regions, then results
// (type + value name). Operands are indices into a per-function table of
// values in definition order (block arguments, op results); a region's values
// leave the table when the region ends, so an operand can only name a value
// defined earlier in its own or an enclosing scope. An operand the writer
// cannot resolve that way (broken IR) is written as "unresolved" and fails
// to load. Attributes store their kind and a bit mask of the fields that are
// set; dense literal data shared between attributes is stored once.
//
// Loading checks every index, count, kind and length against the bytes that
// remain, bounds nesting depth and the total size of copied strings, and
// checks the invariants the parser guarantees (dense data matching its
// tensor type, regions with at least one block, a function's entry block
// arguments matching its input types), so hostile bytes give an error, never
// a crash or unbounded allocation.
#ifndef PLUGRT_COMPILER_IMPORTERS_SERIALIZE_H_
#define PLUGRT_COMPILER_IMPORTERS_SERIALIZE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// Bumped whenever the payload encoding changes; loaders accept only their own.
inline constexpr uint32_t kModuleFormatVersion = 2;  // 2: source locations

// Bytes that DeserializeModule turns back into an equal module: every
// function, attribute, type, dense literal, region, block argument, value
// name and location. Deterministic: equal modules give equal bytes.
std::string SerializeModule(const Module& module);

// INVALID_ARGUMENT naming what is wrong and at which byte offset for
// truncated, corrupted or foreign bytes, and naming both versions for a
// format version mismatch.
StatusOr<std::unique_ptr<Module>> DeserializeModule(std::string_view bytes);

namespace internal {

inline constexpr size_t kModuleHeaderSize = 20;   // magic, version, length
inline constexpr size_t kModuleTrailerSize = 8;   // payload hash

// Decodes a payload alone, without header or hash (for tests and fuzzing of
// the structural checks). Error offsets are counted from `base_offset`.
StatusOr<std::unique_ptr<Module>> DecodeModulePayload(std::string_view payload,
                                                      size_t base_offset = kModuleHeaderSize);

}  // namespace internal

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_SERIALIZE_H_
