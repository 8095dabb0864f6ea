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
  CLI11_PARSE(app, argc, argv);
  return exit_code;
}
