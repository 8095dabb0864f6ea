#include "stablehlo/clone.h"

#include <unordered_map>

namespace plugrt::shlo {
namespace {

class Cloner {
 public:
  StatusOr<std::unique_ptr<Region>> CloneRegion(const Region& from, Operation* parent_op) {
    auto region = std::make_unique<Region>();
    region->parent_op = parent_op;
    // Every block's arguments first: an op may name an argument of a later
    // block of its region.
    for (const auto& block : from.blocks) {
      auto copy = std::make_unique<Block>();
      copy->parent = region.get();
      for (const auto& argument : block->arguments) {
        auto value = std::make_unique<Value>(*argument);
        value->owner_block = copy.get();
        value->defining_op = nullptr;
        values_[argument.get()] = value.get();
        copy->arguments.push_back(std::move(value));
      }
      region->blocks.push_back(std::move(copy));
    }
    for (size_t b = 0; b < from.blocks.size(); ++b) {
      Block& into = *region->blocks[b];
      for (const auto& op : from.blocks[b]->operations) {
        PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Operation> copy, CloneOp(*op));
        copy->parent = &into;
        into.operations.push_back(std::move(copy));
      }
    }
    return region;
  }

 private:
  StatusOr<std::unique_ptr<Operation>> CloneOp(const Operation& from) {
    auto op = std::make_unique<Operation>();
    op->code = from.code;
    op->name = from.name;
    op->attributes = from.attributes;
    op->location = from.location;
    op->operands.reserve(from.operands.size());
    for (const Value* operand : from.operands) {
      auto it = values_.find(operand);
      if (it == values_.end()) {
        return Internal(from.location.ToString(), ": ", from.name,
                        " uses a value the module does not define; it cannot be copied");
      }
      op->operands.push_back(it->second);
    }
    // Regions before results: a region cannot name its own op's results.
    for (const auto& region : from.regions) {
      PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Region> copy, CloneRegion(*region, op.get()));
      op->regions.push_back(std::move(copy));
    }
    for (const auto& result : from.results) {
      auto value = std::make_unique<Value>(*result);
      value->defining_op = op.get();
      value->owner_block = nullptr;
      values_[result.get()] = value.get();
      op->results.push_back(std::move(value));
    }
    return op;
  }

  std::unordered_map<const Value*, Value*> values_;
};

}  // namespace

StatusOr<std::unique_ptr<Module>> CloneModule(const Module& module) {
  auto copy = std::make_unique<Module>();
  copy->name = module.name;
  copy->attributes = module.attributes;
  copy->meshes = module.meshes;
  copy->location = module.location;
  for (const auto& function : module.functions) {
    auto f = std::make_unique<Function>();
    f->name = function->name;
    f->is_public = function->is_public;
    f->input_types = function->input_types;
    f->result_types = function->result_types;
    f->arg_attributes = function->arg_attributes;
    f->result_attributes = function->result_attributes;
    f->result_locations = function->result_locations;
    f->attributes = function->attributes;
    f->location = function->location;
    if (function->body) {
      Cloner cloner;
      PLUGRT_ASSIGN_OR_RETURN(f->body, cloner.CloneRegion(*function->body, nullptr));
    }
    copy->functions.push_back(std::move(f));
  }
  return copy;
}

}  // namespace plugrt::shlo
