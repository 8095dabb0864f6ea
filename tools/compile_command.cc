// `plugrt compile PROGRAM.mlir -o FILE`: compiles a program ahead of time for
// a topology (no client, no devices) and writes the serialized executable,
// which `plugrt run FILE` loads and runs later.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "client/compiler.h"
#include "client/plugin.h"
#include "client/plugin_discovery.h"
#include "filesystem/file_io.h"
#include "tools/commands.h"
#include "tools/program_file.h"

namespace plugrt::tools {
namespace {

struct CompileCommandOptions {
  std::string plugin_path;
  std::string program;
  std::string output;
  std::string topology;
  std::string entry = "main";
  std::optional<int64_t> replicas;
  std::optional<int64_t> partitions;
  std::vector<std::string> kernels;     // --kernels: the topology's kernel plugins
  std::vector<std::string> optimizers;  // --optimizers: its optimizer plugins
  bool show_passes = false;             // --passes: print the pass report
  std::vector<std::string> print_after;  // --print-after PASS (repeatable; "all")
  std::vector<std::string> pass_switches;  // --pass NAME=on|off (repeatable)
};

// A fresh directory for the compile's report, removed when done.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "plugrt-passes-XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// What the compile left in `dir`: the module after each --print-after pass
// (in pipeline order), then the pass report if --passes.
void PrintDump(const std::string& dir, bool show_passes) {
  std::vector<std::filesystem::path> modules;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.path().filename().string().rfind("after.", 0) == 0) modules.push_back(entry.path());
  }
  std::sort(modules.begin(), modules.end());
  auto print = [](const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::cout << in.rdbuf();
  };
  for (const auto& path : modules) {
    std::string name = path.filename().string();  // after.NN.PASS.mlir
    name = name.substr(9, name.size() - 9 - 5);
    std::cout << "// ----- module after " << name << " -----\n";
    print(path);
  }
  if (show_passes && std::filesystem::exists(std::filesystem::path(dir) / "passes.txt")) {
    char header[80];
    std::snprintf(header, sizeof(header), "%-28s %-9s %13s\n", "pass", "kind", "time");
    std::cout << header;
    print(std::filesystem::path(dir) / "passes.txt");
  }
}

// Through the filesystem registry: the output may be on any scheme.
Status WriteFile(const std::string& path, const std::string& bytes) {
  return fs::WriteFile(path, bytes);
}

Status CompileProgram(const CompileCommandOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(std::string text, ReadProgramFile(options.program));
  StatusOr<std::string> program = SelectEntryFunction(text, options.entry);
  if (!program.ok()) return NameProgramFile(program.status(), options.program);

  CompileOptions compile_options;
  compile_options.num_replicas = options.replicas;
  compile_options.num_partitions = options.partitions;
  std::string switches;
  for (const std::string& entry : options.pass_switches) {
    switches += (switches.empty() ? "" : ",") + entry;
  }
  if (!switches.empty()) compile_options.env_option_overrides[kPassesOverride] = switches;
  std::optional<TempDir> dump;
  if (options.show_passes || !options.print_after.empty()) {
    dump.emplace();
    if (dump->path().empty()) return Internal("cannot create a temporary directory for --passes");
    compile_options.env_option_overrides[kDumpToOverride] = dump->path();
    std::string names;
    for (const std::string& name : options.print_after) names += (names.empty() ? "" : ",") + name;
    if (!names.empty()) compile_options.env_option_overrides[kPrintAfterOverride] = names;
  }
  std::string topology = options.topology;
  if (topology.empty()) {
    const int64_t devices = options.replicas.value_or(1) * options.partitions.value_or(1);
    topology = devices == 1 ? "cpu" : "cpu:" + std::to_string(devices);
  }

  const std::string path =
      options.plugin_path.empty() ? DefaultPluginPath() : options.plugin_path;
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, LoadPlugin(path));
  std::vector<NamedValue> topology_options;
  AddKernelPluginsOption(options.kernels, topology_options);
  AddPathListOption("optimizer_plugins", options.optimizers, topology_options);
  StatusOr<Compiler> compiler = Compiler::Create(plugin, topology, topology_options);
  // The plugin's message names the topology.
  if (!compiler.ok()) return compiler.status();
  StatusOr<Executable> executable = compiler->Compile(*program, compile_options);
  // The report names the pass that failed, so it is shown either way.
  if (dump) PrintDump(dump->path(), options.show_passes);
  if (!executable.ok()) {
    return Status(executable.status().code(),
                  StrCat(options.program, ": compile for topology '", topology, "' failed: ",
                         NameProgramFile(executable.status().message(), options.program),
                         options.topology.empty() ? " (choose the topology with --topology, or "
                                                    "give --replicas / --partitions)"
                                                  : ""));
  }
  StatusOr<std::string> bytes = executable->Serialize();
  if (!bytes.ok()) {
    return Status(bytes.status().code(), StrCat(options.program, ": serializing the compiled "
                                                "executable failed: ", bytes.status().message()));
  }
  PLUGRT_RETURN_IF_ERROR(WriteFile(options.output, *bytes));
  std::cout << "wrote " << options.output << " (" << bytes->size() << " bytes, topology "
            << topology << ")\n";
  return OkStatus();
}

}  // namespace

void RegisterCompileCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CompileCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "compile",
      "Compile a StableHLO program ahead of time for a topology and write the serialized "
      "executable (run it later with `plugrt run FILE`)");
  command->add_option("program", options->program, "program file (StableHLO MLIR text)")
      ->required();
  command->add_option("--output,-o", options->output, "file to write the serialized executable to")
      ->required();
  command->add_option("--topology", options->topology,
                      "topology to compile for, e.g. cpu or cpu:4 (default: cpu:<replicas x "
                      "partitions>, or cpu)");
  command->add_option("--replicas", options->replicas, "number of replicas")
      ->check(CLI::Range(1, 1024));
  command->add_option("--partitions", options->partitions, "number of partitions")
      ->check(CLI::Range(1, 1024));
  command->add_option("--entry", options->entry,
                      "function to compile (default main); it becomes @main");
  command->add_option("--plugin", options->plugin_path,
                      "PJRT plugin to load: a name (see `plugrt plugins`) or the path of a "
                      "shared library exporting GetPjrtApi; default: the CPU plugin");
  AddKernelsOption(*command, options->kernels);
  AddOptimizersOption(*command, options->optimizers);
  command->add_flag("--passes", options->show_passes,
                    "print the compile pipeline: each pass, whether it ran, its time");
  command->add_option("--print-after", options->print_after,
                      "print the module after this pass (repeatable; 'all': after every pass)")
      ->allow_extra_args(false);
  command->add_option("--pass", options->pass_switches,
                      "switch a built-in pass: NAME=on|off|default (repeatable; passed as the "
                      "compile option plugrt_passes)")
      ->allow_extra_args(false);
  command->callback([options, &exit_code] {
    Status status = CompileProgram(*options);
    if (!status.ok()) {
      std::cerr << "plugrt compile: " << status.ToString() << "\n";
      exit_code = 1;
    }
  });
}

}  // namespace plugrt::tools
