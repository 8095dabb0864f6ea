// `plugrt inspect FILE|PROGRAM.mlir`: compiles a program (or loads a
// serialized executable) and prints its metadata as the plugin reports it.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "client/executable.h"
#include "common/element_type.h"
#include "common/named_value.h"
#include "tools/array_format.h"
#include "tools/commands.h"
#include "tools/json_writer.h"

namespace plugrt::tools {
namespace {

struct InspectOptions {
  PluginOptions plugin;
  std::string program;
  ProgramReadFlags read;  // --fill-elided, --format
  std::string entry = "main";
  bool json = false;
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

// What `inspect` prints, gathered once for either output form. Facts a
// plugin may not offer keep their error.
struct Report {
  std::string name;
  int64_t replicas = 0;
  int64_t partitions = 0;
  std::vector<PJRT_Buffer_Type> types;
  // Empty for a shape-polymorphic program (its output shapes depend on its
  // arguments: the plugin answers FAILED_PRECONDITION).
  std::optional<std::vector<std::vector<int64_t>>> dims;
  StatusOr<std::vector<std::string>> kinds = Internal("not gathered");
  StatusOr<std::vector<NamedValue>> cost = Internal("not gathered");
  StatusOr<CompiledMemoryStats> memory = Internal("not gathered");
  StatusOr<int64_t> code_size = Internal("not gathered");
  StatusOr<std::string> fingerprint = Internal("not gathered");
};

StatusOr<Report> Gather(const Executable& executable) {
  Report r;
  PLUGRT_ASSIGN_OR_RETURN(r.name, executable.name());
  PLUGRT_ASSIGN_OR_RETURN(r.replicas, executable.num_replicas());
  PLUGRT_ASSIGN_OR_RETURN(r.partitions, executable.num_partitions());
  PLUGRT_ASSIGN_OR_RETURN(r.types, executable.output_element_types());
  StatusOr<std::vector<std::vector<int64_t>>> shapes = executable.output_dimensions();
  if (shapes.ok()) {
    if (r.types.size() != shapes->size()) {
      return Internal("the plugin reports ", r.types.size(), " output types but ", shapes->size(),
                      " output shapes");
    }
    r.dims = std::move(*shapes);
  } else if (shapes.status().code() != StatusCode::kFailedPrecondition) {
    return shapes.status();
  }
  r.kinds = executable.output_memory_kinds();  // optional for plugins
  r.cost = executable.cost_analysis();
  r.memory = executable.compiled_memory_stats();
  r.code_size = executable.size_of_generated_code_in_bytes();
  r.fingerprint = executable.fingerprint();
  return r;
}

void PrintText(const Report& r) {
  std::ostream& out = std::cout;
  out << "name: " << r.name << "\n";
  out << "replicas: " << r.replicas << "\n";
  out << "partitions: " << r.partitions << "\n";
  out << "outputs: " << r.types.size() << "\n";
  for (size_t i = 0; i < r.types.size(); ++i) {
    out << "  output " << i << ": ";
    if (!r.dims) {
      out << plugrt::ElementTypeName(r.types[i]) << "[shape depends on the arguments]";
    } else {
      out << ShapeString(r.types[i], (*r.dims)[i]);
    }
    if (r.kinds.ok() && i < r.kinds->size()) out << " (memory " << (*r.kinds)[i] << ")";
    out << "\n";
  }

  if (r.cost.ok()) {
    out << "cost analysis:\n";
    for (const NamedValue& value : *r.cost) out << "  " << value.name << ": " << NamedNumber(value) << "\n";
  } else {
    out << "cost analysis: unavailable (" << r.cost.status().ToString() << ")\n";
  }

  if (r.memory.ok()) {
    const CompiledMemoryStats& memory = *r.memory;
    out << "memory stats (bytes):\n";
    out << "  generated code: " << memory.generated_code_size_in_bytes << "\n";
    out << "  arguments: " << memory.argument_size_in_bytes << "\n";
    out << "  outputs: " << memory.output_size_in_bytes << "\n";
    out << "  aliased: " << memory.alias_size_in_bytes << "\n";
    out << "  temporaries: " << memory.temp_size_in_bytes << "\n";
    out << "  peak: " << memory.peak_memory_in_bytes << "\n";
    out << "  total: " << memory.total_size_in_bytes << "\n";
  } else {
    out << "memory stats: unavailable (" << r.memory.status().ToString() << ")\n";
  }

  if (r.code_size.ok()) {
    out << "generated code size: " << *r.code_size << " bytes\n";
  } else {
    out << "generated code size: unavailable (" << r.code_size.status().ToString() << ")\n";
  }
  if (r.fingerprint.ok()) {
    out << "fingerprint: " << *r.fingerprint << "\n";
  } else {
    out << "fingerprint: unavailable (" << r.fingerprint.status().ToString() << ")\n";
  }
}

// Unavailable facts are null, with their errors under "unavailable".
void PrintJson(const Report& r) {
  JsonWriter json(std::cout);
  json.BeginObject()
      .Key("name").String(r.name)
      .Key("replicas").Int(r.replicas)
      .Key("partitions").Int(r.partitions)
      .Key("outputs").BeginArray();
  for (size_t i = 0; i < r.types.size(); ++i) {
    json.BeginObject().Key("element_type").String(plugrt::ElementTypeName(r.types[i]));
    json.Key("dimensions");
    if (r.dims) {
      json.BeginArray();
      for (int64_t d : (*r.dims)[i]) json.Int(d);
      json.EndArray();
    } else {
      json.Null();  // depends on the arguments
    }
    if (r.kinds.ok() && i < r.kinds->size()) json.Key("memory_kind").String((*r.kinds)[i]);
    json.EndObject();
  }
  json.EndArray().Key("cost_analysis");
  if (r.cost.ok()) {
    json.BeginObject().NamedValues(*r.cost).EndObject();
  } else {
    json.Null();
  }
  json.Key("memory_stats");
  if (r.memory.ok()) {
    const CompiledMemoryStats& m = *r.memory;
    json.BeginObject()
        .Key("generated_code").Int(m.generated_code_size_in_bytes)
        .Key("arguments").Int(m.argument_size_in_bytes)
        .Key("outputs").Int(m.output_size_in_bytes)
        .Key("aliased").Int(m.alias_size_in_bytes)
        .Key("temporaries").Int(m.temp_size_in_bytes)
        .Key("peak").Int(m.peak_memory_in_bytes)
        .Key("total").Int(m.total_size_in_bytes)
        .EndObject();
  } else {
    json.Null();
  }
  json.Key("generated_code_size");
  if (r.code_size.ok()) json.Int(*r.code_size); else json.Null();
  json.Key("fingerprint");
  if (r.fingerprint.ok()) json.String(*r.fingerprint); else json.Null();
  json.Key("unavailable").BeginObject();
  if (!r.cost.ok()) json.Key("cost_analysis").String(r.cost.status().ToString());
  if (!r.memory.ok()) json.Key("memory_stats").String(r.memory.status().ToString());
  if (!r.code_size.ok()) json.Key("generated_code_size").String(r.code_size.status().ToString());
  if (!r.fingerprint.ok()) json.Key("fingerprint").String(r.fingerprint.status().ToString());
  json.EndObject().EndObject();
}

Status Inspect(const InspectOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, OpenClient(options.plugin));
  PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable loaded,
                          LoadProgramFile(*client, options.program, options.entry,
                                          options.read));
  PLUGRT_ASSIGN_OR_RETURN(Executable executable, loaded.GetExecutable());
  PLUGRT_ASSIGN_OR_RETURN(Report report, Gather(executable));
  if (options.json) {
    PrintJson(report);
  } else {
    PrintText(report);
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
  command->add_flag("--json", options->json, "print one JSON object instead of text");
  AddProgramReadOptions(command, options->read);
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
