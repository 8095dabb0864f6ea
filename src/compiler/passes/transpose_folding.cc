#include "compiler/passes/transpose_folding.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
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

// A transpose of a dot_general's result that puts the rhs's free dims
// before the lhs's ([batch, lhs free, rhs free] to [batch, rhs free, lhs
// free], each group in order) is the product with its operands swapped: the
// dot is rewritten so, its result given the transpose's type, and the
// transpose's uses read it. Only for a dot the transpose alone reads (else
// the product would be computed twice) and with no `algorithm` attribute.
// JAX's autodiff writes such transposes after every weight gradient.
bool FoldResultTranspose(Operation& transpose, const std::unordered_map<const shlo::Value*, int>& uses,
                         std::vector<std::pair<const shlo::Value*, shlo::Value*>>* replaced) {
  if (transpose.code != OpCode::kTranspose || transpose.operands.size() != 1 ||
      transpose.results.size() != 1) {
    return false;
  }
  Operation* dot = transpose.operands[0]->defining_op;
  if (dot == nullptr || dot->code != OpCode::kDotGeneral || dot->operands.size() != 2 ||
      dot->results.size() != 1 || dot->attribute("algorithm") != nullptr) {
    return false;
  }
  auto use = uses.find(dot->result(0));
  if (use == uses.end() || use->second != 1) return false;
  const shlo::Type& type = dot->result(0)->type;
  if (!type.is_tensor() || type.is_quantized() || !type.has_static_shape()) return false;
  const Attribute* numbers = dot->attribute("dot_dimension_numbers");
  if (numbers == nullptr || numbers->kind != Attribute::Kind::kStruct) return false;
  auto field = [&](const char* name) {
    return OptionalIntList(shlo::FindAttribute(numbers->fields, name));
  };
  std::optional<std::vector<int64_t>> lb = field("lhs_batching_dimensions"),
                                      rb = field("rhs_batching_dimensions"),
                                      lc = field("lhs_contracting_dimensions"),
                                      rc = field("rhs_contracting_dimensions");
  if (!lb || !rb || !lc || !rc) return false;
  const int64_t nb = static_cast<int64_t>(lb->size());
  const int64_t nl = dot->operands[0]->type.rank() - nb - static_cast<int64_t>(lc->size());
  const int64_t nr = dot->operands[1]->type.rank() - nb - static_cast<int64_t>(rc->size());
  std::optional<std::vector<int64_t>> perm = OptionalIntList(transpose.attribute("permutation"));
  if (!perm || nl < 0 || nr < 0 || static_cast<int64_t>(perm->size()) != nb + nl + nr) return false;
  std::vector<int64_t> swapped;
  for (int64_t d = 0; d < nb; ++d) swapped.push_back(d);
  for (int64_t d = 0; d < nr; ++d) swapped.push_back(nb + nl + d);
  for (int64_t d = 0; d < nl; ++d) swapped.push_back(nb + d);
  if (*perm != swapped) return false;
  std::vector<NamedAttribute> fields;
  const std::pair<const char*, const std::vector<int64_t>*> order[] = {
      {"lhs_batching_dimensions", &*rb}, {"rhs_batching_dimensions", &*lb},
      {"lhs_contracting_dimensions", &*rc}, {"rhs_contracting_dimensions", &*lc}};
  for (const auto& [name, list] : order) {
    if (!list->empty()) fields.emplace_back(name, Attribute::DenseI64Array(*list));
  }
  for (NamedAttribute& a : dot->attributes) {
    if (a.first == "dot_dimension_numbers") {
      a.second = Attribute::Struct(numbers->str, std::move(fields));
    } else if (a.first == "precision_config" && a.second.kind == Attribute::Kind::kArray &&
               a.second.elements.size() == 2) {
      std::swap(a.second.elements[0], a.second.elements[1]);
    }
  }
  std::swap(dot->operands[0], dot->operands[1]);
  dot->results[0]->type = transpose.result(0)->type;
  replaced->emplace_back(transpose.result(0), dot->result(0));
  return true;
}

}  // namespace

bool FoldTransposesIntoDots(shlo::Module& module) {
  bool changed = false;
  for (const auto& function : module.functions) {
    // How many ops read each value (a dot whose result has other readers keeps it).
    std::unordered_map<const shlo::Value*, int> uses;
    ForEachBlock(*function, [&](shlo::Block& block) {
      for (const auto& op : block.operations) {
        for (const shlo::Value* operand : op->operands) ++uses[operand];
      }
    });
    std::vector<std::pair<const shlo::Value*, shlo::Value*>> replaced;
    ForEachBlock(*function, [&](shlo::Block& block) {
      for (const auto& op : block.operations) {
        changed = FoldResultTranspose(*op, uses, &replaced) || changed;
        if (op->code != OpCode::kDotGeneral || op->operands.size() != 2) continue;
        for (int side = 0; side < 2; ++side) changed = FoldOperand(*op, side) || changed;
      }
    });
    ReplaceAllUses(*function, replaced);
  }
  return changed;
}

}  // namespace plugrt::passes
