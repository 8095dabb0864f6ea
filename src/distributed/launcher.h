// plugrt distributed: starting the processes of a job on this machine
// (`plugrt launch`). Each process gets its place through the environment
// (PLUGRT_NODE_ID, PLUGRT_NUM_NODES, PLUGRT_KV_STORE:
// distributed/cluster_environment.h); its output lines are forwarded with a
// "[node K] " prefix. When one process fails, the others are stopped (SIGTERM, then SIGKILL after a grace time)
// and the job ends with the first failure's status.
#ifndef PLUGRT_DISTRIBUTED_LAUNCHER_H_
#define PLUGRT_DISTRIBUTED_LAUNCHER_H_

#include <chrono>
#include <string>
#include <vector>

#include "common/status.h"

namespace plugrt::distributed {

struct LaunchSpec {
  int num_processes = 1;
  std::vector<std::string> command;  // run through execvp; [0] may be "plugrt" (this executable)
  // The store's address; empty: a fresh directory under $TMPDIR (file:),
  // removed when the job ends.
  std::string store;
  std::chrono::milliseconds grace{2000};
  // Where the prefixed lines go.
  int output_fd = 1;
};

struct LaunchResult {
  int exit_code = 0;          // the first failure's (128 + signal when killed), else 0
  int first_failed_node = -1;  // -1: none failed
  std::string failure;        // "node 1 exited with status 3", "node 0 was killed by signal 9"
};

// INVALID_ARGUMENT for an empty command or a process count below 1;
// UNAVAILABLE when processes cannot be started.
StatusOr<LaunchResult> Launch(const LaunchSpec& spec);

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_LAUNCHER_H_
