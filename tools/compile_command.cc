// `plugrt compile PROGRAM.mlir -o FILE`: compiles a program ahead of time for
// a topology (no client, no devices) and writes the serialized executable,
// which `plugrt run FILE` loads and runs later.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "client/compiler.h"
#include "client/plugin.h"
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
  std::vector<std::string> kernels;  // --kernels: the topology's kernel plugins
};

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
  std::string topology = options.topology;
  if (topology.empty()) {
    const int64_t devices = options.replicas.value_or(1) * options.partitions.value_or(1);
    topology = devices == 1 ? "cpu" : "cpu:" + std::to_string(devices);
  }

  const std::string path =
      options.plugin_path.empty() ? DefaultPluginPath() : options.plugin_path;
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Plugin> plugin, Plugin::Load(path));
  std::vector<NamedValue> topology_options;
  AddKernelPluginsOption(options.kernels, topology_options);
  StatusOr<Compiler> compiler = Compiler::Create(plugin, topology, topology_options);
  // The plugin's message names the topology.
  if (!compiler.ok()) return compiler.status();
  StatusOr<Executable> executable = compiler->Compile(*program, compile_options);
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
                      "PJRT plugin to load (a shared library exporting GetPjrtApi); "
                      "default: the built-in CPU plugin");
  AddKernelsOption(*command, options->kernels);
  command->callback([options, &exit_code] {
    Status status = CompileProgram(*options);
    if (!status.ok()) {
      std::cerr << "plugrt compile: " << status.ToString() << "\n";
      exit_code = 1;
    }
  });
}

}  // namespace plugrt::tools
