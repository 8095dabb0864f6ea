// plugrt CPU executor: the conformance corpus' "interpreter.run_parallel",
// which runs a grid of functions at once, programs[i][j] as process
// (replica i, partition j), one thread each, sharing one CollectiveHub.
// Operands go to the processes in order (each takes as many as its function
// has inputs); the results are the processes' results, concatenated in
// process order. `infeed = [@f, ...]` names functions whose results, in
// order, are the entries stablehlo.infeed reads; outfeed is recorded. Host
// transfers (stablehlo.send / recv with is_host_transfer) go through one
// first-in first-out queue per channel shared by the processes (the
// executor's HostChannels, which a PJRT launch serves from its callbacks).
//
// In a multi-process job (ExecContext::job) the grid spreads over the OS
// processes instead: node k runs member k alone, the members' collectives
// cross processes through the job's exchange (Gloo), and afterwards the
// nodes swap the members' results, so every node's program goes on with all
// of them (and checks them all). Every node runs the whole program. A host
// transfer channel whose one sending member and one receiving member run on
// different nodes carries its messages through the exchange (Send / Recv,
// keyed by the op's location, the run and the message's place in the
// channel); other channels stay in this node's queues.
#include <atomic>
#include <chrono>
#include <cstring>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <utility>

#include "common/byte_io.h"
#include "cpu/exec/collective_hub.h"
#include "cpu/exec/feeds.h"
#include "cpu/exec/host_channels.h"
#include "cpu/exec/program_compiler.h"

namespace plugrt::cpu {
namespace {

using Results = StatusOr<std::vector<RtValue>>;

// The host-transfer channels a member's function (and what it calls) sends
// and receives on.
struct ChannelUse {
  std::set<int64_t> sends;
  std::set<int64_t> recvs;
};

// How a run spread over the nodes of a job reaches members of other nodes:
// member p runs on node p.
struct CrossNodeChannels {
  const JobNodes* job = nullptr;
  const std::vector<ChannelUse>* uses = nullptr;  // by member
  std::string key_prefix;  // unique to the op and the run, the same on every node
};

// Channels between the processes of one run: what a send puts in, the next
// recv of the same channel takes out (whichever process sends or receives).
class QueuedChannels final : public HostChannels {
 public:
  QueuedChannels(std::set<int64_t> channels, std::optional<CrossNodeChannels> cross)
      : channels_(std::move(channels)), cross_(std::move(cross)) {}

  Status Send(int64_t device_index, int64_t channel, std::string_view bytes) override {
    PLUGRT_RETURN_IF_ERROR(Served("send", device_index, channel));
    PLUGRT_ASSIGN_OR_RETURN(std::optional<Route> route, RouteOf(channel));
    std::unique_lock<std::mutex> lock(mu_);
    if (route) {
      const std::string key = StrCat(cross_->key_prefix, channel, "/", sent_[channel]++);
      lock.unlock();
      return cross_->job->exchange->Send(key, route->receiver, bytes);
    }
    queues_[channel].emplace_back(bytes);
    cv_.notify_all();
    return OkStatus();
  }

  // A sender that never sends ends in the time limit.
  Status Recv(int64_t device_index, int64_t channel, void* out, size_t size) override {
    PLUGRT_RETURN_IF_ERROR(Served("recv", device_index, channel));
    PLUGRT_ASSIGN_OR_RETURN(std::optional<Route> route, RouteOf(channel));
    constexpr std::chrono::seconds kTimeout(60);
    std::unique_lock<std::mutex> lock(mu_);
    std::string bytes;
    if (route) {
      const std::string key = StrCat(cross_->key_prefix, channel, "/", received_[channel]++);
      lock.unlock();
      PLUGRT_ASSIGN_OR_RETURN(bytes, cross_->job->exchange->Recv(key, route->sender, kTimeout));
    } else {
      if (!cv_.wait_for(lock, kTimeout, [&] { return !queues_[channel].empty(); })) {
        return MakeError(StatusCode::kDeadlineExceeded, "nothing was sent on channel ", channel,
                         " within ", std::chrono::milliseconds(kTimeout).count(), " ms");
      }
      bytes = std::move(queues_[channel].front());
      queues_[channel].pop_front();
    }
    if (bytes.size() != size) {
      return InvalidArgument("channel ", channel, " carried ", bytes.size(),
                             " bytes; the receiver expects ", size);
    }
    if (size > 0) std::memcpy(out, bytes.data(), size);
    return OkStatus();
  }

 private:
  // A channel between a member of this node and one of another.
  struct Route {
    int sender;
    int receiver;
  };
  // nullopt for a channel this node's queue serves (no other node's member
  // uses it); UNIMPLEMENTED for one that several members of different
  // nodes share on one side.
  StatusOr<std::optional<Route>> RouteOf(int64_t channel) const {
    if (!cross_) return std::optional<Route>();
    const int self = cross_->job->node_id;
    std::vector<int64_t> senders, receivers;
    bool remote = false;
    for (size_t p = 0; p < cross_->uses->size(); ++p) {
      const ChannelUse& use = (*cross_->uses)[p];
      if (use.sends.count(channel)) senders.push_back(static_cast<int64_t>(p));
      if (use.recvs.count(channel)) receivers.push_back(static_cast<int64_t>(p));
      if ((use.sends.count(channel) || use.recvs.count(channel)) && static_cast<int>(p) != self) {
        remote = true;
      }
    }
    if (!remote) return std::optional<Route>();
    if (senders.size() != 1 || receivers.size() != 1) {
      return Unimplemented("host transfer channel ", channel, " is sent on by members ",
                           GroupString(senders), " and received on by members ",
                           GroupString(receivers),
                           " of different OS processes; across processes a channel joins one "
                           "sending member to one receiving member");
    }
    return std::optional<Route>(
        Route{static_cast<int>(senders.front()), static_cast<int>(receivers.front())});
  }

  Status Served(const char* kind, int64_t device_index, int64_t channel) const {
    if (channels_.count(channel) > 0) return OkStatus();
    return FailedPrecondition("no ", kind, " callback for channel ", channel, " on device ",
                              device_index);
  }

  const std::set<int64_t> channels_;
  const std::optional<CrossNodeChannels> cross_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<int64_t, std::deque<std::string>> queues_;
  std::map<int64_t, uint64_t> sent_, received_;  // messages so far, per channel across nodes
};

// The channels of the host transfers in `region` and in the functions it
// calls (each function once).
void CollectHostChannels(const shlo::Region& region, const CompileContext& context,
                         std::set<std::string>* visited, ChannelUse* use) {
  for (const auto& block : region.blocks) {
    for (const auto& op : block->operations) {
      for (const auto& nested : op->regions) CollectHostChannels(*nested, context, visited, use);
      if (op->code == shlo::OpCode::kSend || op->code == shlo::OpCode::kRecv) {
        const shlo::Attribute* handle = op->attribute("channel_handle");
        const shlo::Attribute* id = handle != nullptr ? handle->field("handle") : nullptr;
        if (id != nullptr) {
          StatusOr<int64_t> value = shlo::AttrToInt(*id);
          if (value.ok()) (op->code == shlo::OpCode::kSend ? use->sends : use->recvs).insert(*value);
        }
      }
      if (op->code == shlo::OpCode::kFuncCall) {
        const shlo::Attribute* callee = op->attribute("callee");
        if (callee == nullptr || !visited->insert(callee->str).second) continue;
        const shlo::Function* function = context.FindFunction(callee->str);
        if (function != nullptr && function->body) {
          CollectHostChannels(*function->body, context, visited, use);
        }
      }
    }
  }
}

// In place of an element type: the result is a token.
constexpr uint32_t kTokenTag = 0xffffffffu;

// One node's member outcome, for the other nodes: a flag, then the
// results (tensors, tokens) or the error.
StatusOr<std::string> EncodeOutcome(const Results& outcome) {
  std::string bytes;
  ByteWriter writer(bytes);
  writer.U32(outcome.ok() ? 1 : 0);
  if (!outcome.ok()) {
    writer.U32(static_cast<uint32_t>(outcome.status().code()));
    writer.LengthPrefixed(outcome.status().message());
    return bytes;
  }
  writer.U32(static_cast<uint32_t>(outcome->size()));
  for (const RtValue& value : *outcome) {
    if (value.kind == RtValue::Kind::kToken) {
      writer.U32(kTokenTag);
      continue;
    }
    if (value.kind != RtValue::Kind::kTensor) {
      return Unimplemented("a run_parallel member across processes returns a tuple");
    }
    const Tensor& tensor = value.tensor;
    writer.U32(static_cast<uint32_t>(tensor.type()));
    writer.U32(static_cast<uint32_t>(tensor.rank()));
    for (int64_t dim : tensor.dims()) writer.U64(static_cast<uint64_t>(dim));
    writer.LengthPrefixed(
        std::string_view(reinterpret_cast<const char*>(tensor.data()), tensor.byte_size()));
  }
  return bytes;
}

Results DecodeOutcome(std::string_view bytes, int node) {
  const std::string subject = StrCat("run_parallel results from node ", node);
  ByteReader reader(bytes, subject);
  uint32_t ok = 0, count = 0;
  PLUGRT_RETURN_IF_ERROR(reader.U32(&ok, "outcome"));
  if (ok == 0) {
    uint32_t code = 0;
    std::string_view message;
    PLUGRT_RETURN_IF_ERROR(reader.U32(&code, "status code"));
    PLUGRT_RETURN_IF_ERROR(reader.LengthPrefixed(&message, "message"));
    return Status(static_cast<StatusCode>(code), StrCat("on node ", node, ": ", message));
  }
  PLUGRT_RETURN_IF_ERROR(reader.U32(&count, "result count"));
  std::vector<RtValue> values;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t type = 0, rank = 0;
    PLUGRT_RETURN_IF_ERROR(reader.U32(&type, "element type"));
    if (type == kTokenTag) {
      values.push_back(RtValue::Token());
      continue;
    }
    PLUGRT_RETURN_IF_ERROR(reader.U32(&rank, "rank"));
    if (type >= static_cast<uint32_t>(shlo::kNumElementTypes) || rank > 64) {
      return Internal(subject, ": malformed result header");
    }
    std::vector<int64_t> dims(rank);
    unsigned __int128 expected = static_cast<unsigned>(shlo::StorageBytes(static_cast<ElementType>(type)));
    for (int64_t& dim : dims) {
      uint64_t value = 0;
      PLUGRT_RETURN_IF_ERROR(reader.U64(&value, "dimension"));
      if (value > (uint64_t{1} << 48)) return Internal(subject, ": dimension out of range");
      dim = static_cast<int64_t>(value);
      expected = std::min<unsigned __int128>(expected * value, uint64_t{1} << 62);
    }
    std::string_view data;
    PLUGRT_RETURN_IF_ERROR(reader.LengthPrefixed(&data, "result bytes"));
    if (expected != data.size()) return Internal(subject, ": a result's bytes do not fit its shape");
    Tensor tensor = Tensor::Uninitialized(static_cast<ElementType>(type), std::move(dims));
    if (!data.empty()) std::memcpy(tensor.MutableData(), data.data(), data.size());
    values.push_back(RtValue::Of(std::move(tensor)));
  }
  return values;
}

class RunParallelOp final : public CompiledOp {
 public:
  RunParallelOp(int64_t num_replicas, int64_t num_partitions,
                std::vector<std::shared_ptr<const CompiledRegion>> programs,
                std::vector<size_t> first_argument,
                std::vector<std::shared_ptr<const CompiledRegion>> infeed,
                std::vector<ChannelUse> channel_uses, std::string location)
      : num_replicas_(num_replicas),
        num_partitions_(num_partitions),
        programs_(std::move(programs)),
        first_argument_(std::move(first_argument)),
        infeed_(std::move(infeed)),
        channel_uses_(std::move(channel_uses)),
        location_(std::move(location)) {
    for (const ChannelUse& use : channel_uses_) {
      host_channels_.insert(use.sends.begin(), use.sends.end());
      host_channels_.insert(use.recvs.begin(), use.recvs.end());
    }
  }

  Results Execute(const std::vector<RtValue>& operands, ExecContext& outer) const override {
    const size_t count = programs_.size();
    if (operands.size() != first_argument_.back()) {
      return InvalidArgument("expects ", first_argument_.back(), " operands, got ",
                             operands.size());
    }
    FeedQueues feeds;
    for (const auto& queue : infeed_) {
      ExecContext context;
      context.probes = outer.probes;
      context.kernel_threads = outer.kernel_threads;
      PLUGRT_ASSIGN_OR_RETURN(std::vector<RtValue> entry, queue->Run({}, context));
      feeds.infeed.push_back(std::move(entry));
    }
    const JobNodes* job = outer.job != nullptr && outer.job->num_nodes > 1 ? outer.job : nullptr;
    if (job != nullptr && static_cast<size_t>(job->num_nodes) != count) {
      return FailedPrecondition("interpreter.run_parallel: a grid of ", count,
                                " processes in a job of ", job->num_nodes,
                                " OS processes; across processes each runs one grid member");
    }
    std::optional<CrossNodeChannels> cross_channels;
    if (job != nullptr) {
      // Every node runs this op as often as the others: the run's number
      // is the same on all of them.
      cross_channels = CrossNodeChannels{
          job, &channel_uses_, StrCat("run-parallel/", location_, "/", runs_++, "/channel/")};
    }
    QueuedChannels channels(host_channels_, std::move(cross_channels));
    std::optional<CollectiveHub> hub;
    if (job != nullptr) {
      CrossProcess cross;
      for (size_t p = 0; p < count; ++p) cross.node_of_process.push_back(static_cast<int>(p));
      cross.exchange = job->exchange;
      hub.emplace(num_replicas_, num_partitions_, std::move(cross),
                  2 * CollectiveHub::kDefaultTimeout);
    } else {
      hub.emplace(num_replicas_, num_partitions_);
    }
    std::vector<Results> results(count, Status(StatusCode::kUnknown, "did not run"));

    auto run = [&](size_t p) {
      ExecContext context;
      context.replica_id = static_cast<int64_t>(p) / num_partitions_;
      context.partition_id = static_cast<int64_t>(p) % num_partitions_;
      context.num_replicas = num_replicas_;
      context.num_partitions = num_partitions_;
      context.collectives = &*hub;
      context.feeds = &feeds;
      context.host_channels = &channels;
      context.device_index = static_cast<int64_t>(p);
      context.probes = outer.probes;
      context.kernel_threads = outer.kernel_threads;
      context.frame = nullptr;  // a callee sees only its arguments
      try {
        std::vector<RtValue> arguments(
            operands.begin() + static_cast<std::ptrdiff_t>(first_argument_[p]),
            operands.begin() + static_cast<std::ptrdiff_t>(first_argument_[p + 1]));
        results[p] = programs_[p]->Run(std::move(arguments), context);
      } catch (const std::exception& e) {
        // Nothing may escape a thread (it would terminate the process).
        results[p] = Internal("unexpected exception: ", e.what());
      }
      if (!results[p].ok()) {
        // Wake the peers waiting for this process. The hub keeps the first
        // reason, so the run reports the cause rather than its echoes.
        const Status& error = results[p].status();
        hub->Abort(Status(error.code(),
                         StrCat("process (replica ", context.replica_id, ", partition ",
                                context.partition_id, "): ", error.message())));
      }
      hub->Finished(static_cast<int64_t>(p));  // after any Abort: the cause comes first
    };

    if (job != nullptr) {
      const size_t self = static_cast<size_t>(job->node_id);
      run(self);
      // Every node hands its member's outcome to every other (failures too,
      // so that no node waits for a member that failed).
      StatusOr<std::string> encoded = EncodeOutcome(results[self]);
      if (!encoded.ok()) encoded = EncodeOutcome(Results(encoded.status()));
      std::vector<int> nodes;
      for (size_t p = 0; p < count; ++p) nodes.push_back(static_cast<int>(p));
      PLUGRT_RETURN_IF_ERROR(job->exchange->AllGather(
          "run-parallel-results", nodes, *encoded, [&](size_t p, std::string_view bytes) {
            if (p != self) results[p] = DecodeOutcome(bytes, static_cast<int>(p));
            return OkStatus();
          }));
      // The first failure (in process order) is the run's error.
      for (size_t p = 0; p < count; ++p) {
        if (!results[p].ok()) return results[p].status();
      }
    } else if (count == 1) {
      run(0);
    } else {
      std::vector<std::thread> threads;
      threads.reserve(count);
      for (size_t p = 0; p < count; ++p) {
        try {
          threads.emplace_back(run, p);
        } catch (const std::exception& e) {
          hub->Abort(ResourceExhausted("cannot start a thread for process ", p, ": ", e.what()));
          break;
        }
      }
      for (std::thread& thread : threads) thread.join();
    }
    if (job == nullptr) PLUGRT_RETURN_IF_ERROR(hub->abort_status());

    std::vector<RtValue> all;
    for (Results& process : results) {
      if (!process.ok()) return process.status();
      for (RtValue& value : *process) all.push_back(std::move(value));
    }
    return all;
  }

 private:
  int64_t num_replicas_;
  int64_t num_partitions_;
  std::vector<std::shared_ptr<const CompiledRegion>> programs_;  // process order
  // Process p takes operands [first_argument_[p], first_argument_[p + 1]).
  std::vector<size_t> first_argument_;
  std::vector<std::shared_ptr<const CompiledRegion>> infeed_;  // entry producers, in order
  std::vector<ChannelUse> channel_uses_;  // by process
  std::set<int64_t> host_channels_;  // every channel of the processes' host transfers
  std::string location_;  // the op's location and grid, naming its messages across nodes
  mutable std::atomic<uint64_t> runs_{0};
};

// The function symbols of an array attribute (`infeed`, a row of `programs`).
StatusOr<std::vector<std::string>> SymbolList(const shlo::Operation& op,
                                              const shlo::Attribute& list, std::string_view what) {
  if (list.kind != shlo::Attribute::Kind::kArray) {
    return OpError(op, StatusCode::kInvalidArgument, StrCat("'", what, "' must be a list"));
  }
  std::vector<std::string> names;
  for (const shlo::Attribute& symbol : list.elements) {
    if (symbol.kind != shlo::Attribute::Kind::kSymbolRef) {
      return OpError(op, StatusCode::kInvalidArgument,
                     StrCat("'", what, "' must hold function symbols (@name)"));
    }
    names.push_back(symbol.str);
  }
  return names;
}

StatusOr<std::unique_ptr<CompiledOp>> CompileRunParallelOp(const shlo::Operation& op,
                                                           CompileContext& context) {
  for (const auto& [name, value] : op.attributes) {
    if (name != "programs" && name != "infeed") {
      return OpError(op, StatusCode::kUnimplemented,
                     StrCat("the attribute '", name, "' of interpreter.run_parallel is not "
                                                     "implemented"));
    }
  }
  const shlo::Attribute* programs = op.attribute("programs");
  if (programs == nullptr || programs->kind != shlo::Attribute::Kind::kArray ||
      programs->elements.empty()) {
    return OpError(op, StatusCode::kInvalidArgument,
                   "needs 'programs', a non-empty list of lists of function symbols");
  }
  const size_t num_replicas = programs->elements.size();
  size_t num_partitions = 0;
  std::vector<std::string> names;
  for (const shlo::Attribute& row : programs->elements) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<std::string> row_names, SymbolList(op, row, "programs"));
    if (row_names.empty()) {
      return OpError(op, StatusCode::kInvalidArgument,
                     "each row of 'programs' must be a non-empty list of function symbols");
    }
    if (num_partitions == 0) num_partitions = row_names.size();
    if (row_names.size() != num_partitions) {
      return OpError(op, StatusCode::kInvalidArgument,
                     "every row of 'programs' must have the same length (one per partition)");
    }
    names.insert(names.end(), row_names.begin(), row_names.end());
  }

  auto compile = [&](const std::string& name) -> StatusOr<std::shared_ptr<const CompiledRegion>> {
    StatusOr<std::shared_ptr<const CompiledRegion>> body = context.CompileFunction(name);
    if (!body.ok()) return OpError(op, body.status().code(), body.status().message());
    return *body;
  };
  // Each process takes as many operands as its function has inputs.
  std::vector<std::shared_ptr<const CompiledRegion>> compiled;
  std::vector<size_t> first_argument = {0};
  std::map<std::string, ChannelUse> uses_of;  // by function
  std::vector<ChannelUse> channel_uses;
  for (const std::string& name : names) {
    PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledRegion> body, compile(name));
    compiled.push_back(std::move(body));
    const shlo::Function* function = context.FindFunction(name);
    if (function == nullptr) {
      return OpError(op, StatusCode::kInvalidArgument, StrCat("no function @", name));
    }
    first_argument.push_back(first_argument.back() + function->input_types.size());
    auto [use, first] = uses_of.try_emplace(name);
    if (first && function->body) {
      std::set<std::string> visited = {name};
      CollectHostChannels(*function->body, context, &visited, &use->second);
    }
    channel_uses.push_back(use->second);
  }
  if (first_argument.back() != op.operands.size()) {
    return OpError(op, StatusCode::kInvalidArgument,
                   StrCat("the processes' functions take ", first_argument.back(),
                          " arguments in all, but the op has ", op.operands.size(),
                          " operands"));
  }
  std::vector<std::shared_ptr<const CompiledRegion>> infeed;
  if (const shlo::Attribute* queues = op.attribute("infeed")) {
    PLUGRT_ASSIGN_OR_RETURN(std::vector<std::string> queue_names,
                            SymbolList(op, *queues, "infeed"));
    for (const std::string& name : queue_names) {
      PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledRegion> body, compile(name));
      infeed.push_back(std::move(body));
    }
  }
  std::string grid;
  for (const std::string& name : names) grid += StrCat(grid.empty() ? "@" : ",@", name);
  return std::unique_ptr<CompiledOp>(new RunParallelOp(
      static_cast<int64_t>(num_replicas), static_cast<int64_t>(num_partitions),
      std::move(compiled), std::move(first_argument), std::move(infeed),
      std::move(channel_uses), StrCat(op.location.ToString(), "/", grid)));
}

}  // namespace

void RegisterRunParallelOp(OpRegistry& registry) {
  registry.Set(shlo::OpCode::kInterpreterRunParallel, &CompileRunParallelOp);
}

}  // namespace plugrt::cpu
