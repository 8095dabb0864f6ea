#include "compiler/passes/ir_rewrite.h"

#include <cstring>
#include <unordered_map>

#include "stablehlo/element_type.h"

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

std::optional<std::vector<int64_t>> OptionalIntList(const shlo::Attribute* attribute) {
  if (attribute == nullptr) return std::vector<int64_t>();
  StatusOr<std::vector<int64_t>> list = shlo::AttrToIntList(*attribute);
  if (!list.ok()) return std::nullopt;
  return *std::move(list);
}

std::optional<std::vector<std::byte>> SplatBits(const shlo::Value* v) {
  const shlo::Operation* def = v->defining_op;
  if (def == nullptr || def->code != shlo::OpCode::kConstant) return std::nullopt;
  const shlo::Attribute* value = def->attribute("value");
  if (value == nullptr || value->kind != shlo::Attribute::Kind::kDenseElements ||
      value->dense == nullptr || !v->type.is_tensor()) {
    return std::nullopt;
  }
  const size_t width = static_cast<size_t>(shlo::StorageBytes(v->type.element_type()));
  const std::vector<std::byte>& bytes = value->dense->bytes;
  if (width == 0 || bytes.size() < width || bytes.size() % width != 0) return std::nullopt;
  for (size_t at = width; at < bytes.size(); at += width) {
    if (std::memcmp(bytes.data(), bytes.data() + at, width) != 0) return std::nullopt;
  }
  return std::vector<std::byte>(bytes.begin(), bytes.begin() + static_cast<ptrdiff_t>(width));
}

std::optional<int64_t> IntegerSplat(const shlo::Value* v) {
  if (!v->type.is_tensor() || !shlo::IsInteger(v->type.element_type())) return std::nullopt;
  std::optional<std::vector<std::byte>> bits = SplatBits(v);
  if (!bits || bits->size() > sizeof(uint64_t)) return std::nullopt;
  uint64_t value = 0;
  for (size_t i = 0; i < bits->size(); ++i) value |= static_cast<uint64_t>((*bits)[i]) << (8 * i);
  const size_t width = bits->size() * 8;
  if (shlo::IsSignedInteger(v->type.element_type()) && width < 64 && (value >> (width - 1)) & 1) {
    value |= ~uint64_t{0} << width;
  }
  return static_cast<int64_t>(value);
}

}  // namespace plugrt::passes
