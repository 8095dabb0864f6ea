#include "cpu/exec/collective_hub.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <utility>

#include "common/byte_io.h"
#include "common/content_hash.h"

namespace plugrt::cpu {

std::string GroupString(const std::vector<int64_t>& group) {
  std::string text = "[";
  for (size_t i = 0; i < group.size(); ++i) text += StrCat(i ? ", " : "", group[i]);
  return text + "]";
}

namespace {

// The largest send buffer a thread keeps for its next exchange.
constexpr size_t kKeptSendBytes = size_t{64} << 20;

// The channel of a cross-process group: the same on every node, one per
// group of flattened ids.
std::string ChannelOf(const std::vector<int64_t>& group) {
  std::string ids;
  for (int64_t id : group) ids += StrCat(id, ",");
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx",
                static_cast<unsigned long long>(Checksum64(ids)));
  return StrCat("g", group.size(), "-", hex);
}

}  // namespace

CollectiveHub::CollectiveHub(int64_t num_replicas, int64_t num_partitions, CrossProcess cross,
                             std::chrono::milliseconds timeout)
    : CollectiveHub(num_replicas, num_partitions, timeout) {
  cross_ = std::move(cross);
}

Status CollectiveHub::ExchangeAcrossNodes(std::string_view key, const std::vector<int64_t>& group,
                                          int64_t sequence, Slot& slot) {
  const int self = cross_.exchange->node_id();
  std::vector<int> nodes;
  for (int64_t id : group) nodes.push_back(cross_.node_of_process[static_cast<size_t>(id)]);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());

  // This node's part: which collective it is in (checked on arrival, so
  // nodes that disagree fail instead of mixing operands), then each local
  // member's operands. Written into a buffer this thread keeps between
  // exchanges (up to kKeptSendBytes): the pages of a fresh one of some MiB
  // fault in one by one, slower than the exchange itself.
  thread_local std::string bytes;
  bytes.clear();
  ByteWriter writer(bytes);
  writer.LengthPrefixed(key);
  writer.U64(static_cast<uint64_t>(sequence));
  for (size_t i = 0; i < group.size(); ++i) {
    if (!slot.present[i]) continue;
    writer.U32(static_cast<uint32_t>(i));
    writer.U32(static_cast<uint32_t>(slot.contributions[i].size()));
    for (const Tensor& tensor : slot.contributions[i]) {
      writer.U32(static_cast<uint32_t>(tensor.type()));
      writer.U32(static_cast<uint32_t>(tensor.rank()));
      for (int64_t dim : tensor.dims()) writer.U64(static_cast<uint64_t>(dim));
      writer.LengthPrefixed(std::string_view(reinterpret_cast<const char*>(tensor.data()),
                                             tensor.byte_size()));
    }
  }
  auto take = [&](size_t n, std::string_view their_bytes) -> Status {
    if (nodes[n] == self) return OkStatus();
    const std::string subject = StrCat("collective operands from node ", nodes[n]);
    ByteReader reader(their_bytes, subject);
    std::string_view their_key;
    uint64_t their_sequence = 0;
    PLUGRT_RETURN_IF_ERROR(reader.LengthPrefixed(&their_key, "collective name"));
    PLUGRT_RETURN_IF_ERROR(reader.U64(&their_sequence, "sequence"));
    if (their_key != key || their_sequence != static_cast<uint64_t>(sequence)) {
      return FailedPrecondition("collective '", key, "' (#", sequence, ") over processes ",
                                GroupString(group), ": node ", nodes[n], " is in collective '",
                                their_key, "' (#", their_sequence,
                                ") instead (do all processes run the same program?)");
    }
    while (!reader.AtEnd()) {
      uint32_t position = 0, count = 0;
      PLUGRT_RETURN_IF_ERROR(reader.U32(&position, "member"));
      PLUGRT_RETURN_IF_ERROR(reader.U32(&count, "operand count"));
      if (position >= group.size() || slot.present[position] ||
          cross_.node_of_process[static_cast<size_t>(group[position])] != nodes[n]) {
        return Internal(subject, ": member ", position, " is not one of that node's");
      }
      std::vector<Tensor> tensors;
      for (uint32_t t = 0; t < count; ++t) {
        uint32_t type = 0, rank = 0;
        PLUGRT_RETURN_IF_ERROR(reader.U32(&type, "element type"));
        PLUGRT_RETURN_IF_ERROR(reader.U32(&rank, "rank"));
        if (type >= static_cast<uint32_t>(shlo::kNumElementTypes) || rank > 64) {
          return Internal(subject, ": malformed operand header");
        }
        const auto element = static_cast<ElementType>(type);
        std::vector<int64_t> dims(rank);
        // The bytes the dims call for, checked before anything is allocated.
        unsigned __int128 expected = static_cast<unsigned>(shlo::StorageBytes(element));
        for (int64_t& dim : dims) {
          uint64_t value = 0;
          PLUGRT_RETURN_IF_ERROR(reader.U64(&value, "dimension"));
          if (value > (uint64_t{1} << 48)) return Internal(subject, ": dimension out of range");
          dim = static_cast<int64_t>(value);
          expected = std::min<unsigned __int128>(expected * value, uint64_t{1} << 62);
        }
        std::string_view data;
        PLUGRT_RETURN_IF_ERROR(reader.LengthPrefixed(&data, "operand bytes"));
        if (expected != data.size()) {
          return Internal(subject, ": operand of ", data.size(), " bytes does not fit its shape");
        }
        Tensor tensor = Tensor::Uninitialized(element, std::move(dims));
        if (!data.empty()) std::memcpy(tensor.MutableData(), data.data(), data.size());
        tensors.push_back(std::move(tensor));
      }
      slot.contributions[position] = std::move(tensors);
      slot.present[position] = true;
    }
    return OkStatus();
  };
  const Status gathered = cross_.exchange->AllGather(ChannelOf(group), nodes, bytes, take);
  if (bytes.capacity() > kKeptSendBytes) std::string().swap(bytes);
  PLUGRT_RETURN_IF_ERROR(gathered);
  for (size_t i = 0; i < group.size(); ++i) {
    if (!slot.present[i]) {
      return Internal("collective '", key, "': no operands arrived for process ", group[i]);
    }
  }
  return OkStatus();
}

CollectiveHub::CollectiveHub(int64_t num_replicas, int64_t num_partitions,
                             std::chrono::milliseconds timeout)
    : num_replicas_(std::max<int64_t>(num_replicas, 1)),
      num_partitions_(std::max<int64_t>(num_partitions, 1)),
      timeout_(timeout),
      finished_(static_cast<size_t>(num_replicas_ * num_partitions_), false),
      sequence_(static_cast<size_t>(num_replicas_ * num_partitions_)) {}

StatusOr<std::vector<std::vector<Tensor>>> CollectiveHub::Exchange(
    std::string_view key, const std::vector<int64_t>& group, int64_t self,
    std::vector<Tensor> contribution) {
  return Meet(key, group, self, std::move(contribution), std::nullopt);
}

bool CollectiveHub::SpansNodes(const std::vector<int64_t>& group) const {
  if (cross_.node_of_process.empty()) return false;
  const int here = cross_.exchange->node_id();
  for (int64_t id : group) {
    if (id < 0 || id >= num_processes()) return false;  // Meet names the error
    if (cross_.node_of_process[static_cast<size_t>(id)] != here) return true;
  }
  return false;
}

StatusOr<std::vector<Tensor>> CollectiveHub::AllReduceAcrossNodes(
    std::string_view key, const std::vector<int64_t>& group, int64_t self,
    std::vector<Tensor> operands, RemoteExchange::Reduction reduction) {
  if (!SpansNodes(group)) return Internal("AllReduceAcrossNodes for a group within one process");
  PLUGRT_ASSIGN_OR_RETURN(std::vector<std::vector<Tensor>> row,
                          Meet(key, group, self, std::move(operands), reduction));
  return std::move(row[0]);
}

Status CollectiveHub::ReduceAcrossNodes(const std::vector<int64_t>& group,
                                        RemoteExchange::Reduction reduction, Slot& slot) {
  std::vector<int> nodes;
  for (int64_t id : group) nodes.push_back(cross_.node_of_process[static_cast<size_t>(id)]);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  std::vector<size_t> local;
  for (size_t i = 0; i < group.size(); ++i) {
    if (slot.present[i]) local.push_back(i);
  }
  const std::vector<Tensor>& first = slot.contributions[local[0]];
  std::vector<Tensor> results;
  for (size_t k = 0; k < first.size(); ++k) {
    std::vector<const void*> inputs;
    for (size_t i : local) {
      const std::vector<Tensor>& theirs = slot.contributions[i];
      if (theirs.size() != first.size() || theirs[k].type() != first[k].type() ||
          theirs[k].dims() != first[k].dims()) {
        return InvalidArgument("all-reduce over processes ", GroupString(group), ": process ",
                               group[i], "'s operands differ from process ", group[local[0]],
                               "'s");
      }
      inputs.push_back(theirs[k].data());
    }
    Tensor result = Tensor::Uninitialized(first[k].type(), first[k].dims());
    // Tensors share their storage: these copies keep the bytes alive.
    auto keep_alive = std::make_shared<std::vector<Tensor>>();
    for (size_t i : local) keep_alive->push_back(slot.contributions[i][k]);
    keep_alive->push_back(result);
    PLUGRT_RETURN_IF_ERROR(cross_.exchange->AllReduce(
        ChannelOf(group), nodes, reduction, first[k].type(), inputs, result.MutableData(),
        static_cast<size_t>(first[k].num_elements()), std::move(keep_alive)));
    results.push_back(std::move(result));
  }
  slot.reduced = std::move(results);
  return OkStatus();
}

StatusOr<std::vector<std::vector<Tensor>>> CollectiveHub::Meet(
    std::string_view key, const std::vector<int64_t>& group, int64_t self,
    std::vector<Tensor> contribution, std::optional<RemoteExchange::Reduction> reduction) {
  // Validate before touching shared state: a bad group must harm nobody.
  std::set<int64_t> seen;
  size_t position = group.size();
  for (size_t i = 0; i < group.size(); ++i) {
    const int64_t id = group[i];
    if (id < 0 || id >= num_processes()) {
      return InvalidArgument("process ", id, " in group ", GroupString(group),
                             " is out of range: this execution has ", num_processes(),
                             " processes");
    }
    if (!seen.insert(id).second) {
      return InvalidArgument("process ", id, " appears twice in group ", GroupString(group));
    }
    if (id == self) position = i;
  }
  if (position == group.size()) {
    return InvalidArgument("process ", self, " is not a member of group ", GroupString(group));
  }

  std::unique_lock<std::mutex> lock(mutex_);
  if (!aborted_.ok()) return aborted_;
  auto& counters = sequence_[static_cast<size_t>(self)];
  const int64_t sequence = counters[{std::string(key), group}]++;
  SlotKey slot_key(std::string(key), group, sequence);
  Slot& slot = slots_[slot_key];
  if (slot.contributions.empty()) {
    slot.contributions.resize(group.size());
    slot.present.assign(group.size(), false);
  }
  slot.contributions[position] = std::move(contribution);
  slot.present[position] = true;
  ++slot.arrived;
  if (slot.arrived == group.size()) changed_.notify_all();
  // The members in this OS process: all of them, unless the group spans
  // processes.
  size_t local_members = group.size();
  if (!cross_.node_of_process.empty()) {
    const int here = cross_.exchange->node_id();
    local_members = 0;
    for (int64_t id : group) {
      local_members += cross_.node_of_process[static_cast<size_t>(id)] == here ? 1 : 0;
    }
  }
  if (!cross_.node_of_process.empty() && slot.arrived < group.size()) {
    // The last local member to arrive speaks for this node; the slot stays
    // where it is (std::map) while the lock is released.
    if (slot.arrived == local_members) {
      lock.unlock();
      Status exchanged = reduction ? ReduceAcrossNodes(group, *reduction, slot)
                                   : ExchangeAcrossNodes(key, group, sequence, slot);
      lock.lock();
      if (exchanged.ok()) {
        slot.arrived = group.size();
      } else if (aborted_.ok()) {
        aborted_ = exchanged;
      }
      changed_.notify_all();
    }
  }

  // The members that have not deposited yet, as text.
  auto missing = [&] {
    std::string text;
    for (size_t i = 0; i < group.size(); ++i) {
      if (!slot.present[i]) text += StrCat(text.empty() ? "" : ", ", group[i]);
    }
    return text;
  };
  auto finished_member_missing = [&] {
    for (size_t i = 0; i < group.size(); ++i) {
      if (!slot.present[i] && finished_[static_cast<size_t>(group[i])]) return true;
    }
    return false;
  };
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  while (slot.arrived < group.size() && aborted_.ok()) {
    if (finished_member_missing()) {
      aborted_ = FailedPrecondition("collective '", key, "' over processes ", GroupString(group),
                                    ": process(es) ", missing(),
                                    " finished without entering it (do all processes run the "
                                    "same collectives in the same order?)");
      changed_.notify_all();
      break;
    }
    if (changed_.wait_until(lock, deadline) == std::cv_status::timeout &&
        slot.arrived < group.size() && aborted_.ok()) {
      aborted_ = Status(
          StatusCode::kDeadlineExceeded,
          StrCat("collective '", key, "' over processes ", GroupString(group), ": process ",
                 self, " waited ", timeout_.count(), " ms for process(es) ", missing(),
                 ", which never arrived (do all processes run the same collectives in the "
                 "same order?)"));
      changed_.notify_all();
    }
  }
  if (slot.arrived < group.size()) return aborted_;

  // Tensors share storage, so this copy is cheap; the slot goes once every
  // member of this process has taken its copy (a sole member's results then
  // hold their storage alone, and an output can take it over uncopied).
  std::vector<std::vector<Tensor>> all =
      reduction ? std::vector<std::vector<Tensor>>{slot.reduced} : slot.contributions;
  if (++slot.departed == local_members) slots_.erase(slot_key);
  return all;
}

bool CollectiveHub::Abort(const Status& reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!aborted_.ok()) return false;
  aborted_ = reason.ok() ? Status(StatusCode::kAborted, "collectives aborted") : reason;
  changed_.notify_all();
  return true;
}

void CollectiveHub::Finished(int64_t self) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (self < 0 || self >= num_processes()) return;
  finished_[static_cast<size_t>(self)] = true;
  changed_.notify_all();
}

Status CollectiveHub::abort_status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return aborted_;
}

}  // namespace plugrt::cpu
