// plugrt distributed: all-reduce and all-gather through shared memory for a
// group whose members all run on one host, whichever collectives backend the
// job uses (Gloo's TCP and Open MPI's shared-memory transport both reach a
// fraction of what memory can do there, and Gloo takes 0.3-4 ms for any
// exchange: docs/performance.md).
//
// The group's lowest member makes a shared memory segment, the others map
// it, and its name is removed at once, so nothing outlives the processes.
// The segment holds one step counter per member and two sets of slots, one
// slot of `slot_bytes` per member. Operations go through in chunks of a
// slot, each chunk in steps: a step ends by raising the member's counter,
// and the next one waits until every member's counter has come that far (a
// short spin, then a futex wait). Two slot sets let a member fill the next
// chunk while the others still read the last one.
//
// All-reduce, for each chunk: every member (1) puts its inputs' reduction
// into its slot, (2) reduces its own part of the chunk over every member's
// slot into its output and back into its slot, (3) copies the other
// members' parts into its output. Slots stay in the cache: memory sees
// little more than the inputs read and the output written.
// All-gather (of any bytes, a size per member): every member puts its size
// and then its bytes, a slot at a time, into its slot, and copies every
// other member's out, until the largest is through.
//
// Waits end with the heartbeat's error when a member is lost, or with
// DEADLINE_EXCEEDED after the timeout; the group then refuses every later
// operation with that error (its members are no longer in step).
#ifndef PLUGRT_DISTRIBUTED_SHARED_MEMORY_COLLECTIVES_H_
#define PLUGRT_DISTRIBUTED_SHARED_MEMORY_COLLECTIVES_H_

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

class SharedMemoryCollectives {
 public:
  struct Options {
    // How long one operation may wait for the other members.
    std::chrono::milliseconds timeout{60'000};
    // Bytes of one member's slot: the chunk the buffer goes through in.
    size_t slot_bytes = size_t{256} << 10;
  };
  // The group's own exchange over its backend: every member's bytes in
  // member order.
  using BackendAllGather =
      std::function<StatusOr<std::vector<std::string>>(std::string_view bytes)>;

  // Sets up the group `nodes` (ascending; this node among them), every
  // member at the same point of the group's operations, through
  // `all_gather`. nullptr when the members do not share one
  // SharedMemoryDomain, or when some member could not make or map the
  // segment: the answer is the same on every member. Errors: all_gather's.
  static StatusOr<std::unique_ptr<SharedMemoryCollectives>> Join(
      int node_id, const std::vector<int>& nodes, const BackendAllGather& all_gather,
      std::shared_ptr<HeartbeatMonitor> heartbeat, Options options);
  ~SharedMemoryCollectives();
  SharedMemoryCollectives(const SharedMemoryCollectives&) = delete;
  SharedMemoryCollectives& operator=(const SharedMemoryCollectives&) = delete;

  // Reduces this member's `inputs` (each `count` elements of `type`) and
  // every other member's into `output` (which may be inputs[0]): the same
  // bytes on every member, the reduction.h semantics. Every member calls it
  // with the same count, type and reduction, in the same order.
  Status AllReduce(Reduction reduction, DataType type, const std::vector<const void*>& inputs,
                   void* output, size_t count);
  // Every member's `bytes` (sizes may differ), handed to `take` in member
  // order once all have arrived; the views last until `take` returns (the
  // group keeps its receive buffers from one call to the next, so a steady
  // run faults in no fresh pages), and an error from `take` ends the call
  // with it. Every member calls it at the same point of the group's
  // operations.
  using TakeBytes = std::function<Status(size_t member, std::string_view bytes)>;
  Status AllGather(std::string_view bytes, const TakeBytes& take);

 private:
  SharedMemoryCollectives(std::vector<int> nodes, int rank,
                        std::shared_ptr<HeartbeatMonitor> heartbeat, Options options,
                        void* base, size_t bytes);
  uint32_t* Counter(int member) const;
  uint32_t* Sleepers() const;  // how many members sleep on a counter's futex
  char* Slot(uint64_t set, int member) const;
  void Post(uint32_t step);
  // Starts the next chunk: waits until the members are done with what its
  // slot set held last, and points `slot` at this member's slot of it.
  Status NextChunk(std::chrono::steady_clock::time_point deadline, char** slot);
  // Ends a step: posts it and waits until every member posted it.
  Status Step(std::chrono::steady_clock::time_point deadline);
  // Ends the chunk's last step (its slot set is free once all posted it).
  void EndChunk();
  // Breaks the group with `status`, naming the operation.
  Status Fail(std::string_view what, const Status& status);
  // Waits until every member's counter reached `step`.
  Status WaitAll(uint32_t step, std::chrono::steady_clock::time_point deadline);

  const std::vector<int> nodes_;
  const int rank_;  // this node's index in nodes_
  std::shared_ptr<HeartbeatMonitor> heartbeat_;
  const Options options_;
  void* base_;
  size_t bytes_;
  // Chunks begun and steps posted so far: the same counts on every member.
  uint64_t chunks_ = 0;
  uint32_t step_ = 0;
  // The step after which each slot set is free again, once it was used.
  uint32_t set_free_[2] = {0, 0};
  bool set_used_[2] = {false, false};
  std::vector<std::string> received_;  // AllGather's, by member
  Status failed_;
};

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_SHARED_MEMORY_COLLECTIVES_H_
