// plugrt tests: runs a shell command and captures its output and exit code.
#ifndef PLUGRT_TESTS_TESTUTIL_RUN_COMMAND_H_
#define PLUGRT_TESTS_TESTUTIL_RUN_COMMAND_H_

#include <string>

namespace plugrt::testing {

struct CommandResult {
  int exit_code = -1;  // -1 when the command could not run or was killed
  std::string output;  // stdout and stderr interleaved
};

// Runs `command` through /bin/sh with stderr merged into stdout.
CommandResult RunCommand(const std::string& command);

// Runs the plugrt CLI (PLUGRT_CLI_PATH) with `arguments`.
CommandResult RunCli(const std::string& arguments);

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_RUN_COMMAND_H_
