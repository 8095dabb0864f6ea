#include "tools/program_file.h"

#include "filesystem/file_io.h"
#include "compiler/importers/bytecode/reader.h"
#include "compiler/importers/read_program.h"
#include "stablehlo/printer.h"

namespace plugrt::tools {

StatusOr<std::string> ReadProgramFile(const std::string& path) {
  return fs::ReadFile(path);
}

std::string NameProgramFile(std::string message, const std::string& path) {
  static constexpr std::string_view kPlaceholder = "<program>:";
  for (size_t at = message.find(kPlaceholder); at != std::string::npos;
       at = message.find(kPlaceholder, at + path.size() + 1)) {
    message.replace(at, kPlaceholder.size(), path + ":");
  }
  return message;
}

Status NameProgramFile(const Status& status, const std::string& path) {
  if (status.ok()) return status;
  return Status(status.code(), NameProgramFile(status.message(), path));
}

namespace {

bool IsSymbolChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '$' || c == '.' || c == '-';
}

// Calls `fn(start, end)` for every `@symbol` token outside string literals
// and `//` comments; [start, end) spans the name without '@'.
template <typename Fn>
void ForEachSymbol(std::string_view text, Fn fn) {
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
      ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '@') {
      size_t end = i + 1;
      while (end < text.size() && IsSymbolChar(text[end])) ++end;
      fn(i + 1, end);
      i = end;
    } else {
      ++i;
    }
  }
}

// Whether `text` defines `func.func ... @name`: the symbol follows
// "func.func" with only visibility words between.
bool DefinesFunction(std::string_view text, size_t symbol_start) {
  size_t at = symbol_start - 1;  // the '@'
  std::string_view before = text.substr(0, at);
  size_t line_start = before.rfind('\n');
  std::string_view line = before.substr(line_start == std::string_view::npos ? 0 : line_start + 1);
  size_t func = line.rfind("func.func");
  if (func == std::string_view::npos) return false;
  std::string_view between = line.substr(func + 9);
  for (std::string_view word : {"public", "private", "nested"}) {
    size_t found = between.find(word);
    if (found != std::string_view::npos) between.remove_prefix(found + word.size());
  }
  return between.find_first_not_of(" \t") == std::string_view::npos;
}

}  // namespace

StatusOr<std::string> SelectEntryFunction(std::string_view text, std::string_view entry) {
  if (entry == "main") return std::string(text);
  if (shlo::IsHloText(text)) {
    return InvalidArgument("--entry ", entry, ": HLO text runs its ENTRY computation; "
                           "mark the one to run ENTRY instead");
  }
  if (shlo::IsMlirBytecode(text)) {
    // A portable artifact: choose the entry in its printed form.
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module,
                            shlo::ReadBytecodeModule(text, "<program>"));
    return SelectEntryFunction(shlo::PrintModule(*module), entry);
  }
  if (entry.empty()) return InvalidArgument("--entry: the function name is empty");
  bool defined = false;
  ForEachSymbol(text, [&](size_t start, size_t end) {
    if (text.substr(start, end - start) == entry && DefinesFunction(text, start)) defined = true;
  });
  if (!defined) return NotFound("the program defines no function @", entry);
  // A name for the old @main that the program does not use.
  std::string old_main = "main_";
  while (text.find("@" + old_main) != std::string_view::npos) old_main += "_";
  std::string out;
  out.reserve(text.size() + 16);
  size_t copied = 0;
  ForEachSymbol(text, [&](size_t start, size_t end) {
    std::string_view name = text.substr(start, end - start);
    if (name != "main" && name != entry) return;
    out.append(text.substr(copied, start - copied));
    out.append(name == "main" ? old_main : std::string("main"));
    copied = end;
  });
  out.append(text.substr(copied));
  return out;
}

}  // namespace plugrt::tools
