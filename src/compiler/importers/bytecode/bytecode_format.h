// plugrt: MLIR bytecode format facts shared by the reader (container.cc) and
// the writer (container_writer.cc): the format versions that introduced a
// feature, and the bits of an op's encoding mask.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_BYTECODE_FORMAT_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_BYTECODE_FORMAT_H_

#include <cstdint>

namespace plugrt::shlo::bytecode {

// Newest bytecode format version plugrt reads and writes (MLIR's kVersion as
// of the StableHLO releases it supports).
inline constexpr uint64_t kMaxBytecodeVersion = 6;
inline constexpr uint64_t kVersionDialectVersioning = 1;
inline constexpr uint64_t kVersionLazyLoading = 2;
inline constexpr uint64_t kVersionUseListOrdering = 3;
inline constexpr uint64_t kVersionElideBlockArgLoc = 4;
inline constexpr uint64_t kVersionNativeProperties = 5;

// Op encoding mask bits.
inline constexpr uint8_t kHasAttrs = 0x01;
inline constexpr uint8_t kHasResults = 0x02;
inline constexpr uint8_t kHasOperands = 0x04;
inline constexpr uint8_t kHasSuccessors = 0x08;
inline constexpr uint8_t kHasInlineRegions = 0x10;
inline constexpr uint8_t kHasUseListOrders = 0x20;
inline constexpr uint8_t kHasProperties = 0x40;

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_BYTECODE_FORMAT_H_
