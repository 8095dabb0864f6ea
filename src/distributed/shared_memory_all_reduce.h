// plugrt distributed: all-reduce through shared memory for a group whose
// members all run on one host, whichever collectives backend the job uses
// (Gloo's TCP and Open MPI's shared-memory transport both reach a fraction
// of what memory can do there: docs/performance.md).
//
// The group's lowest member makes a shared memory segment, the others map
// it, and its name is removed at once, so nothing outlives the processes.
// The segment holds one step counter per member and two sets of slots, one
// slot of `slot_bytes` per member. The buffer goes through in chunks of a
// slot; for each chunk every member (1) puts its inputs' reduction into its
// slot, (2) reduces its own part of the chunk over every member's slot into
// its output and back into its slot, (3) copies the other members' parts
// into its output. Each step ends by raising the member's counter; the next
// one waits until every member's counter has come that far (a short spin,
// then a futex wait). Two slot sets let a member fill the next chunk while
// the others still read the last one. Slots stay in the cache: memory sees
// little more than the inputs read and the output written.
//
// Waits end with the heartbeat's error when a member is lost, or with
// DEADLINE_EXCEEDED after the timeout; the group then refuses every later
// operation with that error (its members are no longer in step).
#ifndef PLUGRT_DISTRIBUTED_SHARED_MEMORY_ALL_REDUCE_H_
#define PLUGRT_DISTRIBUTED_SHARED_MEMORY_ALL_REDUCE_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "distributed/heartbeat.h"
#include "distributed/reduction.h"

namespace plugrt::distributed {

// What two processes need in common to share memory: the machine (its boot
// id), the mount namespace that holds /dev/shm, and the host name (so that
// simulated hosts, which scripts/netns_hosts.sh gives names of their own,
// stay apart as real hosts would).
std::string SharedMemoryDomain();

class SharedMemoryAllReduce {
 public:
  struct Options {
    // How long one operation may wait for the other members.
    std::chrono::milliseconds timeout{60'000};
    // Bytes of one member's slot: the chunk the buffer goes through in.
    size_t slot_bytes = size_t{256} << 10;
  };
  // The group's own exchange over its backend: every member's bytes in
  // member order.
  using AllGather = std::function<StatusOr<std::vector<std::string>>(std::string_view bytes)>;

  // Sets up the group `nodes` (ascending; this node among them), every
  // member at the same point of the group's operations, through
  // `all_gather`. nullptr when the members do not share one
  // SharedMemoryDomain, or when some member could not make or map the
  // segment: the answer is the same on every member. Errors: all_gather's.
  static StatusOr<std::unique_ptr<SharedMemoryAllReduce>> Join(
      int node_id, const std::vector<int>& nodes, const AllGather& all_gather,
      std::shared_ptr<HeartbeatMonitor> heartbeat, Options options);
  ~SharedMemoryAllReduce();
  SharedMemoryAllReduce(const SharedMemoryAllReduce&) = delete;
  SharedMemoryAllReduce& operator=(const SharedMemoryAllReduce&) = delete;

  // Reduces this member's `inputs` (each `count` elements of `type`) and
  // every other member's into `output` (which may be inputs[0]): the same
  // bytes on every member, the reduction.h semantics. Every member calls it
  // with the same count, type and reduction, in the same order.
  Status AllReduce(Reduction reduction, DataType type, const std::vector<const void*>& inputs,
                   void* output, size_t count);

 private:
  SharedMemoryAllReduce(std::vector<int> nodes, int rank,
                        std::shared_ptr<HeartbeatMonitor> heartbeat, Options options,
                        void* base, size_t bytes);
  uint32_t* Counter(int member) const;
  uint32_t* Sleepers() const;  // how many members sleep on a counter's futex
  char* Slot(uint64_t set, int member) const;
  void Post(uint32_t step);
  // Waits until every member's counter reached `step`.
  Status WaitAll(uint32_t step, std::chrono::steady_clock::time_point deadline);

  const std::vector<int> nodes_;
  const int rank_;  // this node's index in nodes_
  std::shared_ptr<HeartbeatMonitor> heartbeat_;
  const Options options_;
  void* base_;
  size_t bytes_;
  uint64_t chunks_ = 0;  // chunks done so far, the same count on every member
  Status failed_;
};

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_SHARED_MEMORY_ALL_REDUCE_H_
