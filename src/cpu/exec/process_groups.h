// plugrt CPU executor: process groups of collective ops (StableHLO spec,
// "Collective ops"): which processes (replica, partition) communicate,
// derived from replica_groups / channel_handle / use_global_device_ids.
// Processes are named by flattened id: replica * num_partitions + partition.
#ifndef PLUGRT_CPU_EXEC_PROCESS_GROUPS_H_
#define PLUGRT_CPU_EXEC_PROCESS_GROUPS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "common/status.h"
#include "stablehlo/ir.h"

namespace plugrt::cpu {

enum class GroupMode {
  kCrossReplica,              // groups of replica ids, one set per partition
  kCrossPartition,            // groups of partition ids, one set per replica
  kCrossReplicaAndPartition,  // groups of replica ids, each with every partition
  kFlattenedIds,              // groups of flattened ids
};

// The shape of a running execution.
struct ProcessGrid {
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
  int64_t num_processes() const { return num_replicas * num_partitions; }
  int64_t Flatten(int64_t replica, int64_t partition) const {
    return replica * num_partitions + partition;
  }
};

// An Nx M integer attribute (replica_groups, source_target_pairs) as N rows;
// -1 entries (padding of ragged groups) are dropped.
StatusOr<std::vector<std::vector<int64_t>>> GroupsFromAttribute(const shlo::Attribute& attr);

// The process group of `mode` over `groups` that contains the process
// (replica, partition), as flattened ids in the spec's order; nullopt when
// the process is in no group. An empty `groups` means one group of every id.
// INVALID_ARGUMENT for ids out of range or repeated.
StatusOr<std::optional<std::vector<int64_t>>> GroupOfProcess(
    GroupMode mode, const std::vector<std::vector<int64_t>>& groups, const ProcessGrid& grid,
    int64_t replica, int64_t partition);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_PROCESS_GROUPS_H_
