// plugrt common: lists of paths written as one string, separated by ':'
// (PATH's convention): PLUGRT_KERNEL_PLUGINS, PLUGRT_OPTIMIZER_PLUGINS and
// the create options of the same names.
#ifndef PLUGRT_COMMON_PATH_LIST_H_
#define PLUGRT_COMMON_PATH_LIST_H_

#include <string>
#include <string_view>
#include <vector>

namespace plugrt {

// The non-empty pieces of `text` between ':' separators, in order.
inline std::vector<std::string> SplitPathList(std::string_view text) {
  std::vector<std::string> paths;
  while (!text.empty()) {
    const size_t colon = text.find(':');
    std::string_view piece = text.substr(0, colon);
    if (!piece.empty()) paths.emplace_back(piece);
    if (colon == std::string_view::npos) break;
    text.remove_prefix(colon + 1);
  }
  return paths;
}

}  // namespace plugrt

#endif  // PLUGRT_COMMON_PATH_LIST_H_
