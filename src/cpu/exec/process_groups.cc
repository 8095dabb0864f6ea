#include "cpu/exec/process_groups.h"

#include <set>

namespace plugrt::cpu {

StatusOr<std::vector<std::vector<int64_t>>> GroupsFromAttribute(const shlo::Attribute& attr) {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<int64_t> values, shlo::AttrToIntList(attr));
  int64_t rows = 1;
  int64_t columns = static_cast<int64_t>(values.size());
  if (attr.kind == shlo::Attribute::Kind::kDenseElements && attr.type.is_tensor()) {
    const std::vector<int64_t>& dims = attr.type.dims();
    if (dims.size() != 2) {
      return InvalidArgument("process groups must be a rank-2 tensor, got ",
                             attr.type.ToString());
    }
    rows = dims[0];
    columns = dims[1];
    if (rows < 0 || columns < 0 || rows * columns != static_cast<int64_t>(values.size())) {
      return InvalidArgument("process groups ", attr.type.ToString(), " hold ", values.size(),
                             " values");
    }
  } else if (values.empty()) {
    rows = 0;
  }
  std::vector<std::vector<int64_t>> groups;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<int64_t> group;
    for (int64_t c = 0; c < columns; ++c) {
      const int64_t id = values[r * columns + c];
      if (id == -1) continue;  // padding of a shorter group
      if (id < 0) return InvalidArgument("process group entry ", id, " is negative");
      group.push_back(id);
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

StatusOr<std::optional<std::vector<int64_t>>> GroupOfProcess(
    GroupMode mode, const std::vector<std::vector<int64_t>>& groups, const ProcessGrid& grid,
    int64_t replica, int64_t partition) {
  // The id space the groups name, and this process's id in it.
  int64_t domain = grid.num_replicas;
  int64_t own = replica;
  const char* what = "replica";
  if (mode == GroupMode::kCrossPartition) {
    domain = grid.num_partitions;
    own = partition;
    what = "partition";
  } else if (mode == GroupMode::kFlattenedIds) {
    domain = grid.num_processes();
    own = grid.Flatten(replica, partition);
    what = "flattened process";
  }

  std::vector<int64_t> found;
  bool in_group = false;
  if (groups.empty()) {
    for (int64_t id = 0; id < domain; ++id) found.push_back(id);
    in_group = true;
  } else {
    std::set<int64_t> seen;
    for (const std::vector<int64_t>& group : groups) {
      for (int64_t id : group) {
        if (id < 0 || id >= domain) {
          return InvalidArgument(what, " id ", id, " in the process groups is out of range: ",
                                 "the execution has ", domain, " of them");
        }
        if (!seen.insert(id).second) {
          return InvalidArgument(what, " id ", id, " appears in more than one process group");
        }
        if (id == own) {
          found = group;
          in_group = true;
        }
      }
    }
  }
  if (!in_group) return std::optional<std::vector<int64_t>>();

  std::vector<int64_t> processes;
  switch (mode) {
    case GroupMode::kCrossReplica:
      for (int64_t r : found) processes.push_back(grid.Flatten(r, partition));
      break;
    case GroupMode::kCrossPartition:
      for (int64_t p : found) processes.push_back(grid.Flatten(replica, p));
      break;
    case GroupMode::kCrossReplicaAndPartition:
      for (int64_t p = 0; p < grid.num_partitions; ++p) {
        for (int64_t r : found) processes.push_back(grid.Flatten(r, p));
      }
      break;
    case GroupMode::kFlattenedIds:
      processes = found;
      break;
  }
  return std::optional<std::vector<int64_t>>(std::move(processes));
}

}  // namespace plugrt::cpu
