#include "stablehlo/op_code.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

namespace plugrt::shlo {
namespace {

constexpr std::string_view kNames[] = {
    "",
#define PLUGRT_SHLO_OP_NAME_(code, name) name,
    PLUGRT_SHLO_OPS(PLUGRT_SHLO_OP_NAME_)
#undef PLUGRT_SHLO_OP_NAME_
};
constexpr size_t kCount = sizeof(kNames) / sizeof(kNames[0]);

// Names sorted once for binary search; parsing is the only caller.
const std::array<std::pair<std::string_view, OpCode>, kCount - 1>& SortedNames() {
  static const auto sorted = [] {
    std::array<std::pair<std::string_view, OpCode>, kCount - 1> table;
    for (size_t i = 1; i < kCount; ++i) table[i - 1] = {kNames[i], static_cast<OpCode>(i)};
    std::sort(table.begin(), table.end());
    return table;
  }();
  return sorted;
}

}  // namespace

OpCode LookupOpCode(std::string_view name) {
  if (name == "return") return OpCode::kFuncReturn;
  if (name == "call") return OpCode::kFuncCall;
  const auto& table = SortedNames();
  auto it = std::lower_bound(table.begin(), table.end(), name,
                             [](const auto& entry, std::string_view key) { return entry.first < key; });
  if (it != table.end() && it->first == name) return it->second;
  return OpCode::kUnknown;
}

std::string_view OpCodeName(OpCode code) {
  size_t index = static_cast<size_t>(code);
  return index < kCount ? kNames[index] : std::string_view();
}

}  // namespace plugrt::shlo
