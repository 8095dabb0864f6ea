// `plugrt conformance-file FILE` (hidden): runs one conformance file in this
// process and reports each section in the protocol of
// tools/conformance_protocol.h. The runner starts one per file so that a
// crash or hang takes down only this process.
#include <CLI/CLI.hpp>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "client/executable.h"
#include "stablehlo/bytecode/reader.h"
#include "tools/commands.h"
#include "tools/conformance_protocol.h"
#include "tools/program_file.h"

namespace plugrt::tools {
namespace {

struct Section {
  int first_line = 1;  // 1-based line of the section's first line in the file
  std::string text;
};

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

// Splits on lines starting with "// -----" (interpreter-style files); a
// file without one is a single section. Sections of only comments and
// blank lines (e.g. after a trailing separator) are dropped.
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
    if (!HasCode(section.text)) continue;
    // Leading blank lines keep the plugin's line numbers those of the file.
    section.text.insert(0, static_cast<size_t>(section.first_line - 1), '\n');
    kept.push_back(std::move(section));
  }
  return kept;
}

// The first line of an error, with the plugin's placeholder name for the
// program text replaced by the file (section line numbers are the file's).
std::string Reason(const std::string& message, const std::string& path) {
  std::string line = NameProgramFile(message.substr(0, message.find('\n')), path);
  return line.empty() ? "(no message)" : line;
}

Status RunSection(Client& client, const Section& section) {
  PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable executable, client.Compile(section.text));
  // The programs take no arguments: each builds its inputs and checks its
  // results itself; a failed check is an execution error.
  PLUGRT_ASSIGN_OR_RETURN(auto outputs, executable.Execute({}));
  (void)outputs;
  return OkStatus();
}

Status RunFile(const std::string& path, const PluginOptions& plugin) {
  PLUGRT_ASSIGN_OR_RETURN(std::string contents, ReadProgramFile(path));
  // A portable artifact is one program; only text has `// -----` sections.
  std::vector<Section> sections = shlo::IsMlirBytecode(contents)
                                      ? std::vector<Section>{Section{1, std::move(contents)}}
                                      : SplitSections(contents);
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, OpenClient(plugin));

  std::ostream& out = std::cout;
  out << kConformancePrefix << "sections " << sections.size() << std::endl;
  for (size_t k = 0; k < sections.size(); ++k) {
    Status status = RunSection(*client, sections[k]);
    out << kConformancePrefix << "section " << k + 1 << ' ' << sections[k].first_line;
    if (status.ok()) {
      out << " pass";
    } else {
      out << " fail " << StatusCodeName(status.code()) << ' ' << Reason(status.message(), path);
    }
    out << std::endl;  // flushed: the runner learns progress even if we die next
  }
  out << kConformancePrefix << "done" << std::endl;
  return OkStatus();
}

}  // namespace

void RegisterConformanceFileCommand(CLI::App& app, int& exit_code) {
  struct Options {
    std::string file;
    PluginOptions plugin;
  };
  auto options = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(std::string(kConformanceFileCommand),
                                         "Run one conformance file (used by `conformance`)");
  command->group("");  // hidden from --help
  command->add_option("file", options->file, "program file")->required();
  AddPluginOptions(*command, options->plugin);
  options->plugin.conformance_harness = true;
  command->callback([options, &exit_code] {
    Status status = RunFile(options->file, options->plugin);
    if (!status.ok()) {
      std::cerr << "plugrt conformance-file: " << status.ToString() << "\n";
      exit_code = 1;
    }
  });
}

}  // namespace plugrt::tools
