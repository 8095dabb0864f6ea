#include "testutil/run_command.h"

#include <sys/wait.h>

#include <cstdio>

namespace plugrt::testing {

CommandResult RunCommand(const std::string& command) {
  CommandResult result;
  std::string full = command + " 2>&1";
  FILE* pipe = popen(full.c_str(), "r");
  if (pipe == nullptr) return result;
  char chunk[4096];
  while (size_t n = fread(chunk, 1, sizeof(chunk), pipe)) result.output.append(chunk, n);
  int status = pclose(pipe);
  if (status != -1 && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

CommandResult RunCli(const std::string& arguments) {
  return RunCommand(std::string(PLUGRT_CLI_PATH) + " " + arguments);
}

}  // namespace plugrt::testing
