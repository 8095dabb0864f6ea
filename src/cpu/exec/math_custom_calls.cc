// Placeholder until the CHLO engineer's special-function kernels land.
#include "cpu/exec/interpreter.h"

namespace plugrt::cpu {

StatusOr<std::unique_ptr<CompiledOp>> CompileMathCustomCall(const shlo::Operation& op,
                                                            std::string_view target) {
  return OpError(op, StatusCode::kUnimplemented,
                 StrCat("custom call target '", target, "' is not implemented"));
}

}  // namespace plugrt::cpu
