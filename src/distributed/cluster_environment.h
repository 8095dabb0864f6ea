// plugrt distributed: where a process of a job stands, read from the
// environment its launcher set, so that a job started by `mpirun`, `srun`,
// a Kubernetes indexed job or torchrun (and plugrt's own `plugrt launch`)
// needs no plugrt-specific variables.
//
// Read, in order of precedence:
//   PLUGRT_NODE_ID, PLUGRT_NUM_NODES    explicit settings (`plugrt launch` sets them)
//   OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK/LOCAL_SIZE, OMPI_MCA_orte_hnp_uri   Open MPI's mpirun
//   PMI_RANK, PMI_SIZE, MPI_LOCALRANKID, MPI_LOCALNRANKS   MPICH's Hydra (mpiexec)
//   SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, SLURM_STEP_NODELIST,
//   SLURM_STEP_NUM_NODES, SLURM_JOB_ID, SLURM_STEP_ID    Slurm's srun
//   RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT
//                                      torchrun and Kubernetes jobs
// The store: PLUGRT_KV_STORE (redis://, file:, grpc://HOST:PORT) when set,
// else PLUGRT_COORDINATOR (HOST:PORT), else the coordinator the launcher's
// variables imply: node 0 serves the store over gRPC at the first task's host
// (127.0.0.1 when every process runs on one host) and a port derived from the
// job's id in 61440..65535, above Linux's ephemeral range (MASTER_ADDR and
// MASTER_PORT as they are).
//
// A partial description (a rank without a size, a rank past the size) or two
// launchers that disagree about this process is INVALID_ARGUMENT naming the
// variables. An MPI launch inside a Slurm allocation is not a disagreement:
// the allocation's variables describe the allocation, mpirun's the process.
#ifndef PLUGRT_DISTRIBUTED_CLUSTER_ENVIRONMENT_H_
#define PLUGRT_DISTRIBUTED_CLUSTER_ENVIRONMENT_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace plugrt::distributed {

inline constexpr const char* kNodeIdEnv = "PLUGRT_NODE_ID";
inline constexpr const char* kNumNodesEnv = "PLUGRT_NUM_NODES";
inline constexpr const char* kKvStoreEnv = "PLUGRT_KV_STORE";
inline constexpr const char* kCoordinatorEnv = "PLUGRT_COORDINATOR";

// Ports derived from a job id fall in [kDerivedPortBase, 65535].
inline constexpr int kDerivedPortBase = 65536 - 4096;

// The environment: a variable's value, or nullopt when it is not set (an
// empty value counts as not set).
using EnvironmentLookup = std::function<std::optional<std::string>(std::string_view)>;
// The process's own environment.
EnvironmentLookup ProcessEnvironment();

struct ClusterEnvironment {
  // Which description was used: "plugrt", "openmpi", "mpich", "slurm",
  // "torchrun".
  std::string launcher;
  int node_id = 0;
  int num_nodes = 1;
  // This process among those of its host.
  int local_rank = 0;
  int local_size = 1;
  // Whether the job spans more than one host (as far as the launcher says).
  bool multi_host = false;
  // PLUGRT_KV_STORE's address; empty when the job uses a coordinator.
  std::string store;
  // HOST:PORT node 0 serves the store at; empty when `store` is set.
  std::string coordinator;
  // Where the coordinator came from, for messages: "PLUGRT_COORDINATOR",
  // "OMPI_MCA_orte_hnp_uri", ...
  std::string coordinator_source;
};

// nullopt when no launcher describes this process (a plain run). Errors as
// the header says.
StatusOr<std::optional<ClusterEnvironment>> DetectCluster(const EnvironmentLookup& env);

// The first host of a Slurm host list ("node[001-004,9],gpu1" -> "node001",
// "a[1-2]b[7,9]" -> "a1b7"); INVALID_ARGUMENT for an unbalanced bracket or an
// empty list.
StatusOr<std::string> FirstSlurmHost(std::string_view node_list);

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_CLUSTER_ENVIRONMENT_H_
