#include "cpu/exec/collective_hub.h"

#include <algorithm>
#include <set>
#include <utility>

namespace plugrt::cpu {
namespace {

std::string GroupString(const std::vector<int64_t>& group) {
  std::string text = "[";
  for (size_t i = 0; i < group.size(); ++i) text += StrCat(i ? ", " : "", group[i]);
  return text + "]";
}

}  // namespace

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
  // member has taken its copy.
  std::vector<std::vector<Tensor>> all = slot.contributions;
  if (++slot.departed == group.size()) slots_.erase(slot_key);
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
