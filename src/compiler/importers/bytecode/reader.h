// plugrt StableHLO: reading StableHLO portable artifacts (VHLO ops written as
// MLIR bytecode, StableHLO 0.9.0 to 1.20.0) into the IR. The IR is built
// straight from the decoded bytecode (no program text in between), in the
// same normal form the text parser gives the program's .mlir twin.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_READER_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_READER_H_

#include <memory>
#include <string_view>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// True when `bytes` start with the MLIR bytecode magic "ML\xEFR".
bool IsMlirBytecode(std::string_view bytes);

// Errors: INVALID_ARGUMENT naming what was found and its byte offset
// (unknown op/attribute/type versions, newer bytecode versions, malformed
// data).
StatusOr<std::unique_ptr<Module>> ReadBytecodeModule(std::string_view bytes,
                                                     std::string_view file_name);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_READER_H_
