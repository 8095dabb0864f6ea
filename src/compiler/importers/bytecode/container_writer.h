// plugrt StableHLO bytecode: encoding a VHLO module (bytecode_ir.h) as an
// MLIR bytecode file: the inverse of container.h. Internal to
// src/stablehlo/bytecode.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_CONTAINER_WRITER_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_CONTAINER_WRITER_H_

#include <string>

#include "common/status.h"
#include "compiler/importers/bytecode/bytecode_ir.h"
#include "compiler/importers/bytecode/vhlo_version.h"

namespace plugrt::shlo::bytecode {

// The file in the bytecode format version StableHLO `target` writes
// (BytecodeVersionFor), producer "StableHLO_vX.Y.Z". INVALID_ARGUMENT naming
// the op when an attribute or type kind is newer than `target`.
StatusOr<std::string> EncodeBytecode(const BcFile& file, VhloVersion target);

}  // namespace plugrt::shlo::bytecode

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_CONTAINER_WRITER_H_
