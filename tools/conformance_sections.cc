#include "tools/conformance_sections.h"

#include <sstream>

#include "client/executable.h"
#include "compile_options/compile_options.h"
#include "tools/program_file.h"
#include "tools/run_parallel_grid.h"

namespace plugrt::tools {
namespace {

bool HasCode(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos) continue;
    if (line.compare(start, 2, "//") == 0) continue;
    return true;
  }
  return false;
}

}  // namespace

std::vector<Section> SplitSections(const std::string& file) {
  std::vector<Section> sections(1);
  std::istringstream lines(file);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (line.rfind("// -----", 0) == 0) {
      sections.push_back(Section{number + 1, ""});
      continue;
    }
    sections.back().text += line;
    sections.back().text += '\n';
  }
  std::vector<Section> kept;
  for (Section& section : sections) {
    if (!HasCode(section.text)) continue;  // e.g. after a trailing separator
    section.text.insert(0, static_cast<size_t>(section.first_line - 1), '\n');
    kept.push_back(std::move(section));
  }
  return kept;
}

StatusOr<int> GridSize(const std::string& text) {
  int size = 0;
  for (int grid : RunParallelGridSizes(text)) {
    if (grid == 0) return InvalidArgument("a run_parallel whose 'programs' list cannot be read");
    if (size != 0 && grid != size) {
      return InvalidArgument("run_parallel grids of ", size, " and ", grid,
                             " processes in one section");
    }
    size = grid;
  }
  return size;
}

Status RunSectionAsMember(Client& client, const std::string& text) {
  // The section's main is a one-device program: each member runs it on its
  // own first device.
  CompileOptions options;
  options.device_ordinal = 0;
  PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable executable, client.Compile(text, options));
  PLUGRT_ASSIGN_OR_RETURN(auto outputs, executable.Execute({}));
  (void)outputs;
  return OkStatus();
}

std::string Reason(const std::string& message, const std::string& path) {
  std::string line = NameProgramFile(message.substr(0, message.find('\n')), path);
  return line.empty() ? "(no message)" : line;
}

}  // namespace plugrt::tools
