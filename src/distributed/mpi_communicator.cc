#include "distributed/mpi_communicator.h"

#include <mpi.h>

#include <atomic>
#include <climits>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "common/content_hash.h"
#include "common/log.h"
#include "distributed/kept_buffer.h"
#include "distributed/node_group.h"
#include "distributed/op_thread.h"

namespace plugrt::distributed {
namespace {

std::mutex g_init_mu;
bool g_ready = false;
// An operation was walked away from: MPI_Finalize would wait for it.
std::atomic<bool> g_abandoned{false};
MPI_Op g_nan_min = MPI_OP_NULL;
MPI_Op g_nan_max = MPI_OP_NULL;

std::string MpiError(int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return StrCat("MPI error ", code);
  return std::string(text, static_cast<size_t>(length));
}

// MPI's errors, thrown on the group's thread and turned into the group's
// status by the caller.
void Check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw std::runtime_error(StrCat(what, ": ", MpiError(code)));
}

void FinalizeAtExit() {
  // Checked first: MPI_Init may still be running on the thread it was left
  // on, and no MPI call may overlap it.
  if (g_abandoned.load()) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  // MPI_Finalize ends with a fence across the job: after a lost process
  // (whichever path found it: MPI's, shared memory's, the store's) or an
  // abandoned operation it would never return.
  if (!finalized && !g_abandoned.load() && !HeartbeatMonitor::AnyLost()) MPI_Finalize();
}

// MPI's user-function form of reduction.h's NaN-propagating min and max:
// inout[i] = in[i] (op) inout[i].
template <Reduction kReduction>
void NanAware(void* in, void* inout, int* length, MPI_Datatype* type) {
  const size_t n = static_cast<size_t>(*length);
  if (*type == MPI_FLOAT) {
    ReduceElements<float, kReduction>(inout, in, inout, n);
  } else {
    ReduceElements<double, kReduction>(inout, in, inout, n);
  }
}

// Waits for `op` in slices. nullopt once it has ended (what it threw is the
// caller's to read); else why it was walked away from (a lost node of
// `nodes`, as the heartbeat names it, or the timeout), and MPI is marked
// abandoned: the operation may never return.
std::optional<std::string> WaitOrWalkAway(OpThread::Op& op, HeartbeatMonitor* heartbeat,
                                          const std::vector<int>& nodes,
                                          std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!op.WaitFor(std::chrono::milliseconds(50))) {
    Status lost = heartbeat != nullptr ? heartbeat->Lost(nodes) : OkStatus();
    const bool late = std::chrono::steady_clock::now() >= deadline;
    if (lost.ok() && !late) continue;
    g_abandoned = true;
    return lost.ok() ? StrCat("no result within ", timeout.count(), " ms (distributed_timeout_ms)")
                     : std::string(lost.message());
  }
  return std::nullopt;
}

// MPI_Init_thread, waited for in slices as the collectives are: its closing
// fence waits for every process of the world, and a process stopped or cut
// off before or inside it would keep this one there for good. The heartbeat
// already runs (the job was formed through the store), so a lost node ends
// the wait with an error naming it; MPI_Init is then left running on its
// own thread, MPI is never touched again by this process, and MPI_Finalize
// is skipped at exit.
Status StartMpi(const MpiCommunicator::Options& options, HeartbeatMonitor* heartbeat,
                int* provided) {
  Log(LogLevel::kInfo, "distributed",
      StrCat("node ", options.node_id, " of ", options.num_nodes, ": starting MPI"));
  auto level = std::make_shared<int>(0);
  OpThread starter;  // lets its thread go on when this returns
  std::shared_ptr<OpThread::Op> op = starter.Post([level] {
    Check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, level.get()),
          "MPI_Init_thread");
  });
  std::vector<int> everyone(static_cast<size_t>(options.num_nodes));
  for (int n = 0; n < options.num_nodes; ++n) everyone[static_cast<size_t>(n)] = n;
  if (const std::optional<std::string> why = WaitOrWalkAway(*op, heartbeat, everyone,
                                                           options.timeout)) {
    return MakeError(StatusCode::kUnavailable, "starting MPI (MPI_Init_thread, node ",
                     options.node_id, " of ", options.num_nodes, ") abandoned: ", *why,
                     "; every process of the MPI world must start MPI");
  }
  if (const std::optional<std::string> failure = op->failure()) {
    return MakeError(StatusCode::kUnavailable, "starting MPI failed: ", *failure);
  }
  *provided = *level;
  return OkStatus();
}

Status InitializeMpi(const MpiCommunicator::Options& options, HeartbeatMonitor* heartbeat) {
  std::lock_guard<std::mutex> lock(g_init_mu);
  if (g_ready) return OkStatus();
  // Once abandoned, MPI_Init may still be running: nothing calls into MPI.
  if (g_abandoned.load()) {
    return FailedPrecondition("MPI was abandoned earlier in this process (a lost process or "
                              "an operation that never returned)");
  }
  int initialized = 0;
  MPI_Initialized(&initialized);
  int provided = 0;
  if (!initialized) {
    std::atexit(FinalizeAtExit);
    PLUGRT_RETURN_IF_ERROR(StartMpi(options, heartbeat, &provided));
  } else {
    MPI_Query_thread(&provided);
  }
  if (provided < MPI_THREAD_MULTIPLE) {
    return FailedPrecondition("this MPI provides thread level ", provided,
                              ", below MPI_THREAD_MULTIPLE, which plugrt's collectives need "
                              "(they run on threads of their own)");
  }
  // Errors come back as codes (each turned into a status), not as aborts.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Op_create(&NanAware<Reduction::kMin>, /*commute=*/1, &g_nan_min);
  MPI_Op_create(&NanAware<Reduction::kMax>, /*commute=*/1, &g_nan_max);
  g_ready = true;
  return OkStatus();
}

MPI_Datatype MpiType(DataType type, bool wrap_around) {
  // Sums and products of signed integers run on the unsigned type of the same
  // width: two's complement wraps identically, and unsigned overflow is
  // defined in the C that implements MPI's operations.
  switch (type) {
    case DataType::kF32: return MPI_FLOAT;
    case DataType::kF64: return MPI_DOUBLE;
    case DataType::kS8: return wrap_around ? MPI_UINT8_T : MPI_INT8_T;
    case DataType::kS16: return wrap_around ? MPI_UINT16_T : MPI_INT16_T;
    case DataType::kS32: return wrap_around ? MPI_UINT32_T : MPI_INT32_T;
    case DataType::kS64: return wrap_around ? MPI_UINT64_T : MPI_INT64_T;
    case DataType::kU8: return MPI_UINT8_T;
    case DataType::kU16: return MPI_UINT16_T;
    case DataType::kU32: return MPI_UINT32_T;
    case DataType::kU64: return MPI_UINT64_T;
  }
  return MPI_BYTE;
}

MPI_Op MpiOp(Reduction reduction, DataType type) {
  const bool floating = type == DataType::kF32 || type == DataType::kF64;
  switch (reduction) {
    case Reduction::kSum: return MPI_SUM;
    case Reduction::kProduct: return MPI_PROD;
    case Reduction::kMin: return floating ? g_nan_min : MPI_MIN;
    case Reduction::kMax: return floating ? g_nan_max : MPI_MAX;
  }
  return MPI_SUM;
}

}  // namespace

struct MpiCommunicator::Group {
  std::vector<int> nodes;
  std::string key;
  MPI_Comm comm = MPI_COMM_NULL;  // made on the group's thread, first use
  Status failed;                  // once failed, every later operation fails so
  OpThread thread;
  // AllGather's bytes, kept from one call to the next (kept_buffer.h).
  std::string sent, received;
  std::vector<int> counts, offsets;
};

bool MpiCommunicator::LaunchedByMpi() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr;
}

MpiCommunicator::MpiCommunicator(Options options, std::shared_ptr<HeartbeatMonitor> heartbeat)
    : options_(options), heartbeat_(std::move(heartbeat)) {}

MpiCommunicator::~MpiCommunicator() = default;

StatusOr<std::unique_ptr<MpiCommunicator>> MpiCommunicator::Create(
    Options options, std::shared_ptr<HeartbeatMonitor> heartbeat) {
  PLUGRT_RETURN_IF_ERROR(InitializeMpi(options, heartbeat.get()));
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != options.num_nodes || rank != options.node_id) {
    return FailedPrecondition("MPI's world (rank ", rank, " of ", size,
                              ") is not this job (node ", options.node_id, " of ",
                              options.num_nodes,
                              "): MPI collectives need a job started by an MPI launcher, "
                              "one process per node, node n as rank n");
  }
  return std::unique_ptr<MpiCommunicator>(new MpiCommunicator(options, std::move(heartbeat)));
}

StatusOr<std::shared_ptr<MpiCommunicator::Group>> MpiCommunicator::FindGroup(
    std::string_view group_key, const std::vector<int>& nodes) {
  PLUGRT_RETURN_IF_ERROR(RankInGroup(nodes, options_.node_id, options_.num_nodes).status());
  std::lock_guard<std::mutex> lock(mu_);
  auto it = groups_.find(group_key);
  if (it != groups_.end()) {
    PLUGRT_RETURN_IF_ERROR(CheckSameGroup(group_key, it->second->nodes, nodes));
    return it->second;
  }
  auto group = std::make_shared<Group>();
  group->nodes = nodes;
  group->key = std::string(group_key);
  groups_.emplace(group->key, group);
  return group;
}

namespace {

// The group's communicator, made from the world on first use (on the
// group's thread: MPI_Comm_create_group waits for the other members).
void EnsureCommunicator(std::vector<int> nodes, const std::string& key, MPI_Comm* comm) {
  if (*comm != MPI_COMM_NULL) return;
  MPI_Group world = MPI_GROUP_NULL, members = MPI_GROUP_NULL;
  Check(MPI_Comm_group(MPI_COMM_WORLD, &world), "MPI_Comm_group");
  Check(MPI_Group_incl(world, static_cast<int>(nodes.size()), nodes.data(), &members),
        "MPI_Group_incl");
  // Concurrent creations are told apart by their tag.
  const int tag = static_cast<int>(Checksum64(key) % 32768);
  const int code = MPI_Comm_create_group(MPI_COMM_WORLD, members, tag, comm);
  MPI_Group_free(&members);
  MPI_Group_free(&world);
  Check(code, "MPI_Comm_create_group");
  MPI_Comm_set_errhandler(*comm, MPI_ERRORS_RETURN);
}

}  // namespace

Status MpiCommunicator::OnGroup(std::string_view group_key, const std::vector<int>& nodes,
                                std::string_view what, std::function<void(Group&)> operation) {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Group> group, FindGroup(group_key, nodes));
  if (!group->failed.ok()) return group->failed;
  // Everything the operation touches is its own or shared: the caller may
  // walk away from it.
  std::shared_ptr<OpThread::Op> op =
      group->thread.Post([group, operation = std::move(operation)]() {
        EnsureCommunicator(group->nodes, group->key, &group->comm);
        operation(*group);
      });
  if (const std::optional<std::string> why =
          WaitOrWalkAway(*op, heartbeat_.get(), group->nodes, options_.timeout)) {
    group->failed = MakeError(StatusCode::kUnavailable, "cross-process ", what, " over nodes ",
                              NodesText(group->nodes), " (MPI, this is node ", options_.node_id,
                              ") abandoned: ", *why);
    return group->failed;
  }
  if (const std::optional<std::string> failure = op->failure()) {
    group->failed = MakeError(StatusCode::kUnavailable, "cross-process ", what, " over nodes ",
                              NodesText(group->nodes), " (MPI, this is node ", options_.node_id,
                              ") failed: ", *failure);
    return group->failed;
  }
  return OkStatus();
}

Status MpiCommunicator::AllGather(std::string_view group_key, const std::vector<int>& nodes,
                                  std::string_view bytes, const TakeBytes& take) {
  PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<Group> group, FindGroup(group_key, nodes));
  if (!group->failed.ok()) return group->failed;
  // The group's own buffers: its operations run one at a time, and one
  // walked away from fails the group for good, so nothing else touches them.
  group->sent.assign(bytes.data(), bytes.size());
  PLUGRT_RETURN_IF_ERROR(OnGroup(group_key, nodes, "all-gather", [](Group& group) {
    const int size = static_cast<int>(group.nodes.size());
    // Sizes first, then the bytes (allgatherv needs every member's count).
    int64_t mine = static_cast<int64_t>(group.sent.size());
    std::vector<int64_t> sizes(static_cast<size_t>(size));
    Check(MPI_Allgather(&mine, 1, MPI_INT64_T, sizes.data(), 1, MPI_INT64_T, group.comm),
          "MPI_Allgather");
    group.counts.assign(static_cast<size_t>(size), 0);
    group.offsets.assign(static_cast<size_t>(size), 0);
    int64_t total = 0;
    for (size_t i = 0; i < static_cast<size_t>(size); ++i) {
      group.offsets[i] = static_cast<int>(total);
      group.counts[i] = static_cast<int>(sizes[i]);
      total += sizes[i];
      if (total > INT_MAX) {
        throw std::runtime_error("an all-gather of more than 2 GiB in all (MPI counts are int)");
      }
    }
    group.received.resize(static_cast<size_t>(total));
    Check(MPI_Allgatherv(group.sent.data(), static_cast<int>(group.sent.size()), MPI_BYTE,
                         group.received.data(), group.counts.data(), group.offsets.data(),
                         MPI_BYTE, group.comm),
          "MPI_Allgatherv");
  }));
  const std::string_view received(group->received);
  Status taken;
  for (size_t i = 0; i < group->counts.size() && taken.ok(); ++i) {
    taken = take(i, received.substr(static_cast<size_t>(group->offsets[i]),
                                    static_cast<size_t>(group->counts[i])));
  }
  LetGoIfLarge(group->sent);
  LetGoIfLarge(group->received);
  return taken;
}

Status MpiCommunicator::AllReduce(std::string_view group_key, const std::vector<int>& nodes,
                                  Reduction reduction, DataType type,
                                  const std::vector<const void*>& inputs, void* output,
                                  size_t count, std::shared_ptr<const void> keep_alive) {
  if (inputs.empty()) return InvalidArgument("all-reduce: no inputs");
  if (count == 0) return OkStatus();
  // The operation owns `keep_alive`: an abandoned one may still touch the
  // inputs and the output.
  return OnGroup(
      group_key, nodes, "all-reduce",
      [reduction, type, inputs, output, count, keep_alive = std::move(keep_alive)](Group& group) {
        // This process's members first, into the output; MPI then reduces
        // the output in place across the group.
        const void* send = inputs[0];
        if (inputs.size() > 1) {
          const ReduceFunction combine = ReduceFunctionFor(type, reduction);
          combine(output, inputs[0], inputs[1], count);
          for (size_t k = 2; k < inputs.size(); ++k) combine(output, output, inputs[k], count);
          send = output;
        }
        const bool wrap = reduction == Reduction::kSum || reduction == Reduction::kProduct;
        const MPI_Datatype mpi_type = MpiType(type, wrap);
        const MPI_Op mpi_op = MpiOp(reduction, type);
        const size_t element = DataTypeBytes(type);
        const size_t kChunk = kAllReduceCallBytes / element;
        for (size_t done = 0; done < count; done += kChunk) {
          const int n = static_cast<int>(std::min(kChunk, count - done));
          char* out = static_cast<char*>(output) + done * element;
          const void* in = send == output ? MPI_IN_PLACE
                                          : static_cast<const char*>(send) + done * element;
          Check(MPI_Allreduce(in, out, n, mpi_type, mpi_op, group.comm), "MPI_Allreduce");
        }
      });
}

}  // namespace plugrt::distributed
