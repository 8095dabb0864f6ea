#include "distributed/join_job.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>

#include "common/host_port.h"
#include "distributed/coordinator_store.h"
#include "distributed/key_value_store_url.h"
#include "remote/tls_config.h"

namespace plugrt::distributed {
namespace {

std::optional<int64_t> IntOption(const std::vector<NamedValue>& options, std::string_view name) {
  const NamedValue* value = FindNamedValue(options, name);
  if (value == nullptr) return std::nullopt;
  if (const int64_t* number = std::get_if<int64_t>(&value->value)) return *number;
  return std::nullopt;
}

// A duration in ms: the create option, else the variable, else `fallback`.
int64_t Milliseconds(const std::vector<NamedValue>& options, const EnvironmentLookup& env,
                     std::string_view option, const char* variable, int64_t fallback) {
  if (std::optional<int64_t> value = IntOption(options, option)) return *value;
  if (std::optional<std::string> text = env(variable)) {
    int64_t value = 0;
    auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (error == std::errc() && end == text->data() + text->size() && value > 0) return value;
  }
  return fallback;
}

// Threads for this process: what the launcher pinned it to, or its share of
// the host's cores among the job's processes there.
int ThreadShare(int local_size) {
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  const int machine = online > 0 ? static_cast<int>(online) : 1;
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof(mask), &mask) == 0) {
    const int allowed = CPU_COUNT(&mask);
    if (allowed > 0 && allowed < machine) return allowed;
  }
  return std::max(1, machine / std::max(1, local_size));
}

// This host's address on the route toward `name` (a host name or an
// address without brackets; a UDP socket connected there sends nothing);
// empty when it cannot be found.
std::string LocalAddressToward(const std::string& name) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(name.c_str(), "9", &hints, &found) != 0 || found == nullptr) return "";
  std::string address;
  for (addrinfo* a = found; a != nullptr && address.empty(); a = a->ai_next) {
    const int fd = socket(a->ai_family, SOCK_DGRAM, 0);
    if (fd < 0) continue;
    sockaddr_storage local{};
    socklen_t length = sizeof(local);
    if (connect(fd, a->ai_addr, a->ai_addrlen) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) == 0) {
      char text[INET6_ADDRSTRLEN] = {};
      const void* bytes =
          local.ss_family == AF_INET
              ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(&local)->sin_addr)
              : static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(&local)->sin6_addr);
      if (inet_ntop(local.ss_family, bytes, text, sizeof(text)) != nullptr) address = text;
    }
    close(fd);
  }
  freeaddrinfo(found);
  return address;
}

StatusOr<std::shared_ptr<KeyValueStore>> OpenJobStore(const ClusterEnvironment& job,
                                                      const std::vector<NamedValue>& options,
                                                      const EnvironmentLookup& env) {
  if (!job.store.empty()) {
    PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<KeyValueStore> store, OpenKeyValueStore(job.store));
    return std::shared_ptr<KeyValueStore>(std::move(store));
  }
  if (job.coordinator.empty()) {
    return InvalidArgument("num_nodes=", job.num_nodes, " needs ", kKvStoreEnv, " or ",
                           kCoordinatorEnv, " to name the job's key-value store");
  }
  PLUGRT_ASSIGN_OR_RETURN(HostPort coordinator,
                          ParseHostAndPort(job.coordinator, job.coordinator_source));
  const std::chrono::milliseconds timeout(
      Milliseconds(options, env, "distributed_timeout_ms", "PLUGRT_DISTRIBUTED_TIMEOUT_MS", 60000));
  const remote::TlsConfig tls = remote::TlsFromEnvironment(
      {}, [&env](const char* name) { return env(name).value_or(""); });
  if (job.node_id != 0) {
    // A call to a coordinator cut off fails within half a heartbeat timeout,
    // so the heartbeat names the lost store in time and a node shutting down
    // does not wait long to say it left.
    const int64_t heartbeat_timeout =
        Milliseconds(options, env, "heartbeat_timeout_ms", "PLUGRT_HEARTBEAT_TIMEOUT_MS", 10000);
    const std::chrono::milliseconds io(std::clamp<int64_t>(heartbeat_timeout / 2, 500, 10000));
    PLUGRT_ASSIGN_OR_RETURN(
        std::unique_ptr<GrpcKeyValueStore> store,
        GrpcKeyValueStore::Connect(job.coordinator, job.node_id, timeout, io, tls));
    return std::shared_ptr<KeyValueStore>(std::move(store));
  }
  CoordinatorStore::Options serve;
  serve.num_nodes = job.num_nodes;
  serve.tls = tls;
  // On loopback, the address itself; otherwise every interface of this host
  // (the coordinator's name may be any of its addresses). Clear text there
  // needs consent (remote/tls.h).
  serve.listen = remote::IsLoopbackAddress(job.coordinator)
                     ? job.coordinator
                     : StrCat(coordinator.ipv6 ? "[::]" : "0.0.0.0", ":", *coordinator.port);
  serve.source = StrCat(job.coordinator, " from ", job.coordinator_source);
  // After the last call, wait a few heartbeats before deciding the others
  // are gone without a goodbye.
  const int64_t interval =
      Milliseconds(options, env, "heartbeat_interval_ms", "PLUGRT_HEARTBEAT_INTERVAL_MS", 1000);
  serve.idle = std::chrono::milliseconds(std::max<int64_t>(5000, 3 * interval));
  PLUGRT_ASSIGN_OR_RETURN(std::unique_ptr<CoordinatorStore> store,
                          CoordinatorStore::Start(std::move(serve)));
  return std::shared_ptr<KeyValueStore>(std::move(store));
}

}  // namespace

StatusOr<std::optional<ClusterEnvironment>> JoinJob(std::vector<NamedValue>& create_options,
                                                    std::shared_ptr<KeyValueStore>& store,
                                                    const EnvironmentLookup& env) {
  PLUGRT_ASSIGN_OR_RETURN(std::optional<ClusterEnvironment> found, DetectCluster(env));
  if (!found) return found;
  ClusterEnvironment& job = *found;
  // The caller's own settings win.
  if (std::optional<int64_t> node = IntOption(create_options, "node_id")) {
    job.node_id = static_cast<int>(*node);
  } else {
    create_options.push_back(NamedValue{"node_id", int64_t{job.node_id}});
  }
  if (std::optional<int64_t> nodes = IntOption(create_options, "num_nodes")) {
    job.num_nodes = static_cast<int>(*nodes);
  } else {
    create_options.push_back(NamedValue{"num_nodes", int64_t{job.num_nodes}});
  }
  if (FindNamedValue(create_options, "threads") == nullptr && !env("PLUGRT_THREADS")) {
    const int devices = static_cast<int>(IntOption(create_options, "cpu_device_count").value_or(1));
    const int threads = std::max(1, ThreadShare(job.local_size) / std::max(1, devices));
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (threads * std::max(1, devices) < online) {
      create_options.push_back(NamedValue{"threads", int64_t{threads}});
    }
  }
  if (job.multi_host && !job.coordinator.empty() &&
      FindNamedValue(create_options, "collectives_hostname") == nullptr &&
      !env("PLUGRT_COLLECTIVES_HOSTNAME")) {
    StatusOr<HostPort> coordinator = ParseHostAndPort(job.coordinator, job.coordinator_source);
    if (coordinator.ok()) {
      const std::string local = LocalAddressToward(coordinator->host);
      if (!local.empty()) create_options.push_back(NamedValue{"collectives_hostname", local});
    }
  }
  if (store == nullptr && job.num_nodes > 1) {
    PLUGRT_ASSIGN_OR_RETURN(store, OpenJobStore(job, create_options, env));
  }
  return found;
}

}  // namespace plugrt::distributed
