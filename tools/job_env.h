// plugrt CLI: a process of a multi-process job started by `plugrt launch`
// learns its place from the environment launch sets:
//   PLUGRT_NODE_ID    this process's index (the node_id create option)
//   PLUGRT_NUM_NODES  the job's process count (num_nodes)
//   PLUGRT_KV_STORE   the key-value store's address (redis://HOST:PORT[/PREFIX]
//                     or file:DIR), handed to the plugin as its KV callbacks
// Only the CLI reads these; the plugin sees create options.
#ifndef PLUGRT_TOOLS_JOB_ENV_H_
#define PLUGRT_TOOLS_JOB_ENV_H_

#include "client/client.h"
#include "common/status.h"

namespace plugrt::tools {

inline constexpr const char* kNodeIdEnv = "PLUGRT_NODE_ID";
inline constexpr const char* kNumNodesEnv = "PLUGRT_NUM_NODES";
inline constexpr const char* kKvStoreEnv = "PLUGRT_KV_STORE";

// Adds node_id / num_nodes and the store to `options` when PLUGRT_NUM_NODES
// is set; INVALID_ARGUMENT naming the variable when the three do not make a
// job, UNAVAILABLE when the store cannot be reached.
Status AddJobOptions(ClientOptions& options);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_JOB_ENV_H_
