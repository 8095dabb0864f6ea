// plugrt CPU executor: CollectiveHub, the rendezvous through which the
// processes (replica, partition) of one execution exchange collective
// operands.
//
// Every collective reduces to one primitive, Exchange: each member of a
// process group deposits its contribution and waits for the others; then
// each computes its own result from the whole group's contributions. Work is
// never done on behalf of another process, so a slow or failing process
// cannot corrupt anyone's result, only delay or abort it.
#ifndef PLUGRT_CPU_EXEC_COLLECTIVE_HUB_H_
#define PLUGRT_CPU_EXEC_COLLECTIVE_HUB_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "common/status.h"
#include "cpu/exec/remote_exchange.h"
#include "cpu/kernels/tensor.h"

namespace plugrt::cpu {

// A group of process ids as messages name it: "[0, 2, 3]".
std::string GroupString(const std::vector<int64_t>& group);

class CollectiveHub {
 public:
  // Long enough for any honest program on a loaded machine; short enough
  // that a program whose processes disagree about their collectives fails
  // instead of hanging.
  static constexpr std::chrono::milliseconds kDefaultTimeout{60'000};

  CollectiveHub(int64_t num_replicas, int64_t num_partitions,
                std::chrono::milliseconds timeout = kDefaultTimeout);
  // A hub for the processes of this OS process in an execution that spans
  // several (`cross`): a group with members elsewhere assembles its local
  // members here, then the last local member to arrive swaps the local
  // contributions with the other nodes (RemoteExchange::AllGather) on
  // behalf of the local members.
  CollectiveHub(int64_t num_replicas, int64_t num_partitions, CrossProcess cross,
                std::chrono::milliseconds timeout);
  CollectiveHub(const CollectiveHub&) = delete;
  CollectiveHub& operator=(const CollectiveHub&) = delete;

  int64_t num_replicas() const { return num_replicas_; }
  int64_t num_partitions() const { return num_partitions_; }
  int64_t num_processes() const { return num_replicas_ * num_partitions_; }

  // Process `self` (a flattened id: replica * num_partitions + partition)
  // deposits `contribution` for its next collective named `key` over `group`
  // (flattened ids, `self` among them, in group order) and waits until every
  // member has deposited. Returns the contributions in group order.
  // Successive calls with the same key and group pair up by count, so the
  // processes must issue them in the same order (as the spec requires).
  // Errors: INVALID_ARGUMENT for a malformed group, DEADLINE_EXCEEDED when
  // the group does not assemble within the timeout (which also aborts the
  // hub), or the abort reason when some process aborted the hub.
  StatusOr<std::vector<std::vector<Tensor>>> Exchange(std::string_view key,
                                                      const std::vector<int64_t>& group,
                                                      int64_t self,
                                                      std::vector<Tensor> contribution);

  // Whether `group` has members in other OS processes (a cross-process hub).
  bool SpansNodes(const std::vector<int64_t>& group) const;
  // The cross-process way of an all-reduce by `reduction` whose group spans
  // nodes and whose operands' types RemoteExchange::CanReduce: the members
  // here and elsewhere reduce with Gloo's all-reduce, and every member gets
  // the same results (one tensor per operand). Same errors as Exchange.
  StatusOr<std::vector<Tensor>> AllReduceAcrossNodes(std::string_view key,
                                                     const std::vector<int64_t>& group,
                                                     int64_t self, std::vector<Tensor> operands,
                                                     RemoteExchange::Reduction reduction);
  const CrossProcess& cross_process() const { return cross_; }

  // Wakes every waiting process with `reason` and makes later exchanges fail
  // at once: a process that fails calls this so that its peers do not wait
  // for it. The first reason wins; returns whether this call was the first.
  bool Abort(const Status& reason);
  // Process `self` has finished its program: a peer still waiting for it in
  // an exchange would wait forever, so such exchanges fail (and abort the
  // hub) at once instead of at the timeout.
  void Finished(int64_t self);
  // OK until aborted, then the first abort reason.
  Status abort_status() const;

 private:
  using SlotKey = std::tuple<std::string, std::vector<int64_t>, int64_t>;
  struct Slot {
    std::vector<std::vector<Tensor>> contributions;  // by position in group
    std::vector<bool> present;
    size_t arrived = 0;
    size_t departed = 0;
    std::vector<Tensor> reduced;  // AllReduceAcrossNodes' results
  };
  // Exchange, or with `reduction` AllReduceAcrossNodes (the result then is
  // one row: the reduced tensors).
  StatusOr<std::vector<std::vector<Tensor>>> Meet(
      std::string_view key, const std::vector<int64_t>& group, int64_t self,
      std::vector<Tensor> contribution,
      std::optional<RemoteExchange::Reduction> reduction);
  // AllReduceAcrossNodes' part across nodes, by the last local member.
  Status ReduceAcrossNodes(const std::vector<int64_t>& group, RemoteExchange::Reduction reduction,
                           Slot& slot);

  // Gathers the contributions of `group`'s members on other nodes into
  // `slot` (which holds every local member's); runs without mutex_.
  Status ExchangeAcrossNodes(std::string_view key, const std::vector<int64_t>& group,
                             int64_t sequence, Slot& slot);

  const int64_t num_replicas_;
  const int64_t num_partitions_;
  const std::chrono::milliseconds timeout_;
  CrossProcess cross_;  // empty node_of_process: every process is here

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  Status aborted_;
  std::map<SlotKey, Slot> slots_;
  std::vector<bool> finished_;  // per process
  // Per process: how many exchanges it has entered per (key, group).
  std::vector<std::map<std::pair<std::string, std::vector<int64_t>>, int64_t>> sequence_;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_COLLECTIVE_HUB_H_
