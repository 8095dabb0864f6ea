#include "compiler/passes/transpose_folding.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "compiler/passes/ir_rewrite.h"

namespace plugrt::passes {
namespace {

using shlo::Attribute;
using shlo::NamedAttribute;
using shlo::OpCode;
using shlo::Operation;

// Folds operand `side` (0: lhs, 1: rhs) of `dot` when it is a transpose;
// true when it did.
bool FoldOperand(Operation& dot, int side) {
  Operation* transpose = dot.operands[side]->defining_op;
  if (transpose == nullptr || transpose->code != OpCode::kTranspose ||
      transpose->operands.size() != 1) {
    return false;
  }
  const Attribute* numbers = dot.attribute("dot_dimension_numbers");
  if (numbers == nullptr || numbers->kind != Attribute::Kind::kStruct) return false;
  std::optional<std::vector<int64_t>> perm = OptionalIntList(transpose->attribute("permutation"));
  const std::string prefix = side == 0 ? "lhs_" : "rhs_";
  std::optional<std::vector<int64_t>> batch =
      OptionalIntList(shlo::FindAttribute(numbers->fields, prefix + "batching_dimensions"));
  std::optional<std::vector<int64_t>> contract =
      OptionalIntList(shlo::FindAttribute(numbers->fields, prefix + "contracting_dimensions"));
  const int64_t rank = dot.operands[side]->type.rank();
  if (!perm || !batch || !contract || static_cast<int64_t>(perm->size()) != rank) return false;
  auto valid = [&](const std::vector<int64_t>& dims) {
    return std::all_of(dims.begin(), dims.end(), [&](int64_t d) { return d >= 0 && d < rank; });
  };
  if (!valid(*perm) || !valid(*batch) || !valid(*contract)) return false;
  // The free dimensions, in order, must stay in order through the permutation.
  int64_t last = -1;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::count(batch->begin(), batch->end(), d) || std::count(contract->begin(), contract->end(), d)) {
      continue;
    }
    if ((*perm)[d] < last) return false;
    last = (*perm)[d];
  }
  for (int64_t& d : *batch) d = (*perm)[d];
  for (int64_t& d : *contract) d = (*perm)[d];
  // The fields in StableHLO's order, empty lists left out as it prints them.
  std::vector<NamedAttribute> fields;
  for (const char* name : {"lhs_batching_dimensions", "rhs_batching_dimensions",
                           "lhs_contracting_dimensions", "rhs_contracting_dimensions"}) {
    const std::string field = name;
    std::optional<std::vector<int64_t>> list =
        field == prefix + "batching_dimensions"      ? batch
        : field == prefix + "contracting_dimensions" ? contract
                                                     : OptionalIntList(shlo::FindAttribute(numbers->fields, field));
    if (!list) return false;
    if (!list->empty()) fields.emplace_back(field, Attribute::DenseI64Array(*list));
  }
  Attribute folded = Attribute::Struct(numbers->str, std::move(fields));
  for (NamedAttribute& a : dot.attributes) {
    if (a.first == "dot_dimension_numbers") a.second = std::move(folded);
  }
  dot.operands[side] = transpose->operands[0];
  return true;
}

}  // namespace

bool FoldTransposesIntoDots(shlo::Module& module) {
  bool changed = false;
  for (const auto& function : module.functions) {
    ForEachBlock(*function, [&](shlo::Block& block) {
      for (const auto& op : block.operations) {
        if (op->code != OpCode::kDotGeneral || op->operands.size() != 2) continue;
        for (int side = 0; side < 2; ++side) changed = FoldOperand(*op, side) || changed;
      }
    });
  }
  return changed;
}

}  // namespace plugrt::passes
