// plugrt CPU backend: a multi-process job (options num_nodes > 1): this
// process is node `node_id`; the processes meet through the key-value store
// the framework gave PJRT_Client_Create. Forming the cluster exchanges each
// node's device count, so every process numbers the job's devices the same
// way: node 0's devices first, then node 1's, ... (global ids).
//
// Every node heartbeats from its announcement on (distributed/heartbeat.h,
// keys "plugrt/heartbeat/<n>"): waits on other nodes here and in the
// collectives fail as soon as a node they wait on is lost.
//
// Keys (under "plugrt/cpu/"): "node/<n>" (node n's device count and a
// nonce), "compile/<nodes>/<k>/<n>" (node n's fingerprint of the k-th
// program loaded across those nodes); Gloo's rendezvous uses "plugrt/gloo/".
// A store serves one job: keys are never deleted.
#ifndef PLUGRT_CPU_CPU_CLUSTER_H_
#define PLUGRT_CPU_CPU_CLUSTER_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/key_value_store.h"
#include "common/status.h"
#include "cpu/cpu_options.h"
#include "cpu/exec/remote_exchange.h"
#include "distributed/heartbeat.h"

namespace plugrt::cpu {

class CpuCluster {
 public:
  // Announces this node's `local_devices` and waits (distributed_timeout_ms)
  // for every other node's. DEADLINE_EXCEEDED naming the nodes that never
  // came; INVALID_ARGUMENT when nodes disagree on num_nodes;
  // ALREADY_EXISTS when two processes claim one node_id.
  static StatusOr<std::shared_ptr<CpuCluster>> Form(const CpuOptions& options, int local_devices,
                                                    std::shared_ptr<KeyValueStore> store);

  int node_id() const { return node_id_; }
  int num_nodes() const { return static_cast<int>(devices_per_node_.size()); }
  const std::vector<int>& devices_per_node() const { return devices_per_node_; }
  // Global id of node `node`'s first device.
  int first_device_id(int node) const { return first_device_id_[static_cast<size_t>(node)]; }

  // Every node of `nodes` (ascending) loads the same program: exchanges
  // `fingerprint` and fails, on every node, when any differs
  // (INVALID_ARGUMENT naming the nodes and fingerprints) or a node never
  // answers (DEADLINE_EXCEEDED naming it).
  Status CheckSameProgram(const std::vector<int>& nodes, const std::string& fingerprint,
                          std::string_view program_name);

  // The cross-process collectives (Gloo or MPI) for the executor's hubs.
  const std::shared_ptr<RemoteExchange>& exchange() const { return exchange_; }
  // Which backend they run on: "gloo" or "mpi".
  const std::string& collectives() const { return collectives_; }
  std::chrono::milliseconds timeout() const { return timeout_; }
  // This node and the exchange, for executions (ExecContext::job).
  const JobNodes& job() const { return job_; }

 private:
  CpuCluster() = default;

  int node_id_ = 0;
  std::vector<int> devices_per_node_;
  std::vector<int> first_device_id_;
  std::shared_ptr<KeyValueStore> store_;
  std::chrono::milliseconds timeout_{0};
  // Declared before exchange_: the exchange's groups consult it.
  std::shared_ptr<distributed::HeartbeatMonitor> heartbeat_;
  std::shared_ptr<RemoteExchange> exchange_;
  std::string collectives_;
  JobNodes job_;
  std::mutex mu_;
  std::map<std::vector<int>, int64_t> loads_;  // per node set: programs checked so far
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_CLUSTER_H_
