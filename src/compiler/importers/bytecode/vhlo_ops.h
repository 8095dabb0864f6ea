// plugrt StableHLO bytecode: the table of VHLO operations (vhlo_ops.cc).
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_VHLO_OPS_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_VHLO_OPS_H_

#include <array>
#include <string_view>

#include "compiler/importers/bytecode/vhlo_version.h"

namespace plugrt::shlo::bytecode {

// One VHLO op version, e.g. "gather_v2" (without the "vhlo." prefix).
struct VhloOpInfo {
  std::string_view name;
  VhloVersion min;  // first StableHLO version with this op version
  VhloVersion max;  // last one; kStillCurrent: still current
  // Attribute names in name order; unused slots are empty.
  std::array<std::string_view, 20> attributes;
};

// The op version called `name`, or null when plugrt does not know it.
const VhloOpInfo* FindVhloOp(std::string_view name);

// The version of op `base` ("gather") that StableHLO `version` defines, or
// null when it has none; then *first (if given) is the op's first version
// (null: plugrt knows no version of it).
const VhloOpInfo* FindVhloOpAt(std::string_view base, VhloVersion version,
                               const VhloOpInfo** first = nullptr);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_VHLO_OPS_H_
