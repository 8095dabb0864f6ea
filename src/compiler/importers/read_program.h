// plugrt compiler: a program's bytes, in whichever form, read into the IR.
//
// The one entry of the importers: the form is told from the content, never
// from a file name. Today: MLIR bytecode (StableHLO portable artifacts,
// told by the magic "ML\xEFR") and MLIR text (StableHLO, CHLO, the generic
// form). A new program format adds its reader under importers/ and its test
// of the content here.
#ifndef PLUGRT_COMPILER_IMPORTERS_READ_PROGRAM_H_
#define PLUGRT_COMPILER_IMPORTERS_READ_PROGRAM_H_

#include <memory>
#include <string_view>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// `file_name` names the program in errors (file:line:col, byte offsets).
StatusOr<std::unique_ptr<Module>> ReadProgram(std::string_view bytes, std::string_view file_name);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_READ_PROGRAM_H_
