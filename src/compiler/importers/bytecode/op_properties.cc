// plugrt MLIR bytecode: the property tables. Each row lists an op's
// inherent attributes as its ODS definition declares them (upstream MLIR's
// BuiltinOps.td and FuncOps.td, Shardy's ops.td, MHLO's hlo_ops.td,
// StableHLO's StablehloOps.td and ChloOps.td: facts), sorted by name as the
// generated writer orders them; '?' marks OptionalAttr, DefaultValuedAttr
// and UnitAttr ones, which are written as flagged references.
#include "compiler/importers/bytecode/op_properties.h"

#include <string>
#include <unordered_map>

namespace plugrt::shlo::bytecode {
namespace {

constexpr OpProperties kTable[] = {
    // builtin and func.
    {"builtin.module", "sym_name? sym_visibility?"},
    {"func.func", "arg_attrs? function_type no_inline? res_attrs? sym_name sym_visibility?",
     "arg_attrs? function_type res_attrs? sym_name sym_visibility?"},
    {"func.call", "arg_attrs? callee no_inline? res_attrs?", "callee"},
    {"func.return", ""},

    // Shardy: the ops plugrt implements (compiler/passes/lower_sharding.cc).
    {"sdy.constant", "value"},
    {"sdy.data_flow_edge", "sharding?"},
    {"sdy.manual_computation", "in_shardings manual_axes out_shardings"},
    {"sdy.mesh", "mesh sym_name"},
    {"sdy.named_computation", "in_shardings? name out_shardings?"},
    {"sdy.propagation_barrier", "allowed_direction"},
    {"sdy.reshard", "sharding"},
    {"sdy.return", ""},
    {"sdy.sharding_constraint", "sharding"},
    {"sdy.sharding_group", "group_id"},

#include "compiler/importers/bytecode/op_properties_hlo.inc"
};

}  // namespace

const OpProperties* FindOpProperties(std::string_view name) {
  static const auto* const index = [] {
    auto* map = new std::unordered_map<std::string_view, const OpProperties*>();
    for (const OpProperties& row : kTable) map->emplace(row.op, &row);
    return map;
  }();
  auto it = index->find(name);
  return it == index->end() ? nullptr : it->second;
}

}  // namespace plugrt::shlo::bytecode
