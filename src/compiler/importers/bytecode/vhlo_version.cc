#include "compiler/importers/bytecode/vhlo_version.h"

#include <charconv>

namespace plugrt::shlo::bytecode {

std::string VhloVersion::ToString() const { return StrCat(major, ".", minor, ".", patch); }

StatusOr<VhloVersion> ParseVhloVersion(std::string_view text) {
  VhloVersion v;
  int* parts[] = {&v.major, &v.minor, &v.patch};
  std::string_view rest = text;
  for (int i = 0; i < 3; ++i) {
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), *parts[i]);
    size_t used = static_cast<size_t>(end - rest.data());
    if (ec != std::errc() || used == 0 || *parts[i] < 0) {
      return InvalidArgument("'", text, "' is not a StableHLO version X.Y.Z");
    }
    rest.remove_prefix(used);
    if (i < 2) {
      if (rest.empty() || rest[0] != '.') {
        return InvalidArgument("'", text, "' is not a StableHLO version X.Y.Z");
      }
      rest.remove_prefix(1);
    }
  }
  if (!rest.empty()) return InvalidArgument("'", text, "' is not a StableHLO version X.Y.Z");
  if (v < kMinVhloVersion || v > kCurrentVhloVersion) {
    return InvalidArgument("StableHLO version ", v.ToString(), " is outside the versions plugrt ",
                           "writes (", kMinVhloVersion.ToString(), " to ",
                           kCurrentVhloVersion.ToString(), ")");
  }
  return v;
}

uint64_t BytecodeVersionFor(VhloVersion v) {
  if (v < VhloVersion{0, 10, 0}) return 0;
  if (v < VhloVersion{0, 12, 0}) return 1;
  if (v < VhloVersion{0, 14, 0}) return 3;
  if (v < VhloVersion{0, 15, 0}) return 4;
  return 6;
}

}  // namespace plugrt::shlo::bytecode
