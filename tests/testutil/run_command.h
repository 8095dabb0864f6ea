// plugrt tests: runs a shell command and captures its output and exit code.
#ifndef PLUGRT_TESTS_TESTUTIL_RUN_COMMAND_H_
#define PLUGRT_TESTS_TESTUTIL_RUN_COMMAND_H_

#include <gtest/gtest.h>

#include <string>

namespace plugrt::testing {

struct CommandResult {
  int exit_code = -1;  // -1 when the command could not run or was killed
  int signal = 0;      // the signal that ended it, 0 when it exited by itself
  std::string output;  // stdout and stderr interleaved
};

// Runs `command` through /bin/sh with stderr merged into stdout.
CommandResult RunCommand(const std::string& command);

// Runs the plugrt CLI (PLUGRT_CLI_PATH) with `arguments`.
CommandResult RunCli(const std::string& arguments);

// Passes when the command failed as a user may rely on: it exited by itself
// with `code` (1: an error, 2: a usage error; never a crash, which a bare
// non-zero check would accept) and its output says `message`.
::testing::AssertionResult FailedWith(const CommandResult& result, int code,
                                      const std::string& message);

}  // namespace plugrt::testing

#endif  // PLUGRT_TESTS_TESTUTIL_RUN_COMMAND_H_
