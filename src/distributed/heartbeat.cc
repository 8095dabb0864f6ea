#include "distributed/heartbeat.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <fstream>
#include <sstream>

#include "distributed/host_identity.h"

namespace plugrt::distributed {
namespace {

constexpr std::string_view kPrefix = "plugrt/heartbeat/";

// Set once any monitor of this process reports a lost node (AnyLost()).
std::atomic<bool> any_lost{false};
constexpr std::string_view kLeft = "left";

// This machine and pid namespace: peers that announce the same one have
// pids this process can look up.
std::string MachineId() {
  const std::string id = BootAndNamespace("pid");
  return id.empty() ? "unknown" : id;
}

// Whether process `pid` of this machine has ended (gone, or a zombie not
// yet reaped).
bool ProcessGone(long pid) {
  if (pid <= 0) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0) return errno == ESRCH;
  std::ifstream stat(StrCat("/proc/", pid, "/stat"));
  std::string line;
  if (!std::getline(stat, line)) return false;
  // "pid (comm) state ...": comm may hold spaces and parentheses.
  const size_t close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z';
}

struct BeatValue {
  std::string counter;  // or kLeft
  long pid = 0;
  std::string machine;
  std::string host;
};

// "<counter|left> <pid> <machine> <host>"
bool ParseBeat(const std::string& text, BeatValue* beat) {
  std::istringstream in(text);
  if (!(in >> beat->counter >> beat->pid >> beat->machine)) return false;
  in >> std::ws;
  std::getline(in, beat->host);
  return true;
}

}  // namespace

HeartbeatMonitor::HeartbeatMonitor(std::shared_ptr<KeyValueStore> store, Options options)
    : store_(std::move(store)), options_(std::move(options)), machine_(MachineId()) {
  peers_.resize(static_cast<size_t>(std::max(options_.num_nodes, 0)));
  store_answered_ = std::chrono::steady_clock::now();
}

StatusOr<std::shared_ptr<HeartbeatMonitor>> HeartbeatMonitor::Start(
    std::shared_ptr<KeyValueStore> store, Options options) {
  if (options.interval.count() < 1 || options.timeout <= options.interval) {
    return InvalidArgument("heartbeat: the timeout (", options.timeout.count(),
                           " ms) must exceed the interval (", options.interval.count(),
                           " ms), which must be at least 1 ms");
  }
  std::shared_ptr<HeartbeatMonitor> monitor(new HeartbeatMonitor(std::move(store), options));
  PLUGRT_RETURN_IF_ERROR(monitor->Beat());
  monitor->thread_ = std::thread([raw = monitor.get()] { raw->Loop(); });
  return monitor;
}

HeartbeatMonitor::~HeartbeatMonitor() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  // A clean exit is not a failure: peers that still need this node learn
  // that it left rather than waiting for the timeout. Best effort: the
  // store may be gone already.
  (void)store_->Put(StrCat(kPrefix, options_.node_id),
                    StrCat(kLeft, " ", ::getpid(), " ", machine_, " ", options_.hostname));
}

Status HeartbeatMonitor::Beat() {
  return store_->Put(StrCat(kPrefix, options_.node_id),
                     StrCat(++counter_, " ", ::getpid(), " ", machine_, " ", options_.hostname));
}

void HeartbeatMonitor::Watch(bool check_processes) {
  // The store is read without the lock (a network store may be slow).
  std::vector<StatusOr<std::string>> values;
  values.reserve(peers_.size());
  for (int n = 0; n < options_.num_nodes; ++n) {
    values.push_back(n == options_.node_id ? StatusOr<std::string>(std::string())
                                           : store_->TryGet(StrCat(kPrefix, n)));
  }
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mu_);
  for (int n = 0; n < options_.num_nodes; ++n) {
    if (n == options_.node_id) continue;
    Peer& peer = peers_[static_cast<size_t>(n)];
    if (!peer.lost.ok()) continue;  // once lost, always lost
    const StatusOr<std::string>& value = values[static_cast<size_t>(n)];
    if (!value.ok()) {
      if (value.status().code() != StatusCode::kNotFound) store_error_ = value.status();
      continue;  // not beating yet (or the store failed): nothing to judge
    }

    if (*value != peer.last_value) {
      BeatValue beat;
      if (ParseBeat(*value, &beat)) {
        peer.host = beat.host;
        peer.pid = beat.pid;
        peer.same_machine = beat.machine == machine_ && machine_ != "unknown";
        if (beat.counter == kLeft) {
          peer.lost = MakeError(StatusCode::kUnavailable, "node ", n, " (host ", peer.host,
                                ", pid ", peer.pid, ") has left the job (its client shut down)");
          continue;
        }
      }
      peer.last_value = *value;
      peer.last_change = now;
      continue;
    }
    if (check_processes && peer.same_machine && ProcessGone(peer.pid)) {
      peer.lost = MakeError(StatusCode::kUnavailable, "node ", n, " (host ", peer.host, ", pid ",
                            peer.pid, ") is gone: its process has ended");
      continue;
    }
    if (now - peer.last_change >= options_.timeout) {
      peer.lost = MakeError(
          StatusCode::kUnavailable, "node ", n, " (host ", peer.host, ", pid ", peer.pid,
          ") stopped answering: no heartbeat for ",
          std::chrono::duration_cast<std::chrono::milliseconds>(now - peer.last_change).count(),
          " ms (heartbeat_timeout_ms is ", options_.timeout.count(), ")");
    }
  }
}

void HeartbeatMonitor::Loop() {
  auto previous = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    wake_.wait_for(lock, options_.interval, [this] { return stop_; });
    if (stop_) break;
    lock.unlock();
    const Status beat = Beat();
    const auto now = std::chrono::steady_clock::now();
    // A loop that did not run for a long while (this process stopped or
    // starved) has not watched its peers: it judges none of them on it.
    if (now - previous > options_.timeout / 2) {
      std::lock_guard<std::mutex> reset(mu_);
      for (Peer& peer : peers_) peer.last_change = now;
    }
    previous = now;
    Watch(/*check_processes=*/true);
    lock.lock();
    if (beat.ok()) {
      store_answered_ = now;
      store_error_ = OkStatus();
    } else {
      store_error_ = beat;
    }
  }
}

Status HeartbeatMonitor::Lost(const std::vector<int>& nodes) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (int n : nodes) {
    if (n < 0 || n >= options_.num_nodes || n == options_.node_id) continue;
    const Status& lost = peers_[static_cast<size_t>(n)].lost;
    if (!lost.ok()) {
      any_lost.store(true);
      return lost;
    }
  }
  if (!store_error_.ok() && std::chrono::steady_clock::now() - store_answered_ >= options_.timeout) {
    any_lost.store(true);
    return MakeError(StatusCode::kUnavailable, "node ", options_.node_id,
                     " cannot reach the job's key-value store for its heartbeat: ",
                     store_error_.message());
  }
  return OkStatus();
}

bool HeartbeatMonitor::AnyLost() { return any_lost.load(); }

Status HeartbeatMonitor::LostNow(const std::vector<int>& nodes) {
  Watch(/*check_processes=*/true);
  return Lost(nodes);
}

}  // namespace plugrt::distributed
