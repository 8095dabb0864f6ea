#include "compiler/importers/read_options.h"

#include <cerrno>
#include <cstdlib>

namespace plugrt::shlo {

StatusOr<ElidedConstantFill> ElidedConstantFill::Parse(std::string_view spec) {
  ElidedConstantFill fill;
  if (spec == "refuse" || spec.empty()) return fill;
  if (spec == "zeros") {
    fill.mode = Mode::kZeros;
    return fill;
  }
  if (spec == "random") {
    fill.mode = Mode::kRandom;
    return fill;
  }
  if (spec.substr(0, 7) == "random:" && spec.size() > 7) {
    const std::string digits(spec.substr(7));
    char* end = nullptr;
    errno = 0;
    const unsigned long long seed = std::strtoull(digits.c_str(), &end, 10);
    if (errno == 0 && end == digits.c_str() + digits.size() && digits[0] != '-') {
      fill.mode = Mode::kRandom;
      fill.seed = seed;
      return fill;
    }
  }
  return InvalidArgument("elided-constant fill '", spec,
                         "' is not one of refuse, zeros, random, random:SEED");
}

std::string ElidedConstantFill::ToString() const {
  switch (mode) {
    case Mode::kRefuse: return "refuse";
    case Mode::kZeros: return "zeros";
    case Mode::kRandom: return StrCat("random:", seed);
  }
  return "refuse";
}

}  // namespace plugrt::shlo
