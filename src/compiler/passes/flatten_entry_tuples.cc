#include "compiler/passes/flatten_entry_tuples.h"

#include <memory>
#include <utility>
#include <vector>

#include "compiler/passes/ir_rewrite.h"
#include "stablehlo/ir_builder.h"

namespace plugrt::passes {
namespace {

using shlo::Attribute;
using shlo::ElementType;
using shlo::IrBuilder;
using shlo::Type;
using shlo::Value;

// The value of tuple type `type` built from `leaves` (consumed from `next`).
Value* Rebuild(IrBuilder& b, const Type& type, const std::vector<Value*>& leaves, size_t* next) {
  if (!type.is_tuple()) return leaves[(*next)++];
  std::vector<Value*> elements;
  for (const Type& element : type.tuple_elements()) elements.push_back(Rebuild(b, element, leaves, next));
  return b.Op("stablehlo.tuple", std::move(elements), type);
}

// The leaves of `value`, taken apart depth first.
void TakeApart(IrBuilder& b, Value* value, std::vector<Value*>* leaves) {
  if (!value->type.is_tuple()) {
    leaves->push_back(value);
    return;
  }
  const std::vector<Type>& elements = value->type.tuple_elements();
  for (size_t i = 0; i < elements.size(); ++i) {
    Value* element = b.Op("stablehlo.get_tuple_element", {value}, elements[i],
                          {{"index", Attribute::Integer(static_cast<int64_t>(i),
                                                        Type::Element(ElementType::kSI32))}});
    TakeApart(b, element, leaves);
  }
}

bool HasTuple(const std::vector<Type>& types) {
  for (const Type& t : types) {
    if (t.is_tuple()) return true;
  }
  return false;
}

}  // namespace

StatusOr<bool> FlattenEntryTuples(shlo::Module& module) {
  auto* entry = const_cast<shlo::Function*>(module.EntryFunction());
  if (entry == nullptr || entry->body == nullptr || entry->body->blocks.size() != 1) return false;
  if (!HasTuple(entry->input_types) && !HasTuple(entry->result_types)) return false;
  shlo::Block& body = entry->body->front();
  if (body.operations.empty() || body.operations.back()->name != "func.return") {
    return InvalidArgument("@", entry->name, " does not end in func.return");
  }
  shlo::Operation* ret = body.operations.back().get();
  if (body.arguments.size() != entry->input_types.size() ||
      ret->operands.size() != entry->result_types.size()) {
    return InvalidArgument("@", entry->name, "'s body does not match its type");
  }
  entry->arg_attributes.resize(entry->input_types.size());
  entry->result_attributes.resize(entry->result_types.size());
  entry->result_locations.resize(entry->result_types.size());

  // Arguments: leaves in place of each tuple, the tuple rebuilt up front.
  IrBuilder front(body.operations.front().get());
  std::vector<std::unique_ptr<Value>> arguments;
  std::vector<Type> input_types;
  std::vector<std::vector<shlo::NamedAttribute>> arg_attributes;
  std::vector<std::pair<const Value*, Value*>> replaced;
  for (size_t i = 0; i < body.arguments.size(); ++i) {
    std::unique_ptr<Value>& old = body.arguments[i];
    if (!old->type.is_tuple()) {
      input_types.push_back(old->type);
      arg_attributes.push_back(std::move(entry->arg_attributes[i]));
      arguments.push_back(std::move(old));
      continue;
    }
    std::vector<Value*> leaves;
    for (const Type& leaf : shlo::FlattenType(old->type)) {
      auto value = std::make_unique<Value>();
      value->type = leaf;
      value->owner_block = &body;
      value->name = StrCat(old->name, "_", leaves.size());
      leaves.push_back(value.get());
      input_types.push_back(leaf);
      arg_attributes.emplace_back();
      arguments.push_back(std::move(value));
    }
    size_t next = 0;
    replaced.emplace_back(old.get(), Rebuild(front, old->type, leaves, &next));
    // The old argument stays alive until its uses are redirected.
    arguments.push_back(std::move(old));
  }
  ReplaceAllUses(*entry, replaced);
  std::erase_if(arguments, [&](const std::unique_ptr<Value>& v) { return v->type.is_tuple(); });
  for (size_t i = 0; i < arguments.size(); ++i) arguments[i]->index = static_cast<int>(i);
  body.arguments = std::move(arguments);
  entry->input_types = std::move(input_types);
  entry->arg_attributes = std::move(arg_attributes);

  // Results: each tuple returned as its leaves.
  IrBuilder back(ret);
  std::vector<Value*> operands;
  std::vector<Type> result_types;
  std::vector<std::vector<shlo::NamedAttribute>> result_attributes;
  std::vector<shlo::SourceLocationRef> result_locations;
  for (size_t i = 0; i < ret->operands.size(); ++i) {
    if (!ret->operands[i]->type.is_tuple()) {
      operands.push_back(ret->operands[i]);
      result_types.push_back(entry->result_types[i]);
      result_attributes.push_back(std::move(entry->result_attributes[i]));
      result_locations.push_back(entry->result_locations[i]);
      continue;
    }
    std::vector<Value*> leaves;
    TakeApart(back, ret->operands[i], &leaves);
    for (Value* leaf : leaves) {
      operands.push_back(leaf);
      result_types.push_back(leaf->type);
      result_attributes.emplace_back();
      result_locations.push_back(entry->result_locations[i]);
    }
  }
  ret->operands = std::move(operands);
  entry->result_types = std::move(result_types);
  entry->result_attributes = std::move(result_attributes);
  entry->result_locations = std::move(result_locations);
  return true;
}

}  // namespace plugrt::passes
