#include "cpu/exec/simplify.h"

#include <unordered_set>
#include <vector>

namespace plugrt::cpu {

using shlo::OpCode;

bool IsPureOp(const shlo::Operation& op) { return shlo::MayRemove(op.code); }

bool IsFoldable(const shlo::Operation& op) {
  if (op.code == OpCode::kConstant || !shlo::MayFold(op.code) || op.results.empty()) {
    return false;
  }
  int64_t elements = 0;
  for (const auto& result : op.results) {
    const shlo::Type& type = result->type;
    if (!type.is_tensor() || !type.has_static_shape()) return false;
    elements += type.num_elements();
  }
  return elements <= kMaxFoldedElements;
}

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

}  // namespace plugrt::cpu
