// plugrt StableHLO bytecode: the table of VHLO operations (vhlo_ops.cc).
#ifndef PLUGRT_STABLEHLO_BYTECODE_VHLO_OPS_H_
#define PLUGRT_STABLEHLO_BYTECODE_VHLO_OPS_H_

#include <array>
#include <string_view>

namespace plugrt::shlo::bytecode {

struct VhloVersion {
  int major = 0, minor = 0, patch = 0;
};

// One VHLO op version, e.g. "gather_v2" (without the "vhlo." prefix).
struct VhloOpInfo {
  std::string_view name;
  VhloVersion min;  // first StableHLO version with this op version
  VhloVersion max;  // last one; {99, 0, 0}: still current
  // Attribute names in name order; unused slots are empty.
  std::array<std::string_view, 20> attributes;
};

// The op version called `name`, or null when plugrt does not know it.
const VhloOpInfo* FindVhloOp(std::string_view name);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_STABLEHLO_BYTECODE_VHLO_OPS_H_
