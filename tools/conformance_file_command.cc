// `plugrt conformance-file FILE` (hidden): runs one conformance file in this
// process and reports each section in the protocol of
// tools/conformance_protocol.h. The runner starts one per file so that a
// crash or hang takes down only this process. With --processes it runs each
// section holding interpreter.run_parallel grids as a job of one OS process
// per grid member, started by the launcher (distributed/launcher.h) as
// `conformance-file FILE --member K`: every member runs the whole section
// on its own device, its grid member's collectives cross processes.
#include <CLI/CLI.hpp>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "compiler/importers/hlo/hlo_text_writer.h"
#include "compiler/passes/lower_chlo.h"
#include "client/executable.h"
#include "compile_options/compile_options.h"
#include "distributed/launcher.h"
#include "compiler/importers/bytecode/reader.h"
#include "compiler/importers/read_program.h"
#include "tools/commands.h"
#include "tools/conformance_protocol.h"
#include "tools/conformance_sections.h"
#include "tools/program_file.h"

namespace plugrt::tools {
namespace {

// `via` "hlo": the program goes through XLA's HLO text first (StableHLO ->
// HLO text -> the HLO text reader), so the corpus checks the writer and the
// reader against each other.
Status RunSection(Client& client, const Section& section, const std::string& via) {
  std::string program = section.text;
  if (via == "hlo") {
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module,
                            shlo::ReadProgram(section.text, "<program>"));
    PLUGRT_RETURN_IF_ERROR(shlo::LowerChlo(*module));
    PLUGRT_ASSIGN_OR_RETURN(program, shlo::WriteHloText(*module));
  }
  PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable executable, client.Compile(program));
  // The programs take no arguments: each builds its inputs and checks its
  // results itself; a failed check is an execution error.
  PLUGRT_ASSIGN_OR_RETURN(auto outputs, executable.Execute({}));
  (void)outputs;
  return OkStatus();
}

// Runs section `index` (0-based) of `path` as this process's part of a job.
Status RunMember(const std::string& path, size_t index, const PluginOptions& plugin) {
  PLUGRT_ASSIGN_OR_RETURN(std::string contents, ReadProgramFile(path));
  std::vector<Section> sections = SplitSections(contents);
  if (index >= sections.size()) {
    return InvalidArgument(path, " has ", sections.size(), " sections, not ", index + 1);
  }
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, OpenClient(plugin));
  return RunSectionAsMember(*client, sections[index].text);
}

// Runs section `index` of `path` as a job of `size` processes; the first
// failed member's reason.
Status RunSectionAsJob(const std::string& path, size_t index, int size,
                       const PluginOptions& plugin) {
  std::string log_path = (std::filesystem::temp_directory_path() / "plugrt-members-XXXXXX").string();
  const int log = ::mkstemp(log_path.data());
  if (log < 0) return Internal("cannot make a temporary file for the members' output");
  distributed::LaunchSpec spec;
  spec.num_processes = size;
  spec.command = {"plugrt", std::string(kConformanceFileCommand), path, "--member",
                  std::to_string(index + 1)};
  if (!plugin.plugin_path.empty()) {
    spec.command.push_back("--plugin");
    spec.command.push_back(plugin.plugin_path);
  }
  spec.output_fd = log;
  StatusOr<distributed::LaunchResult> launched = distributed::Launch(spec);
  ::close(log);
  std::ifstream in(log_path);
  std::string line, reason;
  const std::string marker = StrCat(kConformancePrefix, "member fail ");
  while (std::getline(in, line)) {
    const size_t found = line.find(marker);
    if (found == std::string::npos) continue;
    // "[node K] plugrt-conformance: member fail CODE REASON": the first
    // failed node's, else any.
    const bool first_failed = launched.ok() && launched->first_failed_node >= 0 &&
                              line.rfind(StrCat("[node ", launched->first_failed_node, "]"), 0) == 0;
    if (reason.empty() || first_failed) reason = line.substr(found + marker.size());
  }
  std::filesystem::remove(log_path);
  PLUGRT_RETURN_IF_ERROR(launched.status());
  if (launched->exit_code == 0) return OkStatus();
  std::istringstream words(reason);
  std::string code_name;
  words >> code_name >> std::ws;
  std::string text;
  std::getline(words, text);
  StatusCode code = StatusCode::kUnknown;
  for (int c = 0; c <= static_cast<int>(StatusCode::kUnauthenticated); ++c) {
    if (StatusCodeName(static_cast<StatusCode>(c)) == code_name) code = static_cast<StatusCode>(c);
  }
  if (reason.empty()) text = launched->failure;
  return Status(code, StrCat("[", launched->failure, "] ", text));
}

// --processes: the grid sections only, each as a job.
Status RunFileAsJobs(const std::string& path, const PluginOptions& plugin) {
  PLUGRT_ASSIGN_OR_RETURN(std::string contents, ReadProgramFile(path));
  std::vector<Section> sections = SplitSections(contents);
  std::vector<std::pair<size_t, StatusOr<int>>> grids;
  for (size_t k = 0; k < sections.size(); ++k) {
    StatusOr<int> size = GridSize(sections[k].text);
    if (!size.ok() || *size > 1) grids.emplace_back(k, size);
  }
  std::ostream& out = std::cout;
  out << kConformancePrefix << "sections " << grids.size() << std::endl;
  for (size_t g = 0; g < grids.size(); ++g) {
    const auto& [k, size] = grids[g];
    Status status = size.ok() ? RunSectionAsJob(path, k, *size, plugin) : size.status();
    out << kConformancePrefix << "section " << g + 1 << ' ' << sections[k].first_line;
    if (status.ok()) {
      out << " pass";
    } else {
      out << " fail " << StatusCodeName(status.code()) << ' ' << Reason(status.message(), path);
    }
    out << std::endl;
  }
  out << kConformancePrefix << "done" << std::endl;
  return OkStatus();
}

Status RunFile(const std::string& path, const PluginOptions& plugin, const std::string& via) {
  PLUGRT_ASSIGN_OR_RETURN(std::string contents, ReadProgramFile(path));
  // A portable artifact is one program; only text has `// -----` sections.
  std::vector<Section> sections = shlo::IsMlirBytecode(contents)
                                      ? std::vector<Section>{Section{1, std::move(contents)}}
                                      : SplitSections(contents);
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, OpenClient(plugin));

  std::ostream& out = std::cout;
  out << kConformancePrefix << "sections " << sections.size() << std::endl;
  for (size_t k = 0; k < sections.size(); ++k) {
    Status status = RunSection(*client, sections[k], via);
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
    bool processes = false;
    int member = 0;  // 1-based section; 0: not a member
    std::string via;   // "hlo": through HLO text
  };
  auto options = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(std::string(kConformanceFileCommand),
                                         "Run one conformance file (used by `conformance`)");
  command->group("");  // hidden from --help
  command->add_option("file", options->file, "program file")->required();
  AddPluginOptions(*command, options->plugin);
  options->plugin.conformance_harness = true;
  command->add_flag("--processes", options->processes,
                    "run the run_parallel grid sections as jobs of OS processes");
  command->add_option("--via", options->via, "hlo: run each program after a round trip "
                                              "through XLA's HLO text")
      ->check(CLI::IsMember({"hlo"}));
  command->add_option("--member", options->member,
                      "run section K as one process of a job (set up by the launcher)");
  command->callback([options, &exit_code] {
    if (options->member > 0) {
      Status status = RunMember(options->file, static_cast<size_t>(options->member - 1),
                                options->plugin);
      if (!status.ok()) {
        std::cout << kConformancePrefix << "member fail " << StatusCodeName(status.code()) << ' '
                  << Reason(status.message(), options->file) << std::endl;
        exit_code = 1;
      }
      return;
    }
    Status status = options->processes ? RunFileAsJobs(options->file, options->plugin)
                                       : RunFile(options->file, options->plugin, options->via);
    if (!status.ok()) {
      std::cerr << "plugrt conformance-file: " << status.ToString() << "\n";
      exit_code = 1;
    }
  });
}

}  // namespace plugrt::tools
