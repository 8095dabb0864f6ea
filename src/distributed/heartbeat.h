// plugrt distributed: liveness of the processes ("nodes") of a job. Each
// node's monitor writes "plugrt/heartbeat/<node>" in the key-value store
// every interval (a counter, its host, pid and machine) and reads the other
// nodes' keys; a node whose key has not changed for the heartbeat timeout
// has stopped answering (dead, stopped by a signal, cut off) and is lost.
// A node on this machine whose process is gone is lost at the next beat,
// without waiting for the timeout; a node whose client shut down says so.
//
// Blocking waits on other nodes (collectives, rendezvous) ask Lost() between
// slices of their wait, so they end with the lost node's error instead of
// at their own (longer) timeout. A node is watched from its first beat on:
// one that never came is the rendezvous' business, not this monitor's.
#ifndef PLUGRT_DISTRIBUTED_HEARTBEAT_H_
#define PLUGRT_DISTRIBUTED_HEARTBEAT_H_

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/key_value_store.h"
#include "common/status.h"

namespace plugrt::distributed {

// The defaults of the CPU plugin's heartbeat_interval_ms and
// heartbeat_timeout_ms create options.
inline constexpr int64_t kDefaultHeartbeatIntervalMs = 1000;
inline constexpr int64_t kDefaultHeartbeatTimeoutMs = 10000;

class HeartbeatMonitor {
 public:
  struct Options {
    int node_id = 0;
    int num_nodes = 1;
    std::string hostname;  // named in errors about this node
    std::chrono::milliseconds interval{kDefaultHeartbeatIntervalMs};
    std::chrono::milliseconds timeout{kDefaultHeartbeatTimeoutMs};
  };

  // Writes this node's first beat (so that once it has announced itself to
  // the job, its beat is there to watch) and starts the beating thread.
  // The store's error when the first beat cannot be written.
  static StatusOr<std::shared_ptr<HeartbeatMonitor>> Start(std::shared_ptr<KeyValueStore> store,
                                                           Options options);
  // Stops beating and says, in the store, that this node has left the job.
  ~HeartbeatMonitor();

  const Options& options() const { return options_; }

  // OK while every node of `nodes` answers; else UNAVAILABLE naming the
  // first lost one (node id, host, pid) and why. A store that has not
  // answered this node for the heartbeat timeout is an error of its own.
  Status Lost(const std::vector<int>& nodes) const;
  // Lost(), after looking at once whether processes of `nodes` on this
  // machine are gone (a failed connection wants the reason now).
  Status LostNow(const std::vector<int>& nodes);

  // Whether any monitor of this process has answered Lost() with an error:
  // the job is broken, and steps that need every process (MPI_Finalize's
  // closing fence) must be skipped, or they wait for the lost one forever.
  static bool AnyLost();

 private:
  struct Peer {
    std::string last_value;  // empty: no beat seen yet
    std::chrono::steady_clock::time_point last_change{};
    std::string host;
    long pid = 0;
    bool same_machine = false;  // same boot and pid namespace: pid is checkable
    Status lost;
  };

  HeartbeatMonitor(std::shared_ptr<KeyValueStore> store, Options options);
  Status Beat();
  // Reads the beats of the nodes (all but this one) and updates their
  // state; with `check_processes`, also whether local processes are gone.
  void Watch(bool check_processes);
  void Loop();

  std::shared_ptr<KeyValueStore> store_;
  const Options options_;
  const std::string machine_;  // boot id and pid namespace
  uint64_t counter_ = 0;

  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::vector<Peer> peers_;  // by node id
  std::chrono::steady_clock::time_point store_answered_;
  Status store_error_;
  std::thread thread_;
};

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_HEARTBEAT_H_
