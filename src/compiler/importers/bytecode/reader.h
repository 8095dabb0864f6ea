// plugrt StableHLO: reading MLIR bytecode into the IR: StableHLO portable
// artifacts (VHLO ops, StableHLO 0.9.0 to 1.20.0, with Shardy's dialect),
// and programs written in the dialects themselves (func with mhlo,
// stablehlo or chlo ops, as TensorFlow, XLA tools and MLIR pipelines write
// them, with dense_resource weights in the resource sections). The IR is
// built straight from the decoded bytecode (no program text in between),
// in the same normal form the text parser gives the program's .mlir twin.
#ifndef PLUGRT_COMPILER_IMPORTERS_BYTECODE_READER_H_
#define PLUGRT_COMPILER_IMPORTERS_BYTECODE_READER_H_

#include <memory>
#include <string_view>

#include "common/status.h"
#include "compiler/importers/read_options.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// True when `bytes` start with the MLIR bytecode magic "ML\xEFR".
bool IsMlirBytecode(std::string_view bytes);

// Errors: INVALID_ARGUMENT naming what was found and its byte offset
// (unknown op/attribute/type versions, newer bytecode versions, malformed
// data).
StatusOr<std::unique_ptr<Module>> ReadBytecodeModule(std::string_view bytes,
                                                     std::string_view file_name);
// The same, with dense_resource constants that hold no data filled as
// `options` says instead of refused.
StatusOr<std::unique_ptr<Module>> ReadBytecodeModule(std::string_view bytes,
                                                     std::string_view file_name,
                                                     const ReadOptions& options);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_BYTECODE_READER_H_
