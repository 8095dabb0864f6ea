// plugrt StableHLO bytecode: the attributes of a VHLO op as StableHLO has
// them, following upstream's VHLO to StableHLO legalization: defaults left
// out, dimension-number attributes folded into their #stablehlo structs,
// channel ids into channel handles, i64 tensors into dense arrays, callee
// names into symbol references. Shardy's ops keep their attributes as the
// text parser's pretty forms of them have them (parser_sdy.cc). Internal to
// src/compiler/importers/bytecode.
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

// Appends the attributes of Shardy op `op` ("sdy.manual_computation", ...)
// to `out`, however the artifact encoded them: shardings as "sdy.sharding"
// attributes holding their text, shardings per value as arrays of them,
// manual axes as arrays of strings.
Status BuildSdyOpAttributes(const BcOp& op, IrAttributes& attrs, std::vector<NamedAttribute>* out);

// The "sdy.mesh" attribute module-level `sdy.mesh` op `op` defines, and its
// name.
Status SdyMeshOf(const BcOp& op, IrAttributes& attrs, std::string* name, Attribute* mesh);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_OP_ATTRIBUTES_H_
