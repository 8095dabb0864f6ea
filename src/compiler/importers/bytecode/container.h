// plugrt StableHLO bytecode: decoding the MLIR bytecode container of a
// portable artifact (container.cc). Internal to src/stablehlo/bytecode.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_CONTAINER_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_CONTAINER_H_

#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "compiler/importers/bytecode/bytecode_ir.h"

namespace plugrt::shlo::bytecode {

// `s` as an MLIR string literal: quoted, '"' and '\\' escaped, other
// non-printable bytes as \XX.
std::string QuoteMlirString(std::string_view s);

// True when `bytes` start with the MLIR bytecode magic "ML\xEFR".
bool IsBytecode(std::string_view bytes);

// The whole file decoded; INVALID_ARGUMENT "bytecode: at byte N: ..." for
// anything malformed, unknown op versions and newer format versions.
StatusOr<std::unique_ptr<BcFile>> DecodeBytecode(std::string_view bytes);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_CONTAINER_H_
