// plugrt distributed: byte-level collectives between the OS processes
// ("nodes") of a job, on Gloo's TCP transport. The CPU backend reaches its
// cross-process collectives through this (src/cpu/cpu_cluster.cc); it knows
// nothing of tensors or StableHLO.
//
// A group of nodes gets one Gloo context per group key, made the first time
// the group meets: its members rendezvous through the key-value store
// (prefix "plugrt/gloo/<key>/"), then hold a full mesh of TCP connections
// for the rest of the communicator's life. One operation runs on a context
// at a time; the members must issue a group's operations in the same order.
// Operations run on the group's own thread (distributed/op_thread.h) while
// the caller waits; with a heartbeat monitor, the caller stops waiting as
// soon as a member of the group is lost and gets that member's error.
#ifndef PLUGRT_DISTRIBUTED_GLOO_COMMUNICATOR_H_
#define PLUGRT_DISTRIBUTED_GLOO_COMMUNICATOR_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/key_value_store.h"
#include "common/status.h"
#include "distributed/heartbeat.h"
#include "distributed/reduction.h"

namespace gloo {
class Context;
namespace transport {
class Device;
}  // namespace transport
}  // namespace gloo

namespace plugrt::distributed {

class GlooCommunicator {
 public:
  // Among processes of one host, all-reduces of any size go through shared
  // memory (distributed/shared_memory_collectives.h) rather than Gloo's TCP
  // loopback (a tenth of its speed and latency: docs/performance.md), as
  // every all-gather does on either backend.
  static constexpr size_t kSharedMemoryBelowBytes = SIZE_MAX;

  struct Options {
    int node_id = 0;
    int num_nodes = 1;
    // The address the TCP transport listens on and announces to peers.
    std::string hostname = "127.0.0.1";
    // How long a rendezvous or one operation may take before it fails.
    std::chrono::milliseconds timeout{60'000};
  };

  // `heartbeat` may be null: operations then wait for Gloo alone.
  GlooCommunicator(std::shared_ptr<KeyValueStore> store, Options options,
                   std::shared_ptr<HeartbeatMonitor> heartbeat = nullptr);
  ~GlooCommunicator();

  const Options& options() const { return options_; }

  // Every node of `nodes` (ascending, distinct, this node among them) calls
  // this with the same `group_key` and gets every member's bytes, in `nodes`
  // order. Sizes may differ between members. Errors: INVALID_ARGUMENT for a
  // malformed group; UNAVAILABLE naming the group when a peer fails, goes
  // away or does not answer within the timeout, or when the heartbeat
  // loses a member (named); the group's context is then unusable: later
  // operations on it fail at once with the same error. The bytes go to
  // `take`, member by member, once all have arrived; the views last until it
  // returns (the group keeps its buffers for its next call), and an error
  // from `take` ends the call with it.
  using TakeBytes = std::function<Status(size_t index, std::string_view bytes)>;
  Status AllGather(std::string_view group_key, const std::vector<int>& nodes,
                   std::string_view bytes, const TakeBytes& take);

  using Reduction = distributed::Reduction;
  using DataType = distributed::DataType;
  // Reduces this node's `inputs` (each `count` elements of `type`) and every
  // other member's into `output`, the same bytes on every member (Gloo's
  // ring all-reduce). Min and max of floats propagate NaN. Same group rules
  // and errors as AllGather; one group key serves both. `keep_alive` owns
  // the inputs and the output: an operation given up on (a lost member)
  // may still touch them until Gloo's own timeout ends it.
  Status AllReduce(std::string_view group_key, const std::vector<int>& nodes,
                   Reduction reduction, DataType type, const std::vector<const void*>& inputs,
                   void* output, size_t count, std::shared_ptr<const void> keep_alive);

 private:
  struct Group;
  StatusOr<std::shared_ptr<Group>> FindGroup(std::string_view group_key,
                                             const std::vector<int>& nodes);
  // Runs `operation` on the group's context (connected first if need be)
  // on the group's thread, turning Gloo's exceptions and lost members into
  // the group's UNAVAILABLE error. `operation` owns what it touches.
  Status OnGroup(std::string_view group_key, const std::vector<int>& nodes,
                 std::function<void(Group&)> operation);

  std::shared_ptr<KeyValueStore> store_;
  const Options options_;
  std::shared_ptr<HeartbeatMonitor> heartbeat_;
  std::mutex mu_;
  std::shared_ptr<gloo::transport::Device> device_;
  std::map<std::string, std::shared_ptr<Group>, std::less<>> groups_;
};

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_GLOO_COMMUNICATOR_H_
