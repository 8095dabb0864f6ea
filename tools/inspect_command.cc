// `plugrt inspect FILE|PROGRAM.mlir`: compiles a program (or loads a
// serialized executable) and prints its metadata as the plugin reports it.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "client/executable.h"
#include "common/element_type.h"
#include "common/named_value.h"
#include "tools/array_format.h"
#include "tools/commands.h"

namespace plugrt::tools {
namespace {

struct InspectOptions {
  PluginOptions plugin;
  std::string program;
  std::string entry = "main";
};

std::string NamedNumber(const NamedValue& value) {
  if (const float* f = std::get_if<float>(&value.value)) {
    std::ostringstream out;
    out.precision(9);
    out << *f;
    return out.str();
  }
  if (const int64_t* i = std::get_if<int64_t>(&value.value)) return std::to_string(*i);
  return NamedValueToString(value);
}

Status Inspect(const InspectOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, OpenClient(options.plugin));
  PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable loaded,
                          LoadProgramFile(*client, options.program, options.entry));
  PLUGRT_ASSIGN_OR_RETURN(Executable executable, loaded.GetExecutable());
  std::ostream& out = std::cout;

  PLUGRT_ASSIGN_OR_RETURN(std::string name, executable.name());
  PLUGRT_ASSIGN_OR_RETURN(int64_t replicas, executable.num_replicas());
  PLUGRT_ASSIGN_OR_RETURN(int64_t partitions, executable.num_partitions());
  PLUGRT_ASSIGN_OR_RETURN(std::vector<PJRT_Buffer_Type> types, executable.output_element_types());
  // A shape-polymorphic program's output shapes depend on its arguments:
  // the plugin answers FAILED_PRECONDITION and only the types are shown.
  StatusOr<std::vector<std::vector<int64_t>>> shapes = executable.output_dimensions();
  if (!shapes.ok() && shapes.status().code() != StatusCode::kFailedPrecondition) {
    return shapes.status();
  }
  const bool polymorphic = !shapes.ok();
  std::vector<std::vector<int64_t>> dims = polymorphic ? std::vector<std::vector<int64_t>>(types.size())
                                                       : *shapes;
  if (types.size() != dims.size()) {
    return Internal("the plugin reports ", types.size(), " output types but ", dims.size(),
                    " output shapes");
  }
  // Memory kinds are optional for plugins.
  StatusOr<std::vector<std::string>> kinds = executable.output_memory_kinds();
  out << "name: " << name << "\n";
  out << "replicas: " << replicas << "\n";
  out << "partitions: " << partitions << "\n";
  out << "outputs: " << types.size() << "\n";
  for (size_t i = 0; i < types.size(); ++i) {
    out << "  output " << i << ": ";
    if (polymorphic) {
      out << plugrt::ElementTypeName(types[i]) << "[shape depends on the arguments]";
    } else {
      out << ShapeString(types[i], dims[i]);
    }
    if (kinds.ok() && i < kinds->size()) out << " (memory " << (*kinds)[i] << ")";
    out << "\n";
  }

  StatusOr<std::vector<NamedValue>> cost = executable.cost_analysis();
  if (cost.ok()) {
    out << "cost analysis:\n";
    for (const NamedValue& value : *cost) out << "  " << value.name << ": " << NamedNumber(value) << "\n";
  } else {
    out << "cost analysis: unavailable (" << cost.status().ToString() << ")\n";
  }

  StatusOr<CompiledMemoryStats> memory = executable.compiled_memory_stats();
  if (memory.ok()) {
    out << "memory stats (bytes):\n";
    out << "  generated code: " << memory->generated_code_size_in_bytes << "\n";
    out << "  arguments: " << memory->argument_size_in_bytes << "\n";
    out << "  outputs: " << memory->output_size_in_bytes << "\n";
    out << "  aliased: " << memory->alias_size_in_bytes << "\n";
    out << "  temporaries: " << memory->temp_size_in_bytes << "\n";
    out << "  peak: " << memory->peak_memory_in_bytes << "\n";
    out << "  total: " << memory->total_size_in_bytes << "\n";
  } else {
    out << "memory stats: unavailable (" << memory.status().ToString() << ")\n";
  }

  StatusOr<int64_t> code_size = executable.size_of_generated_code_in_bytes();
  if (code_size.ok()) {
    out << "generated code size: " << *code_size << " bytes\n";
  } else {
    out << "generated code size: unavailable (" << code_size.status().ToString() << ")\n";
  }
  StatusOr<std::string> fingerprint = executable.fingerprint();
  if (fingerprint.ok()) {
    out << "fingerprint: " << *fingerprint << "\n";
  } else {
    out << "fingerprint: unavailable (" << fingerprint.status().ToString() << ")\n";
  }
  return OkStatus();
}

}  // namespace

void RegisterInspectCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<InspectOptions>();
  CLI::App* command = app.add_subcommand(
      "inspect", "Print an executable's metadata: outputs, replicas, cost analysis, memory "
                 "stats, fingerprint");
  command->add_option("program", options->program,
                      "program file (StableHLO MLIR text) or serialized executable "
                      "(from plugrt compile)")
      ->required();
  command->add_option("--entry", options->entry,
                      "function to compile for program text (default main)");
  AddPluginOptions(*command, options->plugin);
  command->callback([options, &exit_code] {
    Status status = Inspect(*options);
    if (!status.ok()) {
      std::cerr << "plugrt inspect: " << status.ToString() << "\n";
      exit_code = 1;
    }
  });
}

}  // namespace plugrt::tools
