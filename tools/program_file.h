// plugrt CLI: program files — reading them, naming them in plugin errors,
// and choosing the entry function.
#ifndef PLUGRT_TOOLS_PROGRAM_FILE_H_
#define PLUGRT_TOOLS_PROGRAM_FILE_H_

#include <string>
#include <string_view>

#include "common/status.h"

namespace plugrt::tools {

// The whole file, on any filesystem scheme (a local path, file://, ram://,
// http(s)://, a plugin's: filesystem/registry.h); NOT_FOUND /
// INVALID_ARGUMENT naming the path.
StatusOr<std::string> ReadProgramFile(const std::string& path);

// `message` with the plugin's name for program text ("<program>:", which is
// all PJRT_Program lets it know) replaced by `path`, so errors read
// "file.mlir:3:7: ...".
std::string NameProgramFile(std::string message, const std::string& path);
Status NameProgramFile(const Status& status, const std::string& path);

// Makes function @`entry` the program's @main, which is what plugins run:
// the symbols @main and @`entry` swap names everywhere they appear (outside
// string literals and comments), so calls keep working and line numbers stay
// those of the file. `entry` "main" returns the text unchanged; an entry the
// text does not define is NOT_FOUND.
StatusOr<std::string> SelectEntryFunction(std::string_view text, std::string_view entry);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_PROGRAM_FILE_H_
