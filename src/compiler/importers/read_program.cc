#include "compiler/importers/read_program.h"

#include "compiler/importers/bytecode/reader.h"
#include "compiler/importers/hlo/hlo_reader.h"
#include "compiler/importers/mlir/parser.h"

namespace plugrt::shlo {

StatusOr<std::unique_ptr<Module>> ReadProgram(std::string_view bytes, std::string_view file_name) {
  if (IsMlirBytecode(bytes)) return ReadBytecodeModule(bytes, file_name);
  return ParseModule(bytes, file_name);
}

StatusOr<std::unique_ptr<Module>> ReadProgram(std::string_view bytes, std::string_view file_name,
                                              std::string_view format) {
  if (format == "mlir") return ReadProgram(bytes, file_name);
  if (format == "hlo") return ReadHloModuleProto(bytes, file_name);
  if (format == "hlo_with_config") return ReadHloModuleProtoWithConfig(bytes, file_name);
  return InvalidArgument("program format '", format,
                         "' is not supported; plugrt reads \"mlir\" (StableHLO text or "
                         "bytecode), \"hlo\" and \"hlo_with_config\" (XLA's HloModuleProto)");
}

bool IsKnownProgramFormat(std::string_view format) {
  return format == "mlir" || format == "hlo" || format == "hlo_with_config";
}

}  // namespace plugrt::shlo
