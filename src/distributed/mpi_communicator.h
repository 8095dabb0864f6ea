// plugrt distributed: byte-level collectives between the OS processes of a
// job started by an MPI launcher (mpirun, mpiexec, srun --mpi), on MPI
// itself (Debian's Open MPI): its shared-memory transport between processes
// of one host and its tuned algorithms. The second backend beside Gloo
// (gloo_communicator.h), with the same contract; the CPU backend picks one
// (its `collectives` option). Node n is MPI_COMM_WORLD rank n.
//
// A group of nodes gets one communicator per group key, made from the world
// the first time the group meets. Operations are MPI's non-blocking
// collectives, waited on by the caller; with a heartbeat monitor the caller
// stops waiting as soon as a member is lost (an MPI operation cannot be
// cancelled: it is abandoned with its buffers, and MPI is not finalized at
// exit; Open MPI's launcher ends the job's other processes anyway when one
// fails).
//
// MPI is initialized (MPI_THREAD_MULTIPLE) by the first communicator unless
// the application did so already, and finalized at exit when plugrt
// initialized it.
#ifndef PLUGRT_DISTRIBUTED_MPI_COMMUNICATOR_H_
#define PLUGRT_DISTRIBUTED_MPI_COMMUNICATOR_H_

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "distributed/heartbeat.h"
#include "distributed/reduction.h"

namespace plugrt::distributed {

class MpiCommunicator {
 public:
  // MPI_Allreduce is called on pieces of at most this many bytes. Open MPI
  // 4.1's all-reduce algorithms (ring, recursive doubling, Rabenseifner)
  // slow down sevenfold from 32 MiB on: 64 MiB of f32 took 159-193 ms in one
  // call and 16-20 ms in 1-16 MiB calls, 4 MiB the best of them (2
  // processes, shared memory or TCP alike). MPI counts are int as well.
  static constexpr size_t kAllReduceCallBytes = size_t{4} << 20;
  // Among processes of one host, all-reduces below this size go through
  // shared memory (distributed/shared_memory_collectives.h) rather than MPI:
  // faster up to about one call's size, slower past it (Open MPI's
  // single-copy transport reads the peer's buffer in place;
  // docs/performance.md has the measurements). All-gathers go through
  // shared memory at every size.
  static constexpr size_t kSharedMemoryBelowBytes = kAllReduceCallBytes;

  struct Options {
    int node_id = 0;
    int num_nodes = 1;
    // How long one operation may take before it fails.
    std::chrono::milliseconds timeout{60'000};
  };

  // Whether this process was started by an MPI launcher (its environment has
  // OMPI_COMM_WORLD_SIZE or PMI_SIZE).
  static bool LaunchedByMpi();

  // Initializes MPI if need be. FAILED_PRECONDITION when MPI's world does
  // not match the job (its size is not num_nodes, or this process's rank is
  // not node_id), naming both; UNAVAILABLE when MPI cannot start.
  static StatusOr<std::unique_ptr<MpiCommunicator>> Create(
      Options options, std::shared_ptr<HeartbeatMonitor> heartbeat = nullptr);
  ~MpiCommunicator();

  const Options& options() const { return options_; }

  // As GlooCommunicator::AllGather: every member's bytes, in `nodes` order,
  // through `take`.
  using TakeBytes = std::function<Status(size_t index, std::string_view bytes)>;
  Status AllGather(std::string_view group_key, const std::vector<int>& nodes,
                   std::string_view bytes, const TakeBytes& take);

  // As GlooCommunicator::AllReduce: this node's `inputs` are combined here,
  // then reduced with the other members' by MPI (its own operations for sums,
  // products and integer min/max; min/max of floats with an operation of
  // plugrt's that lets NaN win).
  Status AllReduce(std::string_view group_key, const std::vector<int>& nodes,
                   Reduction reduction, DataType type, const std::vector<const void*>& inputs,
                   void* output, size_t count, std::shared_ptr<const void> keep_alive);

 private:
  struct Group;
  MpiCommunicator(Options options, std::shared_ptr<HeartbeatMonitor> heartbeat);
  StatusOr<std::shared_ptr<Group>> FindGroup(std::string_view group_key,
                                             const std::vector<int>& nodes);
  // Runs `operation` on the group's thread, its communicator made first, and
  // waits in slices; on a lost member or the timeout the operation is
  // abandoned (it owns what it touches), and a failure fails the group for
  // good: UNAVAILABLE naming `what`.
  Status OnGroup(std::string_view group_key, const std::vector<int>& nodes,
                 std::string_view what, std::function<void(Group&)> operation);

  const Options options_;
  std::shared_ptr<HeartbeatMonitor> heartbeat_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Group>, std::less<>> groups_;
};

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_MPI_COMMUNICATOR_H_
