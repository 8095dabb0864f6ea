// plugrt StableHLO: the verifier. Checks a parsed module against the
// StableHLO spec's per-op constraints (operand and result types, shapes and
// attributes) and the module's structure (function signatures, calls,
// region terminators), before anything lowers or compiles it.
//
// Errors are INVALID_ARGUMENT and read
//   "file:line:col: stablehlo.op: violated rule (C3) <the rule>: <what was found>"
// where (Cn) is the constraint's label in the StableHLO spec's section for
// the op ("structure" for rules of the IR itself).
#ifndef PLUGRT_STABLEHLO_VERIFIER_H_
#define PLUGRT_STABLEHLO_VERIFIER_H_

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// Checks every function and every op of `module`; the first violation found
// (in text order) is the error. Ops the verifier has no rules for (chlo.*,
// custom dialects) are checked only structurally; ops with quantized types
// are left to the backend, which answers UNIMPLEMENTED for them.
Status VerifyModule(const Module& module);

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_VERIFIER_H_
