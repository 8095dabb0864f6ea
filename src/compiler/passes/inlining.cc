#include "compiler/passes/inlining.h"

#include <memory>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "compiler/passes/ir_rewrite.h"
#include "stablehlo/ir_builder.h"

namespace plugrt::passes {
namespace {

// The function a call or composite runs, or null.
const shlo::Function* Callee(const shlo::Module& module, const shlo::Operation& op) {
  const char* attribute = op.code == shlo::OpCode::kFuncCall    ? "callee"
                          : op.code == shlo::OpCode::kComposite ? "decomposition"
                                                                : nullptr;
  if (attribute == nullptr) return nullptr;
  const shlo::Attribute* symbol = op.attribute(attribute);
  if (symbol == nullptr || symbol->kind != shlo::Attribute::Kind::kSymbolRef) return nullptr;
  return module.FindFunction(symbol->str);
}

// Whether `function` (nested regions included) calls anything.
bool CallsAnything(shlo::Function& function) {
  bool calls = false;
  ForEachBlock(function, [&](shlo::Block& block) {
    for (const auto& op : block.operations) {
      if (op->code == shlo::OpCode::kFuncCall || op->code == shlo::OpCode::kComposite) calls = true;
    }
  });
  return calls;
}

// Whether `call` can take `callee`'s body: one block ending in func.return
// with one value per result of the call, of the call's arity.
bool Inlinable(const shlo::Operation& call, const shlo::Function& callee) {
  if (callee.body == nullptr || callee.body->blocks.size() != 1) return false;
  const shlo::Block& body = callee.body->front();
  if (body.arguments.size() != call.operands.size() || body.operations.empty()) return false;
  const shlo::Operation& ret = *body.operations.back();
  return ret.code == shlo::OpCode::kFuncReturn && ret.operands.size() == call.results.size();
}

// Copies `callee`'s body before `call` and points the call's users at the
// copies of what it returns; the call is left for the caller to erase.
void InlineBefore(shlo::Function& caller, shlo::Operation& call, const shlo::Function& callee) {
  const shlo::Block& body = callee.body->front();
  shlo::IrBuilder::ValueMap map;
  for (size_t i = 0; i < body.arguments.size(); ++i) map[body.arguments[i].get()] = call.operands[i];
  shlo::IrBuilder builder(&call);
  for (size_t i = 0; i + 1 < body.operations.size(); ++i) builder.Clone(*body.operations[i], map);
  const shlo::Operation& ret = *body.operations.back();
  std::vector<std::pair<const shlo::Value*, shlo::Value*>> uses;
  for (size_t i = 0; i < ret.operands.size(); ++i) {
    auto it = map.find(ret.operands[i]);
    uses.emplace_back(call.result(i), it != map.end() ? it->second : ret.operands[i]);
  }
  ReplaceAllUses(caller, uses);
}

}  // namespace

bool InlineCalls(shlo::Module& module) {
  bool changed = false;
  // Rounds: each inlines calls to leaf functions (ones that call nothing),
  // so nested helpers are flattened from the inside out; a cycle of calls
  // never becomes a leaf and stays.
  for (size_t round = 0; round <= module.functions.size(); ++round) {
    std::unordered_set<const shlo::Function*> leaves;
    for (const auto& function : module.functions) {
      if (!CallsAnything(*function)) leaves.insert(function.get());
    }
    bool inlined = false;
    for (const auto& function : module.functions) {
      ForEachBlock(*function, [&](shlo::Block& block) {
        // The calls first: copying a body inserts ops into this block.
        std::vector<std::pair<shlo::Operation*, const shlo::Function*>> calls;
        for (const auto& op : block.operations) {
          const shlo::Function* callee = Callee(module, *op);
          if (callee != nullptr && callee != function.get() && leaves.count(callee) &&
              Inlinable(*op, *callee)) {
            calls.emplace_back(op.get(), callee);
          }
        }
        if (calls.empty()) return;
        std::vector<const shlo::Operation*> done;
        for (auto [call, callee] : calls) {
          InlineBefore(*function, *call, *callee);
          done.push_back(call);
        }
        std::unordered_set<const shlo::Operation*> erase(done.begin(), done.end());
        std::vector<std::unique_ptr<shlo::Operation>> kept;
        kept.reserve(block.operations.size());
        for (auto& op : block.operations) {
          if (!erase.count(op.get())) kept.push_back(std::move(op));
        }
        block.operations = std::move(kept);
        inlined = true;
      });
    }
    if (!inlined) break;
    changed = true;
  }
  return changed;
}

}  // namespace plugrt::passes
