#include "distributed/gloo_communicator.h"

#include <gloo/allgather.h>
#include <gloo/allgatherv.h>
#include <gloo/rendezvous/context.h>
#include <gloo/transport/tcp/device.h>

#include <exception>

#include "distributed/gloo_store.h"

namespace plugrt::distributed {
namespace {

std::string NodesString(const std::vector<int>& nodes) {
  std::string text = "[";
  for (size_t i = 0; i < nodes.size(); ++i) text += StrCat(i ? ", " : "", nodes[i]);
  return text + "]";
}

}  // namespace

// One context per group key; `mu` keeps one operation at a time on it.
struct GlooCommunicator::Group {
  std::vector<int> nodes;
  int rank = 0;
  std::mutex mu;
  std::shared_ptr<gloo::rendezvous::Context> context;
  Status failed;  // once set, the context is not used again
};

GlooCommunicator::GlooCommunicator(std::shared_ptr<KeyValueStore> store, Options options)
    : store_(std::move(store)), options_(std::move(options)) {}

GlooCommunicator::~GlooCommunicator() = default;

StatusOr<std::shared_ptr<GlooCommunicator::Group>> GlooCommunicator::FindGroup(
    std::string_view group_key, const std::vector<int>& nodes) {
  int rank = -1;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i] < 0 || nodes[i] >= options_.num_nodes || (i > 0 && nodes[i] <= nodes[i - 1])) {
      return InvalidArgument("cross-process group ", NodesString(nodes),
                             ": nodes must be ascending, distinct and below ", options_.num_nodes);
    }
    if (nodes[i] == options_.node_id) rank = static_cast<int>(i);
  }
  if (rank < 0) {
    return InvalidArgument("cross-process group ", NodesString(nodes), " does not hold node ",
                           options_.node_id);
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = groups_.find(group_key);
  if (it != groups_.end()) {
    if (it->second->nodes != nodes) {
      return Internal("cross-process group key '", group_key, "' names nodes ",
                      NodesString(it->second->nodes), " and ", NodesString(nodes));
    }
    return it->second;
  }
  try {
    if (device_ == nullptr) {
      gloo::transport::tcp::attr attr;
      attr.hostname = options_.hostname;
      device_ = gloo::transport::tcp::CreateDevice(attr);
    }
  } catch (const std::exception& e) {
    return MakeError(StatusCode::kUnavailable, "Gloo TCP transport on ", options_.hostname,
                     ": ", e.what());
  }
  auto group = std::make_shared<Group>();
  group->nodes = nodes;
  group->rank = rank;
  groups_.emplace(std::string(group_key), group);
  return group;
}

StatusOr<std::vector<std::string>> GlooCommunicator::AllGather(std::string_view group_key,
                                                               const std::vector<int>& nodes,
                                                               std::string_view bytes) {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Group> group, FindGroup(group_key, nodes));
  std::lock_guard<std::mutex> lock(group->mu);
  if (!group->failed.ok()) return group->failed;
  const size_t size = nodes.size();
  std::vector<std::string> result(size);
  try {
    if (group->context == nullptr) {
      // The rendezvous: each member announces its address under the group's
      // prefix and connects to every other.
      GlooStore store(store_, StrCat("plugrt/gloo/", group_key, "/"), options_.timeout);
      auto context = std::make_shared<gloo::rendezvous::Context>(group->rank,
                                                                 static_cast<int>(size));
      context->setTimeout(options_.timeout);
      std::shared_ptr<gloo::transport::Device> device;
      {
        std::lock_guard<std::mutex> device_lock(mu_);
        device = device_;
      }
      context->connectFullMesh(store, device);
      group->context = std::move(context);
    }
    std::shared_ptr<gloo::Context> context = group->context;
    // Sizes first, then the bytes (allgatherv needs every member's count).
    uint64_t mine = bytes.size();
    std::vector<uint64_t> sizes(size);
    gloo::AllgatherOptions sizes_options(context);
    sizes_options.setInput(&mine, 1);
    sizes_options.setOutput(sizes.data(), size);
    gloo::allgather(sizes_options);
    std::vector<size_t> counts(sizes.begin(), sizes.end());
    size_t total = 0;
    for (size_t count : counts) total += count;
    std::string gathered(total, '\0');
    std::string input(bytes);
    gloo::AllgathervOptions options(context);
    options.setInput(input.data(), input.size());
    options.setOutput(gathered.data(), counts);
    gloo::allgatherv(options);
    size_t offset = 0;
    for (size_t i = 0; i < size; ++i) {
      result[i] = gathered.substr(offset, counts[i]);
      offset += counts[i];
    }
  } catch (const std::exception& e) {
    // Members that never announced themselves for the rendezvous (each
    // writes its rank's address under the group's prefix) are named: they
    // are the lost ones.
    std::vector<int> absent;
    for (size_t i = 0; i < size; ++i) {
      if (static_cast<int>(i) == group->rank) continue;
      if (!store_->TryGet(StrCat("plugrt/gloo/", group_key, "/", i)).ok()) {
        absent.push_back(nodes[i]);
      }
    }
    group->failed = MakeError(
        StatusCode::kUnavailable, "cross-process collective over nodes ", NodesString(nodes),
        " (this is node ", options_.node_id, ") failed",
        absent.empty() ? std::string() : StrCat(": node(s) ", NodesString(absent), " never joined it"),
        ": ", e.what());
    return group->failed;
  }
  return result;
}

}  // namespace plugrt::distributed
