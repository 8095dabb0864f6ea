#include "compiler/importers/read_program.h"

#include "compiler/importers/bytecode/reader.h"
#include "compiler/importers/mlir/parser.h"

namespace plugrt::shlo {

StatusOr<std::unique_ptr<Module>> ReadProgram(std::string_view bytes, std::string_view file_name) {
  if (IsMlirBytecode(bytes)) return ReadBytecodeModule(bytes, file_name);
  return ParseModule(bytes, file_name);
}

}  // namespace plugrt::shlo
