// plugrt eager: what the eager layer knows of each StableHLO op it builds a
// program for: its inputs (single or list), its outputs, its attributes in
// StableHLO's generic syntax, its regions, and its result types.
//
// Result types are needed to write the program text (an entry function's
// results must be static), so each op states them from its inputs and
// attributes. They are a declaration, not a check: the plugin's verifier
// judges the program, and the handles' types are read back from the
// compiled executable.
#ifndef PLUGRT_EAGER_OP_DEF_H_
#define PLUGRT_EAGER_OP_DEF_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "eager/attribute.h"
#include "eager/tensor_type.h"

namespace plugrt::eager {

// Every list input and list output of an op has the length this attribute
// gives (set by the caller, or taken from the first list added).
inline constexpr std::string_view kListLengthAttr = "N";

// select_and_scatter without a loaded `select` function compares operand
// elements with this attribute's direction; by default GE, the first of the
// largest (what max pooling and its gradient want).
inline constexpr std::string_view kSelectDirectionAttr = "select_direction";
inline constexpr std::string_view kDefaultSelectDirection = "GE";

struct InputArg {
  std::string_view name;
  bool list = false;
};

// What the rules of an op see.
struct OpCall {
  std::string_view op;
  const AttrMap& attrs;
  // Per InputArg, in order: one type for a single input, N for a list.
  std::vector<std::vector<TensorType>> inputs;
  AttrReader attr() const { return AttrReader(op, attrs); }
};

struct OpDef {
  std::string_view name;
  std::vector<InputArg> inputs;
  std::string_view output_name;  // "result", or "results" for a list of N
  bool output_list = false;
  std::function<StatusOr<std::vector<TensorType>>(const OpCall&)> result_types;
  // The attribute dictionary's contents ("dimension = 0 : i64"); may be null.
  std::function<StatusOr<std::string>(const OpCall&)> attributes;
  // The regions' texts, each "{ ^bb0(...): ... }"; may be null.
  std::function<StatusOr<std::vector<std::string>>(const OpCall&)> regions;
};

// The device-id op: on a parallel device, a parallel s64 scalar holding each
// component's index; elsewhere 0.
inline constexpr std::string_view kDeviceIdOp = "plugrt.device_id";

// The StableHLO op a program spells `def` with: its name, but for plugrt.*
// ops, which stand for a StableHLO op off a parallel device.
std::string_view SpelledName(const OpDef& def);

// Null when the eager layer has no rule for `name`.
const OpDef* FindOpDef(std::string_view name);
std::vector<std::string_view> OpDefNames();

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_OP_DEF_H_
