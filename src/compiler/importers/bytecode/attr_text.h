// plugrt StableHLO bytecode: the spelling of the attributes the IR keeps as
// text, written from their decoded form exactly as the text parser stores
// them for the program's .mlir twin: the bodies of VHLO's mesh attributes
// (#stablehlo.mesh<...>, axis_ref, mesh_axis, replica_group_mesh_axes) and
// the literals of tensor attributes whose type the IR keeps as text
// (tensor<2xindex> layouts). Internal to src/compiler/importers/bytecode.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_ATTR_TEXT_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_ATTR_TEXT_H_

#include <string>
#include <string_view>

#include "common/status.h"
#include "compiler/importers/bytecode/bytecode_ir.h"

namespace plugrt::shlo::bytecode {

// What stands between `#stablehlo.<family><` and `>` of a kSdy attribute
// (before NormalizedAttributeText).
StatusOr<std::string> MeshAttrBody(const BcAttr* attr);

// What stands between `dense<` and `>` of a tensor attribute: "" when it
// has no data, `1` / `[1, 2]` for index vectors, else `"0x<hex>"`.
std::string DenseLiteralText(const BcAttr* attr);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_ATTR_TEXT_H_
