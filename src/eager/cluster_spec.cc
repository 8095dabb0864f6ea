#include "eager/cluster_spec.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/trim.h"

namespace plugrt::eager {

namespace {

bool ParseDecimal(std::string_view text, int& out) {
  if (text.empty()) return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size();
}

Status CheckJobName(std::string_view job) {
  if (job.empty()) return InvalidArgument("cluster spec: a job has an empty name");
  for (char c : job) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') {
      return InvalidArgument("cluster spec: job name '", job,
                             "' may hold only letters, digits, '_' and '-'");
    }
  }
  if (job == kLocalJob) {
    return InvalidArgument("cluster spec: job name '", kLocalJob,
                           "' is the context's own devices; give remote tasks another job");
  }
  return OkStatus();
}

// host:port, the host any non-empty name without spaces ("[::1]" for IPv6).
Status CheckAddress(std::string_view task, std::string_view address) {
  const size_t colon = address.rfind(':');
  int port = 0;
  if (colon == std::string_view::npos || colon == 0 ||
      !ParseDecimal(address.substr(colon + 1), port) || port < 1 || port > 65535 ||
      std::any_of(address.begin(), address.end(),
                  [](unsigned char c) { return std::isspace(c) || c == ',' || c == ';'; })) {
    return InvalidArgument("cluster spec: task ", task, " has address '", address,
                           "'; expected host:port with a port in 1-65535");
  }
  return OkStatus();
}

}  // namespace

std::string TaskName(std::string_view job, int task) {
  return StrCat("/job:", job, "/task:", task);
}

Status ClusterSpec::AddTask(std::string_view job, int index, std::string_view address) {
  auto& tasks = jobs[std::string(job)];
  if (!tasks.emplace(index, std::string(address)).second) {
    return InvalidArgument("cluster spec: task ", TaskName(job, index), " is given twice ('",
                           tasks[index], "' and '", address, "')");
  }
  return OkStatus();
}

Status ClusterSpec::Validate() const {
  std::map<std::string_view, std::string> owners;  // address -> task
  for (const auto& [job, tasks] : jobs) {
    PLUGRT_RETURN_IF_ERROR(CheckJobName(job));
    if (tasks.empty()) return InvalidArgument("cluster spec: job '", job, "' has no tasks");
    for (const auto& [index, address] : tasks) {
      const std::string task = TaskName(job, index);
      if (index < 0) return InvalidArgument("cluster spec: task ", task, " has a negative index");
      PLUGRT_RETURN_IF_ERROR(CheckAddress(task, address));
      auto [it, added] = owners.emplace(address, task);
      if (!added) {
        return InvalidArgument("cluster spec: tasks ", it->second, " and ", task,
                               " have the same address ", address,
                               " (one worker serves one task)");
      }
    }
  }
  return OkStatus();
}

std::string ClusterSpec::ToString() const {
  std::string text;
  for (const auto& [job, tasks] : jobs) {
    text += (text.empty() ? "" : ";") + job + "=";
    bool first = true;
    for (const auto& [index, address] : tasks) {
      text += (first ? "" : ",") + address;
      first = false;
    }
  }
  return text;
}

StatusOr<ClusterSpec> ParseClusterSpec(std::string_view text) {
  ClusterSpec spec;
  if (TrimSpace(text).empty()) return spec;  // no remote tasks
  while (!text.empty()) {
    const size_t semicolon = text.find(';');
    std::string_view entry = TrimSpace(text.substr(0, semicolon));
    text = semicolon == std::string_view::npos ? std::string_view() : text.substr(semicolon + 1);
    if (entry.empty()) continue;
    const size_t equals = entry.find('=');
    if (equals == std::string_view::npos) {
      return InvalidArgument("cluster spec: '", entry,
                             "' is not JOB=ADDRESS,ADDRESS (host:port of each task)");
    }
    const std::string_view job = TrimSpace(entry.substr(0, equals));
    PLUGRT_RETURN_IF_ERROR(CheckJobName(job));
    if (spec.jobs.count(job) != 0) {
      return InvalidArgument("cluster spec: job '", job, "' is listed twice");
    }
    std::string_view addresses = entry.substr(equals + 1);
    int index = 0;
    while (true) {
      const size_t comma = addresses.find(',');
      const std::string_view address = TrimSpace(addresses.substr(0, comma));
      if (address.empty()) {
        return InvalidArgument("cluster spec: job '", job, "' has an empty address (task ", index,
                               ")");
      }
      PLUGRT_RETURN_IF_ERROR(spec.AddTask(job, index++, address));
      if (comma == std::string_view::npos) break;
      addresses = addresses.substr(comma + 1);
    }
  }
  PLUGRT_RETURN_IF_ERROR(spec.Validate());
  return spec;
}

StatusOr<std::optional<TaskDeviceName>> ParseTaskDeviceName(std::string_view name) {
  constexpr std::string_view kJob = "/job:";
  if (name.substr(0, kJob.size()) != kJob) return std::optional<TaskDeviceName>();
  auto malformed = [&] {
    return InvalidArgument("device name '", name,
                           "' is not /job:JOB/task:T/device:KIND:N (nor "
                           "/job:JOB/replica:0/task:T/device:KIND:N)");
  };
  std::string_view rest = name.substr(kJob.size());
  const size_t slash = rest.find('/');
  if (slash == std::string_view::npos || slash == 0) return malformed();
  TaskDeviceName parts;
  parts.job = std::string(rest.substr(0, slash));
  rest = rest.substr(slash);
  constexpr std::string_view kReplica = "/replica:0";
  if (rest.substr(0, kReplica.size()) == kReplica) rest = rest.substr(kReplica.size());
  constexpr std::string_view kTask = "/task:";
  if (rest.substr(0, kTask.size()) != kTask) return malformed();
  rest = rest.substr(kTask.size());
  const size_t device_at = rest.find("/device:");
  if (device_at == std::string_view::npos || !ParseDecimal(rest.substr(0, device_at), parts.task) ||
      parts.task < 0) {
    return malformed();
  }
  std::string_view device = rest.substr(device_at + std::string_view("/device:").size());
  const size_t colon = device.rfind(':');
  int index = 0;
  if (colon == std::string_view::npos || colon == 0 ||
      !ParseDecimal(device.substr(colon + 1), index) || index < 0) {
    return malformed();
  }
  parts.device = std::string(device);
  std::transform(parts.device.begin(), parts.device.end(), parts.device.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return std::optional<TaskDeviceName>(std::move(parts));
}

}  // namespace plugrt::eager
