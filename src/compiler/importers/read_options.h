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
#include "stablehlo/element_type.h"

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

// The values a fill gives one elided constant, in order: zeros, or seeded
// pseudo-random values (floats uniform in [-1, 1), integers in [0, 8) so
// that they stay valid indices of most gathers, booleans either way).
// `name` (the constant's instruction or resource name) picks the stream, so
// each constant keeps its values however the file is reordered.
class ElidedValues {
 public:
  ElidedValues(const ElidedConstantFill& fill, std::string_view name);
  double NextFloat();
  int64_t NextInt();
  bool NextBool();

 private:
  uint64_t Next();
  bool random_;
  uint64_t state_;
};

// `count` elements of `type` from `values`, as little-endian storage bytes
// (DenseDataFromBytes's input: i1 and sub-byte integers one byte each,
// complex numbers as two parts).
std::string ElidedElementBytes(ElidedValues& values, ElementType type, int64_t count);

struct ReadOptions {
  ElidedConstantFill elided;
};

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_READ_OPTIONS_H_
