// plugrt compiler: how the importers treat programs whose large constants
// were left out of the file.
//
// Tools that print programs for people leave big constants out: XLA writes
// `constant({...})` in HLO text, MLIR writes `dense_resource<__elided__>`.
// Such a program cannot compute its real results, so by default it is
// refused with an error that says the weights are missing. For timing alone
// the user may ask (compile option override kElidedConstantsOverride, the
// CLI's --fill-elided) that the missing data be filled with zeros or with
// seeded random values.
#ifndef PLUGRT_COMPILER_IMPORTERS_READ_OPTIONS_H_
#define PLUGRT_COMPILER_IMPORTERS_READ_OPTIONS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace plugrt::shlo {

struct ElidedConstantFill {
  enum class Mode { kRefuse, kZeros, kRandom };
  Mode mode = Mode::kRefuse;
  uint64_t seed = 0;  // kRandom: the same seed gives the same values

  // "refuse", "zeros", "random" or "random:SEED"; INVALID_ARGUMENT naming
  // the accepted spellings otherwise.
  static StatusOr<ElidedConstantFill> Parse(std::string_view spec);
  std::string ToString() const;
};

struct ReadOptions {
  ElidedConstantFill elided;
};

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_READ_OPTIONS_H_
