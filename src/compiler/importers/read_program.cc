#include "compiler/importers/read_program.h"

#include "compiler/importers/bytecode/reader.h"
#include "compiler/importers/hlo/hlo_reader.h"
#include "compiler/importers/hlo/hlo_text_parser.h"
#include "compiler/importers/mlir/parser.h"

namespace plugrt::shlo {

StatusOr<std::unique_ptr<Module>> ReadProgram(std::string_view bytes, std::string_view file_name,
                                              const ReadOptions& options) {
  if (IsMlirBytecode(bytes)) return ReadBytecodeModule(bytes, file_name, options);
  if (hlo::IsHloText(bytes)) return ReadHloText(bytes, file_name, options);
  // Text has no control characters but blanks; binary bytes here are most
  // likely an HloModuleProto handed over as format "mlir".
  const std::string_view head = bytes.substr(0, 512);
  for (char ch : head) {
    const auto u = static_cast<unsigned char>(ch);
    if (u < 0x20 && ch != '\n' && ch != '\r' && ch != '\t') {
      return InvalidArgument(file_name, ": the program is neither text nor MLIR bytecode; a "
                             "serialized xla.HloModuleProto is compile format \"hlo\" (plugrt "
                             "run/inspect --format hlo)");
    }
  }
  return ParseModule(bytes, file_name, options);
}

StatusOr<std::unique_ptr<Module>> ReadProgram(std::string_view bytes, std::string_view file_name,
                                              std::string_view format,
                                              const ReadOptions& options) {
  if (format == "mlir") return ReadProgram(bytes, file_name, options);
  if (format == "hlo") return ReadHloModuleProto(bytes, file_name);
  if (format == "hlo_with_config") return ReadHloModuleProtoWithConfig(bytes, file_name);
  return InvalidArgument("program format '", format,
                         "' is not supported; plugrt reads \"mlir\" (StableHLO text or "
                         "bytecode, or XLA's HLO text), \"hlo\" and \"hlo_with_config\" (XLA's "
                         "HloModuleProto)");
}

bool IsHloText(std::string_view bytes) { return hlo::IsHloText(bytes); }

bool IsKnownProgramFormat(std::string_view format) {
  return format == "mlir" || format == "hlo" || format == "hlo_with_config";
}

}  // namespace plugrt::shlo
