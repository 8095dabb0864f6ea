#include "distributed/cluster_environment.h"

#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <vector>

#include "common/content_hash.h"
#include "common/host_port.h"
#include "remote/tls_config.h"

namespace plugrt::distributed {
namespace {

// One launcher's description of this process, before precedence and checks.
struct Description {
  const char* launcher = "";
  const char* rank_var = "";
  const char* size_var = "";
  int rank = 0;
  int size = 1;
  std::optional<int> local_rank;
  std::optional<int> local_size;
};

bool IsDecimal(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// `name`'s value as a number in [min, max]; nullopt when not set.
StatusOr<std::optional<int64_t>> ReadNumber(const EnvironmentLookup& env, const char* name,
                                            int64_t min, int64_t max) {
  const std::optional<std::string> text = env(name);
  if (!text) return std::optional<int64_t>();
  int64_t value = 0;
  auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size() || value < min || value > max) {
    return InvalidArgument(name, "='", *text, "' is not a number in [", min, ", ", max, "]");
  }
  return std::optional<int64_t>(value);
}

// A launcher's rank, size and local place; nullopt when neither the rank nor
// the size variable is set.
StatusOr<std::optional<Description>> ReadDescription(const EnvironmentLookup& env,
                                                     const char* launcher, const char* rank_var,
                                                     const char* size_var,
                                                     const char* local_rank_var,
                                                     const char* local_size_var) {
  constexpr int64_t kMax = 1 << 20;
  PLUGRT_ASSIGN_OR_RETURN(std::optional<int64_t> rank, ReadNumber(env, rank_var, 0, kMax));
  PLUGRT_ASSIGN_OR_RETURN(std::optional<int64_t> size, ReadNumber(env, size_var, 1, kMax));
  if (!rank && !size) return std::optional<Description>();
  if (!rank || !size) {
    return InvalidArgument("a partial ", launcher, " environment: ", rank ? rank_var : size_var,
                           " is set but ", rank ? size_var : rank_var, " is not");
  }
  if (*rank >= *size) {
    return InvalidArgument(rank_var, "=", *rank, " must be below ", size_var, "=", *size);
  }
  Description d;
  d.launcher = launcher;
  d.rank_var = rank_var;
  d.size_var = size_var;
  d.rank = static_cast<int>(*rank);
  d.size = static_cast<int>(*size);
  if (local_rank_var != nullptr) {
    PLUGRT_ASSIGN_OR_RETURN(std::optional<int64_t> local_rank,
                            ReadNumber(env, local_rank_var, 0, *size - 1));
    if (local_rank) d.local_rank = static_cast<int>(*local_rank);
  }
  if (local_size_var != nullptr) {
    PLUGRT_ASSIGN_OR_RETURN(std::optional<int64_t> local_size,
                            ReadNumber(env, local_size_var, 1, *size));
    if (local_size) d.local_size = static_cast<int>(*local_size);
  }
  if (d.local_rank && d.local_size && *d.local_rank >= *d.local_size) {
    return InvalidArgument(local_rank_var, "=", *d.local_rank, " must be below ", local_size_var,
                           "=", *d.local_size);
  }
  return std::optional<Description>(d);
}

// Tasks on this node of a Slurm step: SLURM_STEP_TASKS_PER_NODE ("2(x3),1")
// at index SLURM_NODEID; nullopt when either is missing or malformed.
std::optional<int> SlurmTasksOnThisNode(const EnvironmentLookup& env) {
  const std::optional<std::string> list = env("SLURM_STEP_TASKS_PER_NODE");
  const std::optional<std::string> node_text = env("SLURM_NODEID");
  if (!list || !node_text || !IsDecimal(*node_text)) return std::nullopt;
  int64_t node = std::atoll(node_text->c_str());
  std::string_view rest(*list);
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    int64_t repeat = 1;
    const size_t paren = item.find("(x");
    if (paren != std::string_view::npos) {
      std::string_view times = item.substr(paren + 2);
      if (times.empty() || times.back() != ')') return std::nullopt;
      times.remove_suffix(1);
      if (!IsDecimal(times)) return std::nullopt;
      repeat = std::atoll(std::string(times).c_str());
      item = item.substr(0, paren);
    }
    if (!IsDecimal(item)) return std::nullopt;
    if (node < repeat) return static_cast<int>(std::atoll(std::string(item).c_str()));
    node -= repeat;
  }
  return std::nullopt;
}

int PortFromId(std::string_view id) {
  return kDerivedPortBase + static_cast<int>(Checksum64(id) % 4096);
}

// Open MPI's mpirun address and job id from OMPI_MCA_orte_hnp_uri
// ("JOBID.VPID;tcp://A,B:PORT;tcp6://[V6]:PORT").
Status ReadOpenMpiLauncher(std::string_view uri, std::string* host, uint64_t* job_id) {
  const size_t dot = uri.find_first_of(".;");
  const std::string_view id = uri.substr(0, dot);
  if (!IsDecimal(id)) {
    return InvalidArgument("OMPI_MCA_orte_hnp_uri='", uri, "' does not start with a job id");
  }
  *job_id = std::strtoull(std::string(id).c_str(), nullptr, 10);
  size_t at = uri.find("tcp://");
  if (at != std::string_view::npos) {
    std::string_view rest = uri.substr(at + 6);
    *host = std::string(rest.substr(0, rest.find_first_of(",:;")));
  } else if ((at = uri.find("tcp6://[")) != std::string_view::npos) {
    std::string_view rest = uri.substr(at + 8);
    *host = "[" + std::string(rest.substr(0, rest.find_first_of(",]"))) + "]";
  }
  if (host->empty() || *host == "[]") {
    return InvalidArgument("OMPI_MCA_orte_hnp_uri='", uri, "' names no tcp address");
  }
  return OkStatus();
}

// The store or coordinator of the job `d` describes (d.launcher names it).
Status DeriveCoordinator(const EnvironmentLookup& env, const Description& d,
                         ClusterEnvironment* out) {
  const std::string launcher = d.launcher;
  const std::string fix = StrCat(" (set ", kCoordinatorEnv, "=HOST:PORT, or ", kKvStoreEnv, ")");
  if (launcher == "openmpi") {
    std::string host;
    uint64_t job_id = 0;
    if (std::optional<std::string> uri = env("OMPI_MCA_orte_hnp_uri")) {
      PLUGRT_RETURN_IF_ERROR(ReadOpenMpiLauncher(*uri, &host, &job_id));
      // Job ids are multiples of 4096: the bits above tell jobs apart.
      out->coordinator_source = "OMPI_MCA_orte_hnp_uri";
      out->coordinator = StrCat(out->multi_host ? host : "127.0.0.1", ":",
                                kDerivedPortBase + static_cast<int>((job_id / 4096) % 4096));
      return OkStatus();
    }
    if (out->multi_host) {
      return InvalidArgument("an Open MPI job across hosts without OMPI_MCA_orte_hnp_uri: "
                             "its coordinator cannot be derived",
                             fix);
    }
    std::optional<std::string> job = env("OMPI_MCA_ess_base_jobid");
    out->coordinator_source = job ? "OMPI_MCA_ess_base_jobid" : "the launcher's process id";
    out->coordinator =
        StrCat("127.0.0.1:", PortFromId(job ? *job : StrCat("ppid ", ::getppid())));
    return OkStatus();
  }
  if (launcher == "mpich") {
    if (out->multi_host) {
      return InvalidArgument("an MPICH (PMI_RANK/PMI_SIZE) job across hosts names no "
                             "coordinator",
                             fix);
    }
    // Every process of one host is a child of the same Hydra proxy.
    std::optional<std::string> port = env("PMI_PORT");
    out->coordinator_source = port ? "PMI_PORT" : "the launcher's process id";
    out->coordinator =
        StrCat("127.0.0.1:", PortFromId(port ? *port : StrCat("ppid ", ::getppid())));
    return OkStatus();
  }
  if (launcher == "slurm") {
    const std::optional<std::string> nodes = env("SLURM_STEP_NODELIST");
    std::string id = StrCat(env("SLURM_JOB_ID").value_or(""), ".",
                            env("SLURM_STEP_ID").value_or(""));
    if (!env("SLURM_JOB_ID")) id += nodes.value_or("");
    out->coordinator_source = "SLURM_STEP_NODELIST";
    std::string host = "127.0.0.1";
    if (out->multi_host) {
      if (!nodes) {
        return InvalidArgument("a Slurm step across hosts without SLURM_STEP_NODELIST", fix);
      }
      PLUGRT_ASSIGN_OR_RETURN(host, FirstSlurmHost(*nodes));
    }
    out->coordinator = StrCat(host, ":", PortFromId(id));
    return OkStatus();
  }
  if (launcher == "torchrun") {
    const std::optional<std::string> addr = env("MASTER_ADDR");
    PLUGRT_ASSIGN_OR_RETURN(std::optional<int64_t> port, ReadNumber(env, "MASTER_PORT", 1, 65535));
    if (!addr || !port) {
      return InvalidArgument("RANK/WORLD_SIZE describe a job of ", d.size,
                             " processes but MASTER_ADDR and MASTER_PORT are not both set", fix);
    }
    out->coordinator_source = "MASTER_ADDR/MASTER_PORT";
    // torchrun's agent may hold MASTER_PORT itself (its own store): under
    // torchrun the port is derived from the run id instead.
    if (std::optional<std::string> run = env("TORCHELASTIC_RUN_ID")) {
      out->coordinator_source = "MASTER_ADDR/TORCHELASTIC_RUN_ID";
      out->coordinator = StrCat(*addr, ":", PortFromId(StrCat(*run, ":", *port)));
    } else {
      out->coordinator = StrCat(*addr, ":", *port);
    }
    return OkStatus();
  }
  return InvalidArgument(kNumNodesEnv, "=", out->num_nodes, " needs ", kKvStoreEnv,
                         " (redis://HOST:PORT, file:DIR or grpc://HOST:PORT) or ",
                         kCoordinatorEnv, " (HOST:PORT); plugrt launch sets them");
}

}  // namespace

EnvironmentLookup ProcessEnvironment() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
  };
}

StatusOr<std::string> FirstSlurmHost(std::string_view node_list) {
  std::string host;
  int depth = 0;
  bool in_first_item = true;  // inside a bracket: still copying its first item
  for (char c : node_list) {
    if (depth == 0 && c == ',') break;
    if (c == '[') {
      if (depth++ != 0) return InvalidArgument("SLURM_STEP_NODELIST='", node_list, "': nested '['");
      in_first_item = true;
      continue;
    }
    if (c == ']') {
      if (depth-- != 1) return InvalidArgument("SLURM_STEP_NODELIST='", node_list, "': stray ']'");
      continue;
    }
    if (depth == 1) {
      if (c == ',' || c == '-') in_first_item = false;
      if (in_first_item) host += c;
      continue;
    }
    host += c;
  }
  if (depth != 0) return InvalidArgument("SLURM_STEP_NODELIST='", node_list, "': unclosed '['");
  if (host.empty()) return InvalidArgument("SLURM_STEP_NODELIST='", node_list, "' names no host");
  return host;
}

StatusOr<std::optional<ClusterEnvironment>> DetectCluster(const EnvironmentLookup& env) {
  using Found = std::optional<Description>;
  PLUGRT_ASSIGN_OR_RETURN(Found plugrt, ReadDescription(env, "plugrt", kNodeIdEnv, kNumNodesEnv,
                                                        nullptr, nullptr));
  PLUGRT_ASSIGN_OR_RETURN(
      Found openmpi,
      ReadDescription(env, "openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
                      "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"));
  PLUGRT_ASSIGN_OR_RETURN(Found mpich, ReadDescription(env, "mpich", "PMI_RANK", "PMI_SIZE",
                                                       "MPI_LOCALRANKID", "MPI_LOCALNRANKS"));
  // A batch script's own step has SLURM_PROCID too, but no step variables:
  // only what srun starts is a Slurm task.
  Found slurm;
  if (env("SLURM_STEP_ID") || env("SLURM_STEP_NODELIST")) {
    PLUGRT_ASSIGN_OR_RETURN(slurm, ReadDescription(env, "slurm", "SLURM_PROCID", "SLURM_NTASKS",
                                                   "SLURM_LOCALID", nullptr));
    if (slurm) {
      slurm->local_size = SlurmTasksOnThisNode(env);
      PLUGRT_ASSIGN_OR_RETURN(std::optional<int64_t> step_nodes,
                              ReadNumber(env, "SLURM_STEP_NUM_NODES", 1, 1 << 20));
      if (step_nodes && *step_nodes == 1) slurm->local_size = slurm->size;
    }
  }
  PLUGRT_ASSIGN_OR_RETURN(Found torchrun, ReadDescription(env, "torchrun", "RANK", "WORLD_SIZE",
                                                          "LOCAL_RANK", "LOCAL_WORLD_SIZE"));

  // Launchers that each describe this very process must agree.
  const auto agree = [](const Found& a, const Found& b) -> Status {
    if (!a || !b || (a->rank == b->rank && a->size == b->size)) return OkStatus();
    return InvalidArgument("the environment describes two different jobs: ", a->rank_var, "=",
                           a->rank, " ", a->size_var, "=", a->size, " but ", b->rank_var, "=",
                           b->rank, " ", b->size_var, "=", b->size);
  };
  PLUGRT_RETURN_IF_ERROR(agree(openmpi, mpich));
  PLUGRT_RETURN_IF_ERROR(agree(openmpi ? openmpi : mpich ? mpich : slurm, torchrun));

  const Found& launcher = openmpi ? openmpi : mpich ? mpich : slurm ? slurm : torchrun;
  if (!plugrt && !launcher) return std::optional<ClusterEnvironment>();

  ClusterEnvironment out;
  const Description& d = plugrt ? *plugrt : *launcher;
  out.launcher = d.launcher;
  out.node_id = d.rank;
  out.num_nodes = d.size;
  if (launcher && launcher->size == d.size && launcher->rank == d.rank) {
    out.local_rank = launcher->local_rank.value_or(0);
    out.local_size = launcher->local_size.value_or(launcher->local_rank ? d.size : 1);
    out.multi_host = out.local_size < out.num_nodes;
    out.launcher = launcher->launcher;
    // torchrun without LOCAL_WORLD_SIZE: a remote MASTER_ADDR says hosts differ.
    if (std::string(launcher->launcher) == "torchrun" && !launcher->local_size) {
      out.multi_host = !remote::IsLoopbackAddress(env("MASTER_ADDR").value_or("127.0.0.1"));
      out.local_size = out.multi_host ? 1 : out.num_nodes;
    }
  } else if (plugrt) {
    // `plugrt launch` starts every process on this machine.
    out.local_rank = d.rank;
    out.local_size = d.size;
  }
  if (plugrt && launcher && std::string(out.launcher) != "plugrt") {
    // Explicit settings win; the launcher's view of hosts still holds when it
    // describes the same process.
    out.launcher = StrCat("plugrt over ", launcher->launcher);
  }

  if (out.num_nodes == 1) return std::optional<ClusterEnvironment>(out);
  std::optional<std::string> coordinator = env(kCoordinatorEnv);
  const char* coordinator_source = kCoordinatorEnv;
  if (std::optional<std::string> store = env(kKvStoreEnv)) {
    constexpr std::string_view kGrpc = "grpc://";
    if (store->substr(0, kGrpc.size()) != kGrpc) {
      out.store = *store;
      return std::optional<ClusterEnvironment>(out);
    }
    coordinator = store->substr(kGrpc.size());
    coordinator_source = kKvStoreEnv;
  }
  if (coordinator) {
    PLUGRT_RETURN_IF_ERROR(ParseHostAndPort(*coordinator, coordinator_source).status());
    out.coordinator = *coordinator;
    out.coordinator_source = coordinator_source;
    return std::optional<ClusterEnvironment>(out);
  }
  PLUGRT_RETURN_IF_ERROR(DeriveCoordinator(env, plugrt && !launcher ? *plugrt : *launcher, &out));
  return std::optional<ClusterEnvironment>(out);
}

}  // namespace plugrt::distributed
