#include "compiler/passes/ir_rewrite.h"

#include <unordered_map>

namespace plugrt::passes {
namespace {

void VisitBlock(shlo::Block& block, const std::function<void(shlo::Block&)>& visit) {
  visit(block);
  for (const auto& op : block.operations) {
    for (const auto& region : op->regions) {
      for (const auto& inner : region->blocks) VisitBlock(*inner, visit);
    }
  }
}

}  // namespace

std::string Where(const shlo::Operation& op) { return StrCat(op.location.ToString(), ": ", op.name); }

void ForEachBlock(shlo::Function& function, const std::function<void(shlo::Block&)>& visit) {
  if (function.body == nullptr) return;
  for (const auto& block : function.body->blocks) VisitBlock(*block, visit);
}

void ReplaceAllUses(shlo::Function& function,
                    const std::vector<std::pair<const shlo::Value*, shlo::Value*>>& pairs) {
  if (pairs.empty()) return;
  std::unordered_map<const shlo::Value*, shlo::Value*> replacement(pairs.begin(), pairs.end());
  // A value replaced by one that is itself replaced ends at the last.
  auto resolve = [&](shlo::Value* v) {
    for (auto it = replacement.find(v); it != replacement.end(); it = replacement.find(v)) {
      v = it->second;
    }
    return v;
  };
  ForEachBlock(function, [&](shlo::Block& block) {
    for (const auto& op : block.operations) {
      for (shlo::Value*& operand : op->operands) operand = resolve(operand);
    }
  });
}

void ReplaceAllUses(shlo::Function& function, const shlo::Value* from, shlo::Value* to) {
  ReplaceAllUses(function, {{from, to}});
}

}  // namespace plugrt::passes
