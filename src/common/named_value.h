// plugrt: an owning key/value pair, the C++ form of PJRT_NamedValue used by
// both the client and the SDK (plugin attributes, create options, cost
// analysis).
#ifndef PLUGRT_COMMON_NAMED_VALUE_H_
#define PLUGRT_COMMON_NAMED_VALUE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace plugrt {

using NamedValueData = std::variant<std::string, int64_t, std::vector<int64_t>, float, bool>;

struct NamedValue {
  std::string name;
  NamedValueData value;
};

// The first value called `name`, or nullptr.
const NamedValue* FindNamedValue(const std::vector<NamedValue>& values, std::string_view name);

// "name=value" with lists as [a, b, c] and strings quoted.
std::string NamedValueToString(const NamedValue& value);

}  // namespace plugrt

#endif  // PLUGRT_COMMON_NAMED_VALUE_H_
