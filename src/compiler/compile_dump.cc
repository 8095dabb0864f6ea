#include "compiler/compile_dump.h"

#include <cstdio>
#include <fstream>

#include "stablehlo/printer.h"

namespace plugrt::compiler {
namespace {

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

}  // namespace

const std::string* TextOverride(const CompileOptions& options, const char* name) {
  auto it = options.env_option_overrides.find(name);
  if (it == options.env_option_overrides.end()) return nullptr;
  return std::get_if<std::string>(&it->second);
}

CompileDump::CompileDump(const CompileOptions& options) {
  if (const std::string* dir = TextOverride(options, kDumpToOverride)) directory_ = *dir;
  if (const std::string* names = TextOverride(options, kPrintAfterOverride)) {
    std::string_view rest = *names;
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      if (!rest.substr(0, comma).empty()) print_after_.emplace_back(rest.substr(0, comma));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
}

passes::PassRunner::Observer CompileDump::Observer() {
  if (directory_.empty() || print_after_.empty()) return nullptr;
  return [this](std::string_view pass, const shlo::Module& module) {
    bool wanted = false;
    for (const std::string& name : print_after_) wanted = wanted || name == "all" || name == pass;
    if (!wanted) return;
    char number[16];
    std::snprintf(number, sizeof(number), "%02d", written_++);
    std::string file = StrCat("after.", number, ".", pass, ".mlir");
    for (char& c : file) {
      if (c == ':' || c == '/') c = '_';  // optimizer:NAME
    }
    WriteFile(StrCat(directory_, "/", file), shlo::PrintModule(module));
  };
}

void CompileDump::WriteReport(const passes::PassReport& report) const {
  if (directory_.empty()) return;
  WriteFile(StrCat(directory_, "/passes.txt"), report.ToString());
}

}  // namespace plugrt::compiler
