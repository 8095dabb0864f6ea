#include "compiler/passes/dead_code.h"

#include <algorithm>
#include <vector>

#include "compiler/passes/ir_rewrite.h"

namespace plugrt::passes {
namespace {

// Values of the enclosing block that `op` (with its regions) reads.
void Reads(const shlo::Operation& op, std::vector<const shlo::Value*>& out) {
  for (const shlo::Value* v : op.operands) out.push_back(v);
  for (const auto& region : op.regions) {
    for (const auto& block : region->blocks) {
      for (const auto& inner : block->operations) Reads(*inner, out);
    }
  }
}

}  // namespace

bool IsPureOp(const shlo::Operation& op) { return shlo::MayRemove(op.code); }

std::unordered_set<const shlo::Operation*> DeadOps(const shlo::Block& block) {
  std::unordered_set<const shlo::Value*> live;
  std::unordered_set<const shlo::Operation*> dead;
  std::vector<const shlo::Value*> reads;
  for (auto it = block.operations.rbegin(); it != block.operations.rend(); ++it) {
    const shlo::Operation& op = **it;
    bool needed = !IsPureOp(op);
    for (const auto& result : op.results) needed = needed || live.count(result.get()) > 0;
    if (!needed) {
      dead.insert(&op);
      continue;
    }
    reads.clear();
    Reads(op, reads);
    live.insert(reads.begin(), reads.end());
  }
  return dead;
}

bool EliminateDeadCode(shlo::Module& module) {
  bool changed = false;
  for (const auto& function : module.functions) {
    ForEachBlock(*function, [&](shlo::Block& block) {
      const std::unordered_set<const shlo::Operation*> dead = DeadOps(block);
      if (dead.empty()) return;
      changed = true;
      std::erase_if(block.operations, [&](const std::unique_ptr<shlo::Operation>& op) {
        return dead.count(op.get()) > 0;
      });
    });
  }
  return changed;
}

}  // namespace plugrt::passes
