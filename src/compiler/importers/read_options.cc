#include "compiler/importers/read_options.h"

#include <cerrno>
#include <cstdlib>

#include "stablehlo/float_format.h"

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

ElidedValues::ElidedValues(const ElidedConstantFill& fill, std::string_view name)
    : random_(fill.mode == ElidedConstantFill::Mode::kRandom) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a of the name
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  state_ = fill.seed * 0x2545F4914F6CDD1Dull + h;
}

uint64_t ElidedValues::Next() {  // splitmix64
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double ElidedValues::NextFloat() {
  if (!random_) return 0.0;
  return static_cast<double>(Next() >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

int64_t ElidedValues::NextInt() { return random_ ? static_cast<int64_t>(Next() % 8) : 0; }

bool ElidedValues::NextBool() { return random_ && (Next() & 1) != 0; }

std::string ElidedElementBytes(ElidedValues& values, ElementType type, int64_t count) {
  const bool complex = IsComplex(type);
  const ElementType part = complex ? ComplexComponent(type) : type;
  const int parts = complex ? 2 : 1;
  const int part_bytes = StorageBytes(type) / parts;
  std::string out;
  out.reserve(static_cast<size_t>(count) * StorageBytes(type));
  for (int64_t i = 0; i < count * parts; ++i) {
    uint64_t bits = 0;
    if (IsFloat(part)) {
      bits = EncodeFloat(part, values.NextFloat());
    } else if (part == ElementType::kI1) {
      bits = values.NextBool() ? 1 : 0;
    } else {
      bits = static_cast<uint64_t>(values.NextInt());
    }
    for (int b = 0; b < part_bytes; ++b) out.push_back(static_cast<char>((bits >> (8 * b)) & 0xff));
  }
  return out;
}

}  // namespace plugrt::shlo
