#include "cpu/cpu_cluster.h"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <optional>
#include <random>

#include "common/byte_io.h"
#include "common/log.h"
#include "distributed/gloo_communicator.h"
#include "distributed/mpi_communicator.h"
#include "distributed/node_group.h"
#include "distributed/shared_memory_collectives.h"

namespace plugrt::cpu {
namespace {

constexpr std::string_view kPrefix = "plugrt/cpu/";
constexpr uint32_t kNodeFormatVersion = 1;

int MsLeft(std::chrono::steady_clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<int64_t>(left.count(), 0, INT_MAX));
}

// Reads `key`, node `node`'s, waiting until `deadline`: DEADLINE_EXCEEDED
// (the store's) when it never came. With `heartbeat`, waits in slices and
// fails as soon as the node is lost. Other errors begin with `what`.
StatusOr<std::string> GetFromNode(KeyValueStore& store, const std::string& key, int node,
                                  std::chrono::steady_clock::time_point deadline,
                                  std::string_view what,
                                  const distributed::HeartbeatMonitor* heartbeat) {
  constexpr int kSliceMs = 200;
  StatusOr<std::string> value =
      store.Get(key, heartbeat ? std::min(kSliceMs, MsLeft(deadline)) : MsLeft(deadline));
  while (heartbeat != nullptr && !value.ok() &&
         value.status().code() == StatusCode::kDeadlineExceeded && MsLeft(deadline) > 0) {
    Status lost = heartbeat->Lost({node});
    if (!lost.ok()) return Status(lost.code(), StrCat(what, ": ", lost.message()));
    value = store.Get(key, std::min(kSliceMs, MsLeft(deadline)));
  }
  if (value.ok() || value.status().code() == StatusCode::kDeadlineExceeded) return value;
  return Status(value.status().code(),
                StrCat(what, ": key-value store: ", value.status().message()));
}

// Reads `key` of every node in `nodes` (waiting until `deadline`); the nodes
// whose key never came are named in one DEADLINE_EXCEEDED.
// With `heartbeat`, waits in slices and fails as soon as a node is lost.
StatusOr<std::vector<std::string>> GatherFromNodes(KeyValueStore& store,
                                                   const std::vector<int>& nodes,
                                                   const std::string& key_prefix,
                                                   std::chrono::steady_clock::time_point deadline,
                                                   std::chrono::milliseconds timeout,
                                                   std::string_view what,
                                                   const distributed::HeartbeatMonitor* heartbeat) {
  std::vector<std::string> values(nodes.size());
  std::vector<int> missing;
  for (size_t i = 0; i < nodes.size(); ++i) {
    StatusOr<std::string> value =
        GetFromNode(store, StrCat(key_prefix, nodes[i]), nodes[i], deadline, what, heartbeat);
    if (value.ok()) {
      values[i] = std::move(*value);
    } else if (value.status().code() == StatusCode::kDeadlineExceeded) {
      missing.push_back(nodes[i]);
    } else {
      return value.status();
    }
  }
  if (!missing.empty()) {
    return MakeError(StatusCode::kDeadlineExceeded, what, ": node(s) ", distributed::NodesText(missing),
                     " did not answer within ", timeout.count(),
                     " ms (distributed_timeout_ms); are they running, with the same store?");
  }
  return values;
}

std::optional<distributed::DataType> DataTypeOf(shlo::ElementType type) {
  using D = distributed::DataType;
  using E = shlo::ElementType;
  switch (type) {
    case E::kF32: return D::kF32;
    case E::kF64: return D::kF64;
    case E::kSI8: return D::kS8;
    case E::kSI16: return D::kS16;
    case E::kSI32: return D::kS32;
    case E::kSI64: return D::kS64;
    case E::kUI8: return D::kU8;
    case E::kUI16: return D::kU16;
    case E::kUI32: return D::kU32;
    case E::kUI64: return D::kU64;
    default: return std::nullopt;
  }
}

// RemoteExchange over one of src/distributed/'s byte-level communicators
// (Gloo's or MPI's: the same contract). With `shared_memory`, the
// collectives of a group whose members share this host go through shared
// memory instead: every all-gather (which all-to-alls and collective
// permutes are made of) and the all-reduces below the size where the
// backend's own is faster (Communicator::kSharedMemoryBelowBytes); each
// group finds out once, through the backend, on its first such operation.
// Messages go through the job's key-value store (host transfers are small
// and rare; the store already reaches every node and serves the
// heartbeat): "plugrt/cpu/message/<from>-<to>/<key>", emptied once read.
template <typename Communicator>
class CommunicatorExchange final : public RemoteExchange {
 public:
  CommunicatorExchange(int node_id, std::unique_ptr<Communicator> communicator,
                       std::shared_ptr<KeyValueStore> store,
                       std::shared_ptr<distributed::HeartbeatMonitor> heartbeat,
                       std::chrono::milliseconds timeout, bool shared_memory)
      : node_id_(node_id),
        communicator_(std::move(communicator)),
        store_(std::move(store)),
        heartbeat_(std::move(heartbeat)),
        timeout_(timeout),
        shared_memory_(shared_memory) {}
  int node_id() const override { return node_id_; }
  Status AllGather(std::string_view group_key, const std::vector<int>& nodes,
                   std::string_view bytes, const TakeBytes& take) override {
    // Every size: shared memory was faster than either backend's from 1 KiB
    // to 16 MiB (docs/performance.md).
    if (shared_memory_) {
      PLUGRT_ASSIGN_OR_RETURN(distributed::SharedMemoryCollectives * local,
                              SharedMemoryGroup(group_key, nodes));
      if (local != nullptr) return local->AllGather(bytes, take);
    }
    return communicator_->AllGather(group_key, nodes, bytes, take);
  }
  bool CanReduce(shlo::ElementType type) const override { return DataTypeOf(type).has_value(); }
  Status AllReduce(std::string_view group_key, const std::vector<int>& nodes, Reduction reduction,
                   shlo::ElementType type, const std::vector<const void*>& inputs, void* output,
                   size_t count, std::shared_ptr<const void> keep_alive) override {
    std::optional<distributed::DataType> data_type = DataTypeOf(type);
    if (!data_type) {
      return Unimplemented("cross-process all-reduce of ", shlo::ElementTypeName(type));
    }
    distributed::Reduction how = distributed::Reduction::kSum;
    switch (reduction) {
      case Reduction::kSum: how = distributed::Reduction::kSum; break;
      case Reduction::kProduct: how = distributed::Reduction::kProduct; break;
      case Reduction::kMin: how = distributed::Reduction::kMin; break;
      case Reduction::kMax: how = distributed::Reduction::kMax; break;
    }
    const size_t bytes = count * distributed::DataTypeBytes(*data_type);
    if (shared_memory_ && bytes < Communicator::kSharedMemoryBelowBytes) {
      PLUGRT_ASSIGN_OR_RETURN(distributed::SharedMemoryCollectives * local,
                              SharedMemoryGroup(group_key, nodes));
      if (local != nullptr) return local->AllReduce(how, *data_type, inputs, output, count);
    }
    return communicator_->AllReduce(group_key, nodes, how, *data_type, inputs, output, count,
                                    std::move(keep_alive));
  }

  Status Send(std::string_view key, int to, std::string_view bytes) override {
    Status put = store_->Put(MessageKey(key, node_id_, to), bytes);
    if (put.ok()) return put;
    return Status(put.code(), StrCat("sending '", key, "' to node ", to,
                                     ": key-value store: ", put.message()));
  }
  StatusOr<std::string> Recv(std::string_view key, int from,
                             std::chrono::milliseconds timeout) override {
    const std::string stored = MessageKey(key, from, node_id_);
    const std::string what = StrCat("receiving '", key, "' from node ", from);
    StatusOr<std::string> value =
        GetFromNode(*store_, stored, from, std::chrono::steady_clock::now() + timeout, what,
                    heartbeat_.get());
    if (value.ok()) {
      (void)store_->Put(stored, "");  // the store keeps no payload it no longer needs
      return value;
    }
    if (value.status().code() == StatusCode::kDeadlineExceeded) {
      return MakeError(StatusCode::kDeadlineExceeded, what, ": nothing came within ",
                       timeout.count(), " ms");
    }
    return value.status();
  }

 private:
  // A group's shared-memory collectives, null when its members are not all
  // on this host. Set up on the group's first operation that would use
  // them, under the group's own lock: groups set up at once on several
  // threads must not wait on each other (their members may reach them in
  // another order).
  struct LocalGroup {
    std::mutex mu;
    bool joined = false;
    std::unique_ptr<distributed::SharedMemoryCollectives> collectives;
  };
  StatusOr<distributed::SharedMemoryCollectives*> SharedMemoryGroup(std::string_view group_key,
                                                                  const std::vector<int>& nodes) {
    std::shared_ptr<LocalGroup> group;
    {
      std::lock_guard<std::mutex> lock(mu_);
      std::shared_ptr<LocalGroup>& slot = local_groups_[std::string(group_key)];
      if (slot == nullptr) slot = std::make_shared<LocalGroup>();
      group = slot;
    }
    std::lock_guard<std::mutex> lock(group->mu);
    if (!group->joined) {
      distributed::SharedMemoryCollectives::Options options;
      options.timeout = timeout_;
      PLUGRT_ASSIGN_OR_RETURN(
          group->collectives,
          distributed::SharedMemoryCollectives::Join(
              node_id_, nodes,
              [&](std::string_view bytes) -> StatusOr<std::vector<std::string>> {
                std::vector<std::string> all;
                PLUGRT_RETURN_IF_ERROR(communicator_->AllGather(
                    group_key, nodes, bytes, [&](size_t, std::string_view theirs) {
                      all.emplace_back(theirs);
                      return OkStatus();
                    }));
                return all;
              },
              heartbeat_, options));
      group->joined = true;
      if (group->collectives != nullptr) {
        Log(LogLevel::kInfo, "cpu",
            StrCat("nodes ", distributed::NodesText(nodes),
                   ": collectives of processes on this host through shared memory"));
      }
    }
    return group->collectives.get();
  }

  static std::string MessageKey(std::string_view key, int from, int to) {
    return StrCat(kPrefix, "message/", from, "-", to, "/", key);
  }

  const int node_id_;
  std::unique_ptr<Communicator> communicator_;
  std::shared_ptr<KeyValueStore> store_;
  std::shared_ptr<distributed::HeartbeatMonitor> heartbeat_;
  const std::chrono::milliseconds timeout_;
  const bool shared_memory_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<LocalGroup>, std::less<>> local_groups_;
};

}  // namespace

StatusOr<std::shared_ptr<CpuCluster>> CpuCluster::Form(const CpuOptions& options,
                                                       int local_devices,
                                                       std::shared_ptr<KeyValueStore> store) {
  if (store == nullptr) {
    return InvalidArgument("num_nodes is ", options.num_nodes,
                           ": a multi-process client needs the key-value store callbacks "
                           "(kv_get/kv_try_get/kv_put of PJRT_Client_Create)");
  }
  std::shared_ptr<CpuCluster> cluster(new CpuCluster());
  cluster->node_id_ = options.node_id;
  cluster->store_ = store;
  cluster->timeout_ = std::chrono::milliseconds(options.distributed_timeout_ms);
  const auto deadline = std::chrono::steady_clock::now() + cluster->timeout_;

  // A nonce tells this process's announcement from another one claiming the
  // same node id.
  std::random_device random;
  const uint64_t nonce = (static_cast<uint64_t>(random()) << 32) ^ random() ^
                         static_cast<uint64_t>(::getpid());
  std::string mine;
  ByteWriter writer(mine);
  writer.U32(kNodeFormatVersion);
  writer.U32(static_cast<uint32_t>(options.num_nodes));
  writer.U32(static_cast<uint32_t>(local_devices));
  writer.U64(nonce);
  // The heartbeat starts before the announcement, so that every node that
  // has announced itself is being watched.
  distributed::HeartbeatMonitor::Options beat;
  beat.node_id = options.node_id;
  beat.num_nodes = options.num_nodes;
  beat.hostname = options.collectives_hostname;
  beat.interval = std::chrono::milliseconds(options.heartbeat_interval_ms);
  beat.timeout = std::chrono::milliseconds(options.heartbeat_timeout_ms);
  PLUGRT_ASSIGN_OR_RETURN(cluster->heartbeat_, distributed::HeartbeatMonitor::Start(store, beat));
  const std::string node_key = StrCat(kPrefix, "node/");
  PLUGRT_RETURN_IF_ERROR(store->Put(StrCat(node_key, options.node_id), mine));

  std::vector<int> nodes(static_cast<size_t>(options.num_nodes));
  for (int n = 0; n < options.num_nodes; ++n) nodes[static_cast<size_t>(n)] = n;
  PLUGRT_ASSIGN_OR_RETURN(
      std::vector<std::string> all,
      GatherFromNodes(*store, nodes, node_key, deadline, cluster->timeout_,
                      StrCat("forming the cluster of ", options.num_nodes, " nodes (this is node ",
                             options.node_id, ")"),
                      cluster->heartbeat_.get()));
  int next_id = 0;
  for (int n = 0; n < options.num_nodes; ++n) {
    ByteReader reader(all[static_cast<size_t>(n)], StrCat("node ", n, "'s announcement"));
    uint32_t version = 0, num_nodes = 0, devices = 0;
    uint64_t their_nonce = 0;
    PLUGRT_RETURN_IF_ERROR(reader.U32(&version, "format version"));
    if (version != kNodeFormatVersion) {
      return InvalidArgument("node ", n, " announced itself in format version ", version,
                             "; this plugrt reads version ", kNodeFormatVersion);
    }
    PLUGRT_RETURN_IF_ERROR(reader.U32(&num_nodes, "num_nodes"));
    PLUGRT_RETURN_IF_ERROR(reader.U32(&devices, "device count"));
    PLUGRT_RETURN_IF_ERROR(reader.U64(&their_nonce, "nonce"));
    if (static_cast<int>(num_nodes) != options.num_nodes) {
      return InvalidArgument("node ", n, " was started with num_nodes ", num_nodes,
                             ", this node (", options.node_id, ") with ", options.num_nodes);
    }
    if (devices < 1 || devices > static_cast<uint32_t>(kMaxCpuDevices)) {
      return InvalidArgument("node ", n, " announced ", devices, " devices");
    }
    if (n == options.node_id && their_nonce != nonce) {
      return MakeError(StatusCode::kAlreadyExists, "another process also claims node_id ",
                       options.node_id, "; every process of the job needs its own node_id");
    }
    cluster->first_device_id_.push_back(next_id);
    cluster->devices_per_node_.push_back(static_cast<int>(devices));
    next_id += static_cast<int>(devices);
  }

  // MPI when asked, or (auto) when an MPI launcher started the job and MPI's
  // world is this job; Gloo otherwise.
  using Collectives = CpuOptions::Collectives;
  if (options.collectives == Collectives::kMpi ||
      (options.collectives == Collectives::kAuto &&
       distributed::MpiCommunicator::LaunchedByMpi())) {
    distributed::MpiCommunicator::Options mpi;
    mpi.node_id = options.node_id;
    mpi.num_nodes = options.num_nodes;
    mpi.timeout = cluster->timeout_;
    StatusOr<std::unique_ptr<distributed::MpiCommunicator>> communicator =
        distributed::MpiCommunicator::Create(mpi, cluster->heartbeat_);
    if (communicator.ok()) {
      cluster->exchange_ = std::make_shared<CommunicatorExchange<distributed::MpiCommunicator>>(
          options.node_id, std::move(*communicator), store, cluster->heartbeat_, cluster->timeout_,
          options.shared_memory_collectives);
      cluster->collectives_ = "mpi";
    } else if (options.collectives == Collectives::kMpi ||
               communicator.status().code() != StatusCode::kFailedPrecondition) {
      // Asked for MPI, or MPI failed or was abandoned while starting (a lost
      // process): the other processes may be inside MPI, and Gloo would
      // only wait for them.
      return Status(communicator.status().code(),
                    StrCat(options.collectives == Collectives::kMpi
                               ? "collectives=mpi: "
                               : "collectives on MPI (an MPI launcher started the job): ",
                           communicator.status().message()));
    } else {
      Log(LogLevel::kInfo, "cpu",
          StrCat("collectives: MPI not used (", communicator.status().message(),
                 "); Gloo instead"));
    }
  }
  if (cluster->exchange_ == nullptr) {
    distributed::GlooCommunicator::Options gloo;
    gloo.node_id = options.node_id;
    gloo.num_nodes = options.num_nodes;
    gloo.hostname = options.collectives_hostname;
    gloo.timeout = cluster->timeout_;
    cluster->exchange_ = std::make_shared<CommunicatorExchange<distributed::GlooCommunicator>>(
        options.node_id,
        std::make_unique<distributed::GlooCommunicator>(store, std::move(gloo),
                                                        cluster->heartbeat_),
        store, cluster->heartbeat_, cluster->timeout_, options.shared_memory_collectives);
    cluster->collectives_ = "gloo";
  }
  Log(LogLevel::kInfo, "cpu",
      StrCat("node ", options.node_id, " of ", options.num_nodes, ": collectives over ",
             cluster->collectives_));
  cluster->job_ = JobNodes{options.node_id, options.num_nodes, cluster->exchange_};
  return cluster;
}

Status CpuCluster::CheckSameProgram(const std::vector<int>& nodes, const std::string& fingerprint,
                                    std::string_view program_name) {
  int64_t index = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    index = loads_[nodes]++;
  }
  std::string node_list;
  for (int n : nodes) node_list += StrCat(node_list.empty() ? "" : "_", n);
  const std::string prefix = StrCat(kPrefix, "compile/", node_list, "/", index, "/");
  PLUGRT_RETURN_IF_ERROR(store_->Put(StrCat(prefix, node_id_), fingerprint));
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  PLUGRT_ASSIGN_OR_RETURN(
      std::vector<std::string> all,
      GatherFromNodes(*store_, nodes, prefix, deadline, timeout_,
                      StrCat("checking that nodes ", distributed::NodesText(nodes), " load the same program '",
                             program_name, "' (program #", index, " across them)"),
                      heartbeat_.get()));
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (all[i] == fingerprint) continue;
    std::string table;
    for (size_t k = 0; k < nodes.size(); ++k) {
      table += StrCat(k ? ", " : "", "node ", nodes[k], ": ", all[k]);
    }
    return InvalidArgument("program '", program_name, "' (#", index, " across nodes ",
                           distributed::NodesText(nodes), ") differs between processes: fingerprints ", table,
                           ". Every process must compile the same program with the same options");
  }
  return OkStatus();
}

}  // namespace plugrt::cpu
