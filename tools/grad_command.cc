// `plugrt grad PROGRAM --wrt 0,1 [-o GRAD.mlir]`: the gradient program of a
// StableHLO program's entry function (autodiff/gradient_program.h), written
// as StableHLO text (to stdout without -o), verified; `plugrt run` runs it.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>

#include "autodiff/gradient_program.h"
#include "eager/context.h"
#include "filesystem/file_io.h"
#include "compiler/importers/bytecode/reader.h"
#include "compiler/importers/read_program.h"
#include "stablehlo/printer.h"
#include "tools/commands.h"
#include "tools/program_file.h"

namespace plugrt::tools {
namespace {

struct GradOptions {
  std::string input;
  std::string output;
  PluginOptions plugin;
  autodiff::GradientProgramOptions gradient;
};

Status Grad(const GradOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(std::string bytes, ReadProgramFile(options.input));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<shlo::Module> module,
                          shlo::ReadProgram(bytes, options.input));
  // The eager layer the trace runs in needs a client; nothing is run on it.
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, OpenClient(options.plugin));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<eager::Context> context,
                          eager::Context::Create(std::shared_ptr<Client>(std::move(client))));
  StatusOr<std::string> text =
      autodiff::GradientProgram(*context, shlo::PrintModule(*module), options.gradient);
  if (!text.ok()) return NameProgramFile(text.status(), options.input);
  if (options.output.empty()) {
    std::cout << *text;
    return OkStatus();
  }
  return fs::WriteFile(options.output, *text);
}

}  // namespace

void RegisterGradCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<GradOptions>();
  CLI::App* command = app.add_subcommand(
      "grad",
      "Write the gradient program of a StableHLO program: @main takes the same arguments "
      "and returns d(results)/d(argument) for each --wrt argument (each result weighted by "
      "ones, or by extra output-gradient arguments with --vjp)");
  command->add_option("input", options->input,
                      "program file: StableHLO MLIR text or a .mlirbc/.mlir.bc portable artifact")
      ->required();
  command->add_option("--wrt", options->gradient.wrt,
                      "argument indices to differentiate with respect to, comma-separated "
                      "(default: every floating-point argument)")
      ->delimiter(',');
  command->add_option("--output,-o", options->output, "file to write (default: stdout)");
  command->add_option("--entry", options->gradient.entry,
                      "function to differentiate (default: main)");
  command->add_flag("--value", options->gradient.with_value,
                    "also return the function's results, before the gradients");
  command->add_flag("--vjp", options->gradient.vjp,
                    "take one output gradient per result as extra arguments, after the "
                    "function's");
  command->add_option("--sgd", options->gradient.sgd_learning_rate,
                      "write a training step instead: each --wrt argument minus this learning "
                      "rate times its gradient, in the gradients' places (with --value: the "
                      "loss first)");
  AddPluginOptions(*command, options->plugin);
  command->callback([options, &exit_code] {
    Status status = Grad(*options);
    if (!status.ok()) {
      std::cerr << "plugrt grad: " << status.ToString() << "\n";
      exit_code = 1;
    }
  });
}

}  // namespace plugrt::tools
