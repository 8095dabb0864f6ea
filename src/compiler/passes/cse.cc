#include "compiler/passes/cse.h"

#include <functional>
#include <unordered_map>
#include <vector>

#include "compiler/passes/ir_rewrite.h"

namespace plugrt::passes {
namespace {

bool Candidate(const shlo::Operation& op) {
  return shlo::MayRemove(op.code) && op.regions.empty() && !op.results.empty() &&
         !shlo::IsTerminator(op.code);
}

// Hashes what is cheap to hash (name, operands, result count); equality
// below compares attributes and types in full. A commutative op's operands
// (the op table's OpForm::kCommutative) hash in any order, so add(a, b) and
// add(b, a) meet.
size_t Hash(const shlo::Operation& op) {
  size_t h = std::hash<std::string>()(op.name);
  const bool commutative = shlo::IsCommutative(op.code);
  size_t operands = 0;
  for (const shlo::Value* v : op.operands) {
    const size_t hv = std::hash<const void*>()(v);
    operands = commutative ? operands + hv : operands * 31 + hv;
  }
  return (h * 31 + operands) * 31 + op.results.size();
}

bool SameOperands(const shlo::Operation& a, const shlo::Operation& b) {
  if (a.operands == b.operands) return true;
  return shlo::IsCommutative(a.code) && a.operands.size() == 2 && b.operands.size() == 2 &&
         a.operands[0] == b.operands[1] && a.operands[1] == b.operands[0];
}

bool Same(const shlo::Operation& a, const shlo::Operation& b) {
  if (a.name != b.name || !SameOperands(a, b) || a.results.size() != b.results.size() ||
      a.attributes.size() != b.attributes.size()) {
    return false;
  }
  for (size_t i = 0; i < a.results.size(); ++i) {
    if (!(a.results[i]->type == b.results[i]->type)) return false;
  }
  // Attribute order is the order written; equal programs print them alike.
  for (size_t i = 0; i < a.attributes.size(); ++i) {
    if (a.attributes[i].first != b.attributes[i].first ||
        !(a.attributes[i].second == b.attributes[i].second)) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool EliminateCommonSubexpressions(shlo::Module& module) {
  bool changed = false;
  for (const auto& function : module.functions) {
    std::vector<std::pair<const shlo::Value*, shlo::Value*>> replaced;
    ForEachBlock(*function, [&](shlo::Block& block) {
      std::unordered_multimap<size_t, shlo::Operation*> seen;
      // Operands are compared as pointers: replacements made earlier in
      // this block must be visible to later ops before they are hashed.
      std::unordered_map<const shlo::Value*, shlo::Value*> now;
      for (const auto& op_ptr : block.operations) {
        shlo::Operation& op = *op_ptr;
        for (shlo::Value*& operand : op.operands) {
          if (auto it = now.find(operand); it != now.end()) operand = it->second;
        }
        if (!Candidate(op)) continue;
        const size_t hash = Hash(op);
        shlo::Operation* earlier = nullptr;
        for (auto [it, end] = seen.equal_range(hash); it != end; ++it) {
          if (Same(*it->second, op)) {
            earlier = it->second;
            break;
          }
        }
        if (earlier == nullptr) {
          seen.emplace(hash, &op);
          continue;
        }
        for (size_t i = 0; i < op.results.size(); ++i) {
          now[op.result(i)] = earlier->result(i);
          replaced.emplace_back(op.result(i), earlier->result(i));
        }
        changed = true;
      }
    });
    // Uses in nested regions and in later blocks.
    ReplaceAllUses(*function, replaced);
  }
  return changed;
}

}  // namespace plugrt::passes
