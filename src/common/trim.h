// plugrt common: a view of text without its leading and trailing white
// space (what std::isspace calls space).
#ifndef PLUGRT_COMMON_TRIM_H_
#define PLUGRT_COMMON_TRIM_H_

#include <cctype>
#include <string_view>

namespace plugrt {

inline std::string_view TrimSpace(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace plugrt

#endif  // PLUGRT_COMMON_TRIM_H_
