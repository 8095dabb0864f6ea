// plugrt distributed: the groups of nodes a cross-process collective runs
// over, checked and named the same way by both backends (Gloo, MPI) and by
// the CPU backend's messages.
#ifndef PLUGRT_DISTRIBUTED_NODE_GROUP_H_
#define PLUGRT_DISTRIBUTED_NODE_GROUP_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace plugrt::distributed {

// "[0, 2, 3]", for messages.
std::string NodesText(const std::vector<int>& nodes);

// This node's position in `nodes`, which must be ascending, distinct, below
// `num_nodes` and hold `node_id`; INVALID_ARGUMENT naming the group otherwise.
StatusOr<int> RankInGroup(const std::vector<int>& nodes, int node_id, int num_nodes);

// INTERNAL when one group key is used for two different groups (the caller
// must give each group its own key).
Status CheckSameGroup(std::string_view group_key, const std::vector<int>& known,
                      const std::vector<int>& nodes);

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_NODE_GROUP_H_
