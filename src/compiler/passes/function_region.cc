#include "compiler/passes/function_region.h"

#include <string>
#include <vector>

#include "stablehlo/ir_builder.h"

namespace plugrt::passes {
namespace {

void CollectCalledSymbols(const shlo::Attribute& attr, std::vector<std::string>& out) {
  if (attr.kind == shlo::Attribute::Kind::kSymbolRef) out.push_back(attr.str);
  for (const shlo::Attribute& element : attr.elements) CollectCalledSymbols(element, out);
}

}  // namespace

StatusOr<std::unique_ptr<shlo::Region>> RegionFromFunction(const shlo::Function& function,
                                                           shlo::Operation* parent) {
  if (function.body == nullptr || function.body->blocks.empty()) {
    return InvalidArgument("@", function.name, " has no body");
  }
  auto region = std::make_unique<shlo::Region>();
  region->parent_op = parent;
  auto block = std::make_unique<shlo::Block>();
  block->parent = region.get();
  shlo::IrBuilder::ValueMap map;
  const shlo::Block& source = function.body->front();
  for (const auto& arg : source.arguments) {
    map[arg.get()] = shlo::IrBuilder::AddArgument(block.get(), arg->type);
  }
  shlo::IrBuilder builder(block.get(), parent->location);
  for (const auto& op : source.operations) {
    shlo::Operation* copy = builder.Clone(*op, map);
    if (copy->code == shlo::OpCode::kFuncReturn) {
      copy->name = "stablehlo.return";
      copy->code = shlo::OpCode::kReturn;
    }
  }
  region->blocks.push_back(std::move(block));
  return region;
}

StatusOr<const shlo::Function*> CalledFunction(const shlo::Module& module,
                                               const shlo::Operation& op) {
  std::vector<std::string> names;
  if (const shlo::Attribute* called = op.attribute("called_computations")) {
    CollectCalledSymbols(*called, names);
  }
  if (names.size() != 1) {
    return InvalidArgument(op.location.ToString(), ": ", op.name,
                           ": needs one function in called_computations");
  }
  const shlo::Function* function = module.FindFunction(names[0]);
  if (function == nullptr) {
    return InvalidArgument(op.location.ToString(), ": ", op.name, ": calls @", names[0],
                           ", which the module lacks");
  }
  return function;
}

}  // namespace plugrt::passes
