// plugrt CLI: a process of a multi-process job joins it from its launcher's
// environment (`plugrt launch`, mpirun, srun, torchrun-style variables:
// distributed/cluster_environment.h); the plugin sees only create options
// and the key-value callbacks.
#ifndef PLUGRT_TOOLS_JOB_ENV_H_
#define PLUGRT_TOOLS_JOB_ENV_H_

#include "client/client.h"
#include "common/status.h"

namespace plugrt::tools {

// distributed::JoinJob on `options`: node_id / num_nodes, the process's
// thread share and the job's store when the environment describes a job.
Status AddJobOptions(ClientOptions& options);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_JOB_ENV_H_
