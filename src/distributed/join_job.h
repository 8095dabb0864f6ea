// plugrt distributed: a process joining its job from what its launcher set
// (distributed/cluster_environment.h): the create options a client needs
// (node_id, num_nodes, a thread budget for the process's share of its host,
// the address collectives listen on when the job spans hosts) and the job's
// key-value store: node 0 serves it over gRPC (distributed/coordinator_store.h)
// unless PLUGRT_KV_STORE names one. The CLI, the C++ client (before
// Client::Create) and the Python bindings join this way.
#ifndef PLUGRT_DISTRIBUTED_JOIN_JOB_H_
#define PLUGRT_DISTRIBUTED_JOIN_JOB_H_

#include <memory>
#include <optional>
#include <vector>

#include "common/key_value_store.h"
#include "common/named_value.h"
#include "common/status.h"
#include "distributed/cluster_environment.h"

namespace plugrt::distributed {

// Adds to `create_options` what the environment says of this process, and
// opens (or, on node 0, serves) the store into `store`. What the caller set
// wins: create options already present (node_id, num_nodes, threads,
// collectives_hostname), PLUGRT_THREADS / PLUGRT_COLLECTIVES_HOSTNAME, and
// a `store` already given. Returns the job's description, or nullopt for a
// plain run (nothing changed). Errors: the environment's (INVALID_ARGUMENT
// naming the variables), and UNAVAILABLE when the store cannot be served or
// reached within distributed_timeout_ms (create option, else
// PLUGRT_DISTRIBUTED_TIMEOUT_MS, else 60 s).
StatusOr<std::optional<ClusterEnvironment>> JoinJob(
    std::vector<NamedValue>& create_options, std::shared_ptr<KeyValueStore>& store,
    const EnvironmentLookup& env = ProcessEnvironment());

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_JOIN_JOB_H_
