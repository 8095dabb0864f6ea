// plugrt StableHLO: one canonical form of a module for comparing and printing
// programs: attributes of ops, functions, arguments, results, the module and
// dictionaries and struct fields sorted by name (MLIR attribute dictionaries
// are unordered), and op attributes that only spell out StableHLO's default
// (custom_call api_version = 1, a default result_accuracy, ...) left out.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_CANONICAL_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_CANONICAL_H_

#include "stablehlo/ir.h"

namespace plugrt::shlo {

void CanonicalizeAttributeOrder(Module& module);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_CANONICAL_H_
