// `plugrt convert IN -o OUT [--target X.Y.Z]`: a program, text or portable
// artifact (MLIR bytecode), written as a portable artifact for StableHLO
// X.Y.Z (default: the current version, 1.20.0). `--to text`: written in one
// canonical printed form instead: generic op syntax, values renumbered,
// attributes sorted by name, defaults left out, no locations, so two equal
// programs print byte-identically.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "filesystem/file_io.h"
#include "compiler/importers/bytecode/canonical.h"
#include "compiler/importers/bytecode/reader.h"
#include "compiler/importers/read_program.h"
#include "compiler/importers/bytecode/writer.h"
#include "compiler/importers/hlo/hlo_reader.h"
#include "compiler/importers/hlo/hlo_text_writer.h"
#include "compiler/passes/lower_chlo.h"
#include "stablehlo/printer.h"
#include "tools/commands.h"
#include "tools/program_file.h"

namespace plugrt::tools {
namespace {

struct ConvertOptions {
  std::string input;
  std::string output;
  std::string to = "bytecode";
  std::string target;
  std::string fill_elided;
};

Status Convert(const ConvertOptions& options) {
  if (options.to != "bytecode" && !options.target.empty()) {
    return InvalidArgument("--target applies to --to bytecode only");
  }
  PLUGRT_ASSIGN_OR_RETURN(std::string bytes, ReadProgramFile(options.input));
  shlo::ReadOptions read;
  PLUGRT_ASSIGN_OR_RETURN(read.elided, shlo::ElidedConstantFill::Parse(options.fill_elided));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module,
                          shlo::ReadProgram(bytes, options.input, read));
  std::string text;
  if (options.to == "hlo" || options.to == "hlo_proto") {
    // HLO has no CHLO ops: they are lowered to StableHLO first, as XLA does.
    PLUGRT_RETURN_IF_ERROR(shlo::LowerChlo(*module));
    PLUGRT_ASSIGN_OR_RETURN(text, shlo::WriteHloText(*module));
    if (options.to == "hlo_proto") {
      PLUGRT_ASSIGN_OR_RETURN(text, shlo::HloTextToProtoBytes(text, options.input));
    }
  } else if (options.to == "text") {
    shlo::CanonicalizeAttributeOrder(*module);
    text = shlo::PrintModule(*module);
  } else {
    PLUGRT_ASSIGN_OR_RETURN(text, shlo::WriteBytecodeModule(*module, options.target));
  }
  return fs::WriteFile(options.output, text);
}

}  // namespace

void RegisterConvertCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ConvertOptions>();
  CLI::App* command = app.add_subcommand(
      "convert",
      "Convert a program (StableHLO text or bytecode, XLA's HLO text) to a portable "
      "artifact (MLIR bytecode) or StableHLO text; "
      "--to text writes one canonical printed form without locations");
  command->add_option("input", options->input,
                      "program file: StableHLO (or MHLO) MLIR text, a .mlirbc/.mlir.bc portable "
                      "artifact, or XLA's HLO text")
      ->required();
  command->add_option("--output,-o", options->output, "file to write")->required();
  command->add_option("--to", options->to,
                      "output form: text (StableHLO), hlo (XLA's HLO text), hlo_proto (a "
                      "serialized xla.HloModuleProto, format hlo), or bytecode (default)")
      ->check(CLI::IsMember({"text", "bytecode", "hlo", "hlo_proto"}));
  command->add_option("--target", options->target,
                      "StableHLO version X.Y.Z (0.9.0 to 1.20.0) the artifact is written for "
                      "(--to bytecode; default 1.20.0)");
  AddFillElidedOption(command, options->fill_elided);
  command->callback([options, &exit_code] {
    Status status = Convert(*options);
    if (!status.ok()) {
      std::cerr << "plugrt convert: " << status.ToString() << "\n";
      exit_code = 1;
    }
  });
}

}  // namespace plugrt::tools
