#include "stablehlo/op_code.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

namespace plugrt::shlo {
namespace {

constexpr size_t kCount = kNumOpCodes;

// Names sorted once for binary search; parsing is the only caller.
const std::array<std::pair<std::string_view, OpCode>, kCount - 1>& SortedNames() {
  static const auto sorted = [] {
    std::array<std::pair<std::string_view, OpCode>, kCount - 1> table;
    for (size_t i = 1; i < kCount; ++i) {
      table[i - 1] = {internal::kOpTraits[i].name, static_cast<OpCode>(i)};
    }
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
  return index < kCount ? internal::kOpTraits[index].name : std::string_view();
}

std::string_view OpGroupName(OpGroup group) {
  switch (group) {
    case OpGroup::kControl: return "control";
    case OpGroup::kElementwise: return "elementwise";
    case OpGroup::kDataMovement: return "data movement";
    case OpGroup::kCompute: return "compute";
    case OpGroup::kCollective: return "collective";
    case OpGroup::kCustomCall: return "custom call";
    case OpGroup::kFeed: return "feed";
    case OpGroup::kHostTransfer: return "host transfer";
    case OpGroup::kHarness: return "conformance harness";
  }
  return "?";
}

}  // namespace plugrt::shlo
