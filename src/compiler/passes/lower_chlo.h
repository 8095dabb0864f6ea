// plugrt StableHLO: rewrites CHLO ops (chlo.*) into StableHLO.
#ifndef PLUGRT_COMPILER_PASSES_LOWER_CHLO_H_
#define PLUGRT_COMPILER_PASSES_LOWER_CHLO_H_

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// Replaces every chlo.* op in the module (in every function and nested
// region). Errors name the op's location; ops without a lowering are left
// in place and reported as UNIMPLEMENTED.
Status LowerChlo(Module& module);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_PASSES_LOWER_CHLO_H_
