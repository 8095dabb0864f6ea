#include "distributed/node_group.h"

namespace plugrt::distributed {

std::string NodesText(const std::vector<int>& nodes) {
  std::string text = "[";
  for (size_t i = 0; i < nodes.size(); ++i) text += StrCat(i ? ", " : "", nodes[i]);
  return text + "]";
}

StatusOr<int> RankInGroup(const std::vector<int>& nodes, int node_id, int num_nodes) {
  int rank = -1;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i] < 0 || nodes[i] >= num_nodes || (i > 0 && nodes[i] <= nodes[i - 1])) {
      return InvalidArgument("cross-process group ", NodesText(nodes),
                             ": nodes must be ascending, distinct and below ", num_nodes);
    }
    if (nodes[i] == node_id) rank = static_cast<int>(i);
  }
  if (rank < 0) {
    return InvalidArgument("cross-process group ", NodesText(nodes), " does not hold node ",
                           node_id);
  }
  return rank;
}

Status CheckSameGroup(std::string_view group_key, const std::vector<int>& known,
                      const std::vector<int>& nodes) {
  if (known == nodes) return OkStatus();
  return Internal("cross-process group key '", group_key, "' names nodes ", NodesText(known),
                  " and ", NodesText(nodes));
}

}  // namespace plugrt::distributed
