// plugrt compiler: a program's bytes, in whichever form, read into the IR.
//
// The one entry of the importers. Within PJRT's compile format "mlir" the
// form is told from the content, never from a file name: MLIR bytecode
// (StableHLO portable artifacts, told by the magic "ML\xEFR") and MLIR text
// (StableHLO, CHLO, the generic form) and XLA's HLO text (told by its first
// word, `HloModule`). Formats "hlo" and "hlo_with_config"
// (XLA's serialized HloModuleProto, alone or with its config) cannot be told
// from content, so the caller names them. A new program format adds its
// reader under importers/ and its test of the content or its name here.
#ifndef PLUGRT_COMPILER_IMPORTERS_READ_PROGRAM_H_
#define PLUGRT_COMPILER_IMPORTERS_READ_PROGRAM_H_

#include <memory>
#include <string_view>

#include "common/status.h"
#include "compiler/importers/read_options.h"
#include "stablehlo/ir.h"

namespace plugrt::shlo {

// `file_name` names the program in errors (file:line:col, byte offsets).
// `options` says what to do with constants left out of the file.
StatusOr<std::unique_ptr<Module>> ReadProgram(std::string_view bytes, std::string_view file_name,
                                              const ReadOptions& options = {});
// The same for a program in PJRT compile format `format` ("mlir", "hlo",
// "hlo_with_config"); INVALID_ARGUMENT for any other format.
StatusOr<std::unique_ptr<Module>> ReadProgram(std::string_view bytes, std::string_view file_name,
                                              std::string_view format,
                                              const ReadOptions& options = {});
// Whether `bytes` is XLA's HLO text (first word `HloModule`).
bool IsHloText(std::string_view bytes);
// Whether ReadProgram reads `format`.
bool IsKnownProgramFormat(std::string_view format);

}  // namespace plugrt::shlo

#endif  // PLUGRT_COMPILER_IMPORTERS_READ_PROGRAM_H_
