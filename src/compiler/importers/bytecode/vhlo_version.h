// plugrt StableHLO bytecode: StableHLO versions (X.Y.Z) as VHLO uses them:
// the range plugrt reads and writes, and the MLIR bytecode format version a
// portable artifact for a given StableHLO version is written in.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_VHLO_VERSION_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_VHLO_VERSION_H_

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace plugrt::shlo::bytecode {

struct VhloVersion {
  int major = 0, minor = 0, patch = 0;
  friend auto operator<=>(const VhloVersion&, const VhloVersion&) = default;
  std::string ToString() const;
};

// The oldest and newest StableHLO versions plugrt reads and writes; the
// newest is the one plugrt announces (`stablehlo_current_version`).
inline constexpr VhloVersion kMinVhloVersion{0, 9, 0};
inline constexpr VhloVersion kCurrentVhloVersion{1, 20, 0};
// Upper bound of op/attribute/type versions that are still current.
inline constexpr VhloVersion kStillCurrent{99, 0, 0};

// "1.20.0" -> {1, 20, 0}; INVALID_ARGUMENT for other spellings and for
// versions outside [kMinVhloVersion, kCurrentVhloVersion].
StatusOr<VhloVersion> ParseVhloVersion(std::string_view text);

// The MLIR bytecode format version StableHLO writes artifacts for `v` in
// (older releases read only older formats): 0 before 0.10.0, 1 before
// 0.12.0, 3 before 0.14.0, 4 for 0.14.x, 6 from 0.15.0 on.
uint64_t BytecodeVersionFor(VhloVersion v);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_VHLO_VERSION_H_
