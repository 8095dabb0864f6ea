// plugrt StableHLO: the verifier. Checks a parsed module against the
// StableHLO spec's per-op constraints (operand and result types, shapes and
// attributes) and the module's structure (function signatures, calls,
// region terminators), before anything lowers or compiles it.
//
// Errors are INVALID_ARGUMENT and read
//   "file:line:col: stablehlo.op: violated rule (C3) <the rule>: <what was found>"
// with one of three kinds of label:
//   (Cn)        item n of the "Constraints" list of the op's section in the
//               StableHLO spec. Ops the spec has no section for (legacy and
//               extension ops) number their rules in their rule file, stated
//               at the check.
//   (In)        row n of the op's "Inputs" table: the kind of an operand
//               (element type class, rank, tensor/token/tuple), or the values
//               an attribute takes where the rule file checks that row itself.
//   (structure) rules of the IR itself: operand, result and region counts;
//               attribute presence and kinds read through the shared helpers
//               (including an enum's allowed values); the kinds of results
//               (the spec's "Outputs" table has no labels); function
//               signatures, calls and region terminators.
#ifndef PLUGRT_STABLEHLO_VERIFIER_H_
#define PLUGRT_STABLEHLO_VERIFIER_H_

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// Checks every function and every op of `module`; the first violation found
// (in text order) is the error. Ops the verifier has no rules for (chlo.*,
// custom dialects) are checked only structurally; ops with quantized types
// are checked for the spec's quantization rules, their shapes after the
// quantized lowering (compiler/passes/lower_quantized.h).
Status VerifyModule(const Module& module);

}  // namespace plugrt::shlo

#endif  // PLUGRT_STABLEHLO_VERIFIER_H_
