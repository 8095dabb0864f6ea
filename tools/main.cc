// plugrt: the command-line tool. Each subcommand lives in its own file.
#include <CLI/CLI.hpp>

#include "tools/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"plugrt: a standalone PJRT runtime. Drives the built-in CPU plugin, or any PJRT "
               "plugin given with --plugin.",
               "plugrt"};
  app.set_version_flag("--version", std::string("plugrt ") + PLUGRT_VERSION);
  app.require_subcommand(1);
  int exit_code = 0;
  plugrt::tools::RegisterDevicesCommand(app, exit_code);
  plugrt::tools::RegisterRunCommand(app, exit_code);
  plugrt::tools::RegisterCompileCommand(app, exit_code);
  plugrt::tools::RegisterInspectCommand(app, exit_code);
  plugrt::tools::RegisterConformanceCommands(app, exit_code);
  plugrt::tools::RegisterBenchCommand(app, exit_code);
  plugrt::tools::RegisterConvertCommand(app, exit_code);
  plugrt::tools::RegisterGradCommand(app, exit_code);
  plugrt::tools::RegisterPluginsCommand(app, exit_code);
  plugrt::tools::RegisterLaunchCommand(app, exit_code);
  plugrt::tools::RegisterServeCommand(app, exit_code);
  plugrt::tools::RegisterCompletionCommand(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version exit 0; usage errors exit 2, as is customary.
    return app.exit(error) == 0 ? 0 : 2;
  }
  return exit_code;
}
