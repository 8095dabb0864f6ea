// `plugrt run PROGRAM.mlir|FILE`: compiles a program (or loads a serialized
// executable), uploads .npy inputs, executes it and prints (or saves) the
// outputs.
#include <CLI/CLI.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "common/element_type.h"
#include "compile_options/compile_options.h"
#include "filesystem/file_io.h"
#include "client/executable.h"
#include "tools/array_format.h"
#include "tools/commands.h"
#include "client/element_decode.h"
#include "client/npy.h"
#include "tools/profile_output.h"
#include "tools/program_file.h"
#include "profiler/profile_files.h"

namespace plugrt::tools {
namespace {

struct RunOptions {
  PluginOptions plugin;
  std::string program;
  std::vector<std::string> inputs;
  std::string entry = "main";
  std::string output_dir;
  std::string profile_path;  // --profile FILE.json
  int repeat = 1;            // --repeat N
  ProgramReadFlags read;     // --fill-elided, --format
  bool no_ceilings = false;  // --no-ceilings
};

// Output file for output `index` of device `device` (of `devices`).
std::string OutputName(size_t index, size_t device, size_t devices) {
  if (devices == 1) return "out" + std::to_string(index) + ".npy";
  return "device" + std::to_string(device) + "_out" + std::to_string(index) + ".npy";
}

Status Run(const RunOptions& options) {
  std::vector<HostArray> inputs;
  for (const std::string& path : options.inputs) {
    PLUGRT_ASSIGN_OR_RETURN(HostArray array, ReadNpyFile(path));
    inputs.push_back(std::move(array));
  }

  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, OpenClient(options.plugin));
  // The profile covers compile, uploads, every run and the downloads.
  std::unique_ptr<ProfilerSession> profile;
  if (!options.profile_path.empty()) {
    PLUGRT_ASSIGN_OR_RETURN(profile, ProfilerSession::Start(client->plugin().get()));
    if (!profile->plugin_profiled()) {
      std::cerr << "plugrt run: note: the plugin has no PJRT profiler extension; the profile "
                   "holds the client's side only\n";
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(LoadedExecutable executable,
                          LoadProgramFile(*client, options.program, options.entry,
                                                          options.read));
  PLUGRT_ASSIGN_OR_RETURN(std::vector<Device> devices, executable.addressable_devices());
  if (devices.empty()) return FailedPrecondition("the compiled program has no devices to run on");

  // Every device gets the same inputs (replicated programs).
  std::vector<std::vector<Buffer>> uploaded(devices.size());
  std::vector<std::vector<Buffer*>> argument_lists(devices.size());
  for (size_t d = 0; d < devices.size(); ++d) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      Client::HostBuffer host(inputs[i].data.data(), inputs[i].type, inputs[i].dims);
      auto result = client->BufferFromHostBuffer(host, devices[d]);
      if (!result.ok()) {
        return Status(result.status().code(), StrCat(options.inputs[i], ": upload failed: ",
                                                     result.status().message()));
      }
      PLUGRT_RETURN_IF_ERROR(result->second.Await());
      uploaded[d].push_back(std::move(result->first));
    }
    for (Buffer& buffer : uploaded[d]) argument_lists[d].push_back(&buffer);
  }

  StatusOr<std::vector<std::vector<Buffer>>> outputs = executable.Execute(argument_lists);
  // --repeat: later runs replace the outputs (a profile then shows steady
  // runs after the first, which pays for first touches of memory).
  for (int r = 1; r < options.repeat && outputs.ok(); ++r) {
    outputs = executable.Execute(argument_lists);
  }
  if (!outputs.ok()) {
    return Status(outputs.status().code(),
                  StrCat(options.program, ": execution failed: ",
                         NameProgramFile(outputs.status().message(), options.program)));
  }

  if (!options.output_dir.empty()) {
    Status created = fs::RecursivelyCreateDir(options.output_dir);
    if (!created.ok()) {
      return Status(created.code(), StrCat(options.output_dir, ": cannot create the output folder (",
                                           created.message(), ")"));
    }
  }
  std::ostream& out = std::cout;
  for (size_t d = 0; d < outputs->size(); ++d) {
    const std::vector<Buffer>& row = (*outputs)[d];
    for (size_t o = 0; o < row.size(); ++o) {
      PLUGRT_ASSIGN_OR_RETURN(PJRT_Buffer_Type type, row[o].element_type());
      PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> dims, row[o].dimensions());
      out << "output " << o;
      if (outputs->size() > 1) out << " (device " << d << ")";
      out << ": " << ShapeString(type, dims) << "\n";
      if (type == PJRT_Buffer_Type_TOKEN) {
        out << "token\n";
        continue;
      }
      PLUGRT_ASSIGN_OR_RETURN(std::vector<std::byte> bytes, row[o].ToHostVector());
      PLUGRT_ASSIGN_OR_RETURN(std::string text, FormatArray(type, dims, bytes.data(), bytes.size()));
      out << text << "\n";
      if (!options.output_dir.empty()) {
        std::string path = fs::JoinPath(options.output_dir, OutputName(o, d, outputs->size()));
        HostArray array{type, dims, std::move(bytes)};
        PLUGRT_ASSIGN_OR_RETURN(NpySaveType save, NpySaveTypeFor(type));
        PLUGRT_RETURN_IF_ERROR(WriteNpyFile(path, array));
        if (save.widened) {
          std::cerr << "note: " << path << ": " << ElementTypeName(type)
                    << " has no NumPy dtype; saved as " << NumpyTypeName(save.saved_type)
                    << "\n";
        }
      }
    }
  }
  if (profile != nullptr) {
    profiler::Ceilings ceilings;
    if (!options.no_ceilings) {
      StatusOr<profiler::Ceilings> measured = MeasureSummaryCeilings(OnlineCores());
      if (measured.ok()) {
        ceilings = *measured;
      } else {
        std::cerr << "plugrt run: note: ceilings not measured: " << measured.status().ToString()
                  << "\n";
      }
    }
    PLUGRT_ASSIGN_OR_RETURN(std::string summary,
                            WriteProfile(*profile, options.profile_path, ceilings));
    std::cerr << summary << "profile: " << options.profile_path << " (open in ui.perfetto.dev or "
              << "chrome://tracing), summary: " << profiler::SummaryPathFor(options.profile_path)
              << "\n";
  }
  return OkStatus();
}

}  // namespace

void AddFillElidedOption(CLI::App* command, std::string& fill_elided) {
  command->add_option(
      "--fill-elided", fill_elided,
      "fill constants the file left out (HLO text's constant({...}), "
      "dense_resource<__elided__>) with zeros, random or random:SEED values, so a program "
      "printed without its weights can be timed; default: refuse it");
}

void AddProgramReadOptions(CLI::App* command, ProgramReadFlags& read) {
  AddFillElidedOption(command, read.fill_elided);
  command->add_option("--format", read.format,
                      "program format: mlir (default: StableHLO or MHLO text or bytecode, or "
                      "XLA's HLO text, told by content), hlo (a serialized xla.HloModuleProto, as "
                      "PyTorch/XLA and TensorFlow hand plugins), hlo_with_config")
      ->check(CLI::IsMember({"mlir", "hlo", "hlo_with_config"}));
}

StatusOr<LoadedExecutable> LoadProgramFile(const Client& client, const std::string& path,
                                           const std::string& entry,
                                           const ProgramReadFlags& read) {
  PLUGRT_ASSIGN_OR_RETURN(std::string bytes, ReadProgramFile(path));
  if (std::string_view(bytes).substr(0, kSerializedExecutableMagic.size()) ==
      kSerializedExecutableMagic) {
    if (entry != "main") {
      return InvalidArgument(path, ": --entry ", entry, " cannot apply to a serialized "
                             "executable; its entry function was chosen when it was compiled");
    }
    StatusOr<LoadedExecutable> loaded = client.DeserializeAndLoad(bytes);
    if (!loaded.ok()) {
      return Status(loaded.status().code(),
                    StrCat(path, ": loading the serialized executable failed: ",
                           loaded.status().message()));
    }
    return loaded;
  }
  // PJRT_Program carries no entry name and plugins run @main.
  StatusOr<std::string> program = read.format == "mlir" ? SelectEntryFunction(bytes, entry)
                                  : entry == "main"
                                      ? StatusOr<std::string>(std::move(bytes))
                                      : StatusOr<std::string>(InvalidArgument(
                                            "--entry applies to format mlir only"));
  if (!program.ok()) return NameProgramFile(program.status(), path);
  return CompileProgram(client, *program, path, read);
}

StatusOr<LoadedExecutable> CompileProgram(const Client& client, std::string_view program,
                                          const std::string& path, const ProgramReadFlags& read) {
  CompileOptions compile_options;
  if (!read.fill_elided.empty()) {
    compile_options.env_option_overrides[kFillElidedOverride] = read.fill_elided;
  }
  StatusOr<LoadedExecutable> compiled =
      client.Compile(program, compile_options, read.format);
  if (!compiled.ok()) {
    return Status(compiled.status().code(),
                  StrCat(path, ": compile failed: ",
                         NameProgramFile(compiled.status().message(), path)));
  }
  return compiled;
}

void RegisterRunCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand(
      "run", "Compile a StableHLO program (or load a serialized executable), run it on .npy "
             "inputs and print its outputs");
  command->add_option("program", options->program,
                      "program file (StableHLO MLIR text, a .mlirbc/.mlir.bc portable artifact) or "
                      "serialized executable "
                      "(from plugrt compile)")
      ->required();
  command->add_option("--input,-i", options->inputs,
                      "a .npy file for each argument of @main, in order (repeat the option)");
  command->add_option("--entry", options->entry,
                      "function to run (default main); it runs as @main");
  command->add_option("--output,-o", options->output_dir,
                      "folder to write the outputs to as out0.npy, out1.npy, ...");
  command->add_option("--profile", options->profile_path,
                      "record a profile: Chrome trace JSON to FILE (Perfetto, chrome://tracing), a "
                      "text summary beside it (FILE without .json + .summary.txt), also printed "
                      "on standard error");
  command->add_option("--repeat", options->repeat, "run the program N times (default 1)")
      ->check(CLI::Range(1, 1000000));
  AddProgramReadOptions(command, options->read);
  command->add_flag("--no-ceilings", options->no_ceilings,
                    "with --profile: do not measure the machine's GEMM and bandwidth ceilings for "
                    "the summary (about a second)");
  AddPluginOptions(*command, options->plugin);
  command->callback([options, &exit_code] {
    Status status = Run(*options);
    if (!status.ok()) {
      std::cerr << "plugrt run: " << status.ToString() << "\n";
      exit_code = 1;
    }
  });
}

}  // namespace plugrt::tools
