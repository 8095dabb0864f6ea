// plugrt CPU executor: how the CollectiveHub of one OS process reaches the
// members of a collective that run in other processes ("nodes") of a
// multi-process job. The executor sees bytes only; the CPU plugin
// implements this over Gloo or MPI, shared memory among one host's
// processes, and the job's key-value store for messages
// (cpu/cpu_cluster.cc, src/distributed/).
#ifndef PLUGRT_CPU_EXEC_REMOTE_EXCHANGE_H_
#define PLUGRT_CPU_EXEC_REMOTE_EXCHANGE_H_

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "stablehlo/element_type.h"

namespace plugrt::cpu {

class RemoteExchange {
 public:
  virtual ~RemoteExchange() = default;
  virtual int node_id() const = 0;
  // Every node of `nodes` (ascending, this one among them) calls this for
  // the same channel (`group_key`: the same string on every node, one
  // operation at a time per key, in the same order) and gets each node's
  // bytes through `take`, called once per node in `nodes` order (this one's
  // included) after all arrived. The views last until `take` returns (an
  // implementation may keep its buffers for the channel's next call), and
  // an error from `take` ends the call with it. UNAVAILABLE when a peer
  // fails, goes away or stops answering (the heartbeat), naming it.
  using TakeBytes = std::function<Status(size_t index, std::string_view bytes)>;
  virtual Status AllGather(std::string_view group_key, const std::vector<int>& nodes,
                           std::string_view bytes, const TakeBytes& take) = 0;

  enum class Reduction { kSum, kProduct, kMin, kMax };
  // Whether AllReduce takes `type` (f32, f64, signed and unsigned 8..64-bit
  // integers).
  virtual bool CanReduce(shlo::ElementType type) const = 0;
  // Reduces this node's `inputs` (`count` elements of `type` each) with
  // every other node's into `output`: the same bytes on every node. Same
  // channel rules as AllGather (one key serves both). Integers wrap around;
  // min/max of floats propagate NaN. `keep_alive` owns the inputs and the
  // output: an exchange given up on (a lost peer) may touch them later.
  virtual Status AllReduce(std::string_view group_key, const std::vector<int>& nodes,
                           Reduction reduction, shlo::ElementType type,
                           const std::vector<const void*>& inputs, void* output, size_t count,
                           std::shared_ptr<const void> keep_alive) = 0;

  // Point-to-point messages between two nodes (host transfers of members in
  // different processes). `key` names one message, the same string on both
  // ends, used once. Send hands `bytes` over for node `to` and returns
  // without waiting for it to be received. Recv waits up to `timeout` for
  // node `from`'s message under `key`: DEADLINE_EXCEEDED after it,
  // UNAVAILABLE naming `from` as soon as it is lost.
  virtual Status Send(std::string_view key, int to, std::string_view bytes) = 0;
  virtual StatusOr<std::string> Recv(std::string_view key, int from,
                                     std::chrono::milliseconds timeout) = 0;
};

// The OS processes of a multi-process job, as an execution sees them: the
// conformance harness's run_parallel grids then run one member per process
// (member k on node k) and swap their results through `exchange`.
struct JobNodes {
  int node_id = 0;
  int num_nodes = 1;
  std::shared_ptr<RemoteExchange> exchange;
};

// Where the processes (replica, partition) of an execution run when they
// span OS processes: the node of each flattened id, and the way to the
// others. A hub without one holds every process itself.
struct CrossProcess {
  std::vector<int> node_of_process;  // by flattened id
  std::shared_ptr<RemoteExchange> exchange;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_REMOTE_EXCHANGE_H_
