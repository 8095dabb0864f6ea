#include "stablehlo/ir_builder.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <utility>

#include "stablehlo/float_format.h"

namespace plugrt::shlo {
namespace {

// Fresh SSA names for created values, so printed output stays readable and
// unambiguous (the printer may rename anyway).
std::string FreshName() {
  static std::atomic<uint64_t> counter{0};
  return "lowered" + std::to_string(counter.fetch_add(1));
}

void WalkOps(Region& region, void (*visit)(Operation&, void*), void* data) {
  for (auto& block : region.blocks) {
    for (auto& op : block->operations) {
      visit(*op, data);
      for (auto& nested : op->regions) WalkOps(*nested, visit, data);
    }
  }
}

}  // namespace

IrBuilder::IrBuilder(Operation* anchor)
    : block_(anchor->parent), anchor_(anchor), location_(anchor->location) {}

IrBuilder::IrBuilder(Block* block, Location location)
    : block_(block), anchor_(nullptr), location_(std::move(location)) {}

Operation* IrBuilder::Create(const std::string& name, std::vector<Value*> operands,
                             std::vector<Type> result_types,
                             std::vector<NamedAttribute> attributes) {
  auto op = std::make_unique<Operation>();
  op->code = LookupOpCode(name);
  op->name = name;
  op->operands = std::move(operands);
  op->attributes = std::move(attributes);
  op->parent = block_;
  op->location = location_;
  for (size_t i = 0; i < result_types.size(); ++i) {
    auto value = std::make_unique<Value>();
    value->type = std::move(result_types[i]);
    value->defining_op = op.get();
    value->index = static_cast<int>(i);
    value->name = FreshName();
    op->results.push_back(std::move(value));
  }
  Operation* raw = op.get();
  auto& ops = block_->operations;
  auto it = ops.end();
  if (anchor_ != nullptr) {
    it = std::find_if(ops.begin(), ops.end(),
                      [&](const std::unique_ptr<Operation>& o) { return o.get() == anchor_; });
  }
  ops.insert(it, std::move(op));
  return raw;
}

Value* IrBuilder::Op(const std::string& name, std::vector<Value*> operands, Type result_type,
                     std::vector<NamedAttribute> attributes) {
  return Create(name, std::move(operands), {std::move(result_type)}, std::move(attributes))
      ->result(0);
}

Value* IrBuilder::AddArgument(Block* block, Type type) {
  auto arg = std::make_unique<Value>();
  arg->type = std::move(type);
  arg->owner_block = block;
  arg->index = static_cast<int>(block->arguments.size());
  arg->name = FreshName();
  block->arguments.push_back(std::move(arg));
  return block->arguments.back().get();
}

Operation* IrBuilder::Clone(const Operation& op, ValueMap& map) {
  std::vector<Value*> operands;
  for (Value* v : op.operands) {
    auto it = map.find(v);
    operands.push_back(it == map.end() ? v : it->second);
  }
  std::vector<Type> types;
  for (const auto& r : op.results) types.push_back(r->type);
  Operation* copy = Create(op.name, std::move(operands), std::move(types), op.attributes);
  copy->code = op.code;
  copy->location = op.location;
  for (size_t i = 0; i < op.results.size(); ++i) map[op.result(i)] = copy->result(i);
  for (const auto& region : op.regions) {
    auto new_region = std::make_unique<Region>();
    new_region->parent_op = copy;
    for (const auto& block : region->blocks) {
      auto new_block = std::make_unique<Block>();
      new_block->parent = new_region.get();
      for (const auto& arg : block->arguments) {
        map[arg.get()] = AddArgument(new_block.get(), arg->type);
      }
      IrBuilder inner(new_block.get(), location_);
      for (const auto& nested : block->operations) inner.Clone(*nested, map);
      new_region->blocks.push_back(std::move(new_block));
    }
    copy->regions.push_back(std::move(new_region));
  }
  return copy;
}

Value* IrBuilder::SplatBytes(const Type& type, std::vector<std::byte> element) {
  auto data = std::make_shared<DenseData>();
  data->splat = true;
  data->bytes = std::move(element);
  return Op("stablehlo.constant", {}, type, {{"value", Attribute::Dense(type, data)}});
}

Value* IrBuilder::SplatFloat(const Type& type, double value) {
  const ElementType e = type.element_type();
  std::vector<std::byte> bytes(static_cast<size_t>(StorageBytes(e)));
  if (e == ElementType::kF32) {
    float f = static_cast<float>(value);
    std::memcpy(bytes.data(), &f, sizeof f);
  } else if (e == ElementType::kF64) {
    std::memcpy(bytes.data(), &value, sizeof value);
  } else if (e == ElementType::kC64) {
    float f[2] = {static_cast<float>(value), 0.0f};
    std::memcpy(bytes.data(), f, sizeof f);
  } else if (e == ElementType::kC128) {
    double d[2] = {value, 0.0};
    std::memcpy(bytes.data(), d, sizeof d);
  } else if (IsFloat(e)) {
    uint64_t bits = EncodeFloat(e, value);
    std::memcpy(bytes.data(), &bits, bytes.size());  // little-endian low bytes
  } else {
    return SplatInt(type, static_cast<int64_t>(value));
  }
  return SplatBytes(type, std::move(bytes));
}

Value* IrBuilder::SplatInt(const Type& type, int64_t value) {
  const ElementType e = type.element_type();
  if (IsFloat(e) || IsComplex(e)) return SplatFloat(type, static_cast<double>(value));
  std::vector<std::byte> bytes(static_cast<size_t>(StorageBytes(e)));
  if (e == ElementType::kI1) value = value != 0 ? 1 : 0;
  std::memcpy(bytes.data(), &value, bytes.size());  // little-endian low bytes
  return SplatBytes(type, std::move(bytes));
}

Value* IrBuilder::Compare(Value* lhs, Value* rhs, const std::string& direction,
                          const std::string& compare_type) {
  std::vector<NamedAttribute> attrs = {
      {"comparison_direction", Attribute::Enum("stablehlo.comparison_direction", direction)}};
  if (!compare_type.empty()) {
    attrs.emplace_back("compare_type", Attribute::Enum("stablehlo.comparison_type", compare_type));
  }
  return Op("stablehlo.compare", {lhs, rhs}, WithElementType(lhs->type, ElementType::kI1),
            std::move(attrs));
}

Value* IrBuilder::Select(Value* pred, Value* on_true, Value* on_false) {
  return Op("stablehlo.select", {pred, on_true, on_false}, on_true->type);
}

Value* IrBuilder::BroadcastInDim(Value* operand, const Type& result_type,
                                 std::vector<int64_t> dims) {
  return Op("stablehlo.broadcast_in_dim", {operand}, result_type,
            {{"broadcast_dimensions", Attribute::DenseI64Array(std::move(dims))}});
}

Value* IrBuilder::Convert(Value* operand, ElementType element) {
  return Op("stablehlo.convert", {operand}, WithElementType(operand->type, element));
}

Value* IrBuilder::BitcastConvert(Value* operand, ElementType element) {
  return Op("stablehlo.bitcast_convert", {operand}, WithElementType(operand->type, element));
}

Type WithElementType(const Type& type, ElementType element) {
  return Type::Tensor(element, type.dims());
}

ElementType SameWidthInteger(ElementType element) {
  switch (BitWidth(element)) {
    case 64: return ElementType::kSI64;
    case 32: return ElementType::kSI32;
    case 16: return ElementType::kSI16;
    default: return ElementType::kSI8;
  }
}

void ReplaceAllUsesWith(Region& region, const Value* from, Value* to) {
  struct Data {
    const Value* from;
    Value* to;
  } data{from, to};
  WalkOps(
      region,
      [](Operation& op, void* p) {
        auto* d = static_cast<Data*>(p);
        for (Value*& operand : op.operands) {
          if (operand == d->from) operand = d->to;
        }
      },
      &data);
}

bool HasUses(Region& region, const Operation* op) {
  struct Data {
    const Operation* op;
    bool used;
  } data{op, false};
  WalkOps(
      region,
      [](Operation& user, void* p) {
        auto* d = static_cast<Data*>(p);
        for (const Value* operand : user.operands) {
          if (operand != nullptr && operand->defining_op == d->op) d->used = true;
        }
      },
      &data);
  return data.used;
}

void EraseOp(Operation* op) {
  auto& ops = op->parent->operations;
  ops.erase(std::remove_if(ops.begin(), ops.end(),
                           [&](const std::unique_ptr<Operation>& o) { return o.get() == op; }),
            ops.end());
}

}  // namespace plugrt::shlo
