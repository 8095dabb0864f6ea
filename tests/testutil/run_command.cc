#include "testutil/run_command.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstring>

namespace plugrt::testing {

CommandResult RunCommand(const std::string& command) {
  CommandResult result;
  // Grouped, so that every part of a list (background jobs included) writes
  // its errors into the result too.
  std::string full = "{ " + command + "\n} 2>&1";
  FILE* pipe = popen(full.c_str(), "r");
  if (pipe == nullptr) return result;
  char chunk[4096];
  while (size_t n = fread(chunk, 1, sizeof(chunk), pipe)) result.output.append(chunk, n);
  int status = pclose(pipe);
  if (status == -1) return result;
  if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  } else if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
    // The shell reports a command that a signal ended as 128 + the signal.
    if (result.exit_code > 128) result.signal = result.exit_code - 128;
  }
  return result;
}

CommandResult RunCli(const std::string& arguments) {
  return RunCommand(std::string(PLUGRT_CLI_PATH) + " " + arguments);
}

::testing::AssertionResult FailedWith(const CommandResult& result, int code,
                                      const std::string& message) {
  if (result.signal != 0) {
    return ::testing::AssertionFailure() << "killed by signal " << result.signal << " ("
                                         << strsignal(result.signal) << "), wanted exit code "
                                         << code << "; output:\n" << result.output;
  }
  if (result.exit_code != code) {
    return ::testing::AssertionFailure() << "exit code " << result.exit_code << ", wanted " << code
                                         << "; output:\n" << result.output;
  }
  if (result.output.find(message) == std::string::npos) {
    return ::testing::AssertionFailure() << "the output does not say \"" << message << "\":\n"
                                         << result.output;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace plugrt::testing
