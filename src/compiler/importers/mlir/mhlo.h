// plugrt: the mhlo dialect read as StableHLO, for both of its forms (text:
// parser_mhlo.cc's callers in the text parser; bytecode:
// importers/bytecode/reader.cc): which op an mhlo op reads as, and its
// attributes in StableHLO's spelling.
#ifndef PLUGRT_COMPILER_IMPORTERS_MLIR_MHLO_H_
#define PLUGRT_COMPILER_IMPORTERS_MLIR_MHLO_H_

#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// The name an mhlo op reads as (`mhlo.add` -> `stablehlo.add`, `mhlo.erf` ->
// `chlo.erf`, `mhlo.topk` -> `chlo.top_k`; mhlo.copy and mhlo.add_dependency
// as themselves, identities the importer replaces by their first operand),
// or nullopt for ops with no counterpart.
std::optional<std::string> MhloOpCounterpart(std::string_view name);

// Whether `name` (mhlo.copy, mhlo.add_dependency) stands for its first
// operand.
bool IsMhloIdentity(std::string_view name);

// Rewrites the attributes of a translated mhlo op into StableHLO's spelling
// (dense<...> index lists -> array<i64>; topk's `largest`); errors carry no
// location.
Status NormalizeMhloAttributes(Operation* op);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_MLIR_MHLO_H_
