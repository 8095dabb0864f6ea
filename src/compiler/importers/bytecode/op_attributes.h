// plugrt StableHLO bytecode: the attributes of a VHLO op as StableHLO has
// them, following upstream's VHLO to StableHLO legalization: defaults left
// out, dimension-number attributes folded into their #stablehlo structs,
// channel ids into channel handles, i64 tensors into dense arrays, callee
// names into symbol references. Internal to src/compiler/importers/bytecode.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_OP_ATTRIBUTES_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_OP_ATTRIBUTES_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "compiler/importers/bytecode/bytecode_ir.h"
#include "compiler/importers/bytecode/ir_attributes.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo::bytecode {

// "vhlo.add_v1" -> "add".
std::string VhloOpBaseName(std::string_view vhlo_name);

// Appends the StableHLO attributes of `op` to `out` (folded structs first,
// then the op's own attributes in their order).
Status BuildOpAttributes(const BcOp& op, IrAttributes& attrs, std::vector<NamedAttribute>* out);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_OP_ATTRIBUTES_H_
