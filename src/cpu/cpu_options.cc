#include "cpu/cpu_options.h"

#include <cstdlib>
#include <cstring>
#include <limits>

#include "common/log.h"
#include "common/path_list.h"
#include "filesystem/compilation_cache.h"
#include "kernels_abi/kernel_plugins.h"
#include "compiler/passes/optimizer_plugins.h"

namespace plugrt::cpu {
namespace {

std::string_view TypeName(const sdk::AttributeValue& value) {
  switch (value.index()) {
    case 0: return "string";
    case 1: return "int64";
    case 2: return "int64 list";
    case 3: return "float";
    case 4: return "bool";
  }
  return "unknown";
}

// One option of the table: how it is named, typed and bounded, where its
// default comes from, and where its value goes.
struct OptionSpec {
  const char* name;
  enum class Type { kInt64, kBool, kString } type;
  int64_t min = 0, max = 0;  // kInt64
  const char* env = nullptr;  // default from the environment, when set
  const char* help;
  void (*apply)(CpuOptions&, int64_t);  // bools arrive as 0/1
  Status (*apply_text)(CpuOptions&, std::string_view) = nullptr;  // kString
};

constexpr OptionSpec kOptions[] = {
    {"cpu_device_count", OptionSpec::Type::kInt64, 1, kMaxCpuDevices, nullptr,
     "virtual CPU devices of the client (default 1)",
     [](CpuOptions& o, int64_t v) { o.num_devices = static_cast<int>(v); }},
    {"threads", OptionSpec::Type::kInt64, 1, kMaxThreads, "PLUGRT_THREADS",
     "threads one device's execution may use for large kernels (default: the cores divided "
     "among the devices)",
     [](CpuOptions& o, int64_t v) { o.threads = static_cast<int>(v); }},
    {"fast_paths", OptionSpec::Type::kBool, 0, 1, "PLUGRT_CPU_FAST_PATHS",
     "oneDNN dot_general/convolution, elementwise fusion and vectorized reductions; false puts "
     "every op on its reference kernel (default true)",
     [](CpuOptions& o, int64_t v) { o.program.fast_paths = v != 0; }},
    {"jit", OptionSpec::Type::kBool, 0, 1, "PLUGRT_CPU_JIT",
     "fused loops as generated AVX-512 code where the CPU has it; false keeps them interpreted "
     "(default true)",
     [](CpuOptions& o, int64_t v) { o.program.jit = v != 0; }},
    {"host_recv_timeout_ms", OptionSpec::Type::kInt64, 1, std::numeric_limits<int64_t>::max(),
     "PLUGRT_HOST_RECV_TIMEOUT_MS",
     "how long a stablehlo.recv from the host waits for its callback's bytes (default 300000)",
     [](CpuOptions& o, int64_t v) { o.host_recv_timeout_ms = v; }},
    {kConformanceHarnessAttribute, OptionSpec::Type::kBool, 0, 1, nullptr,
     "programs may use the StableHLO conformance corpus' test-harness ops (check.*, "
     "interpreter.run_parallel/probe, infeed/outfeed); plugrt conformance sets it (default "
     "false)",
     [](CpuOptions& o, int64_t v) { o.program.conformance_harness = v != 0; }},
    // Appends: the environment's plugins load first, then the option's.
    {"kernel_plugins", OptionSpec::Type::kString, 0, 0, kernels_abi::kKernelPluginsEnv,
     "kernel plugins to load, paths separated by ':' (added to PLUGRT_KERNEL_PLUGINS)", nullptr,
     [](CpuOptions& o, std::string_view paths) {
       for (std::string& path : SplitPathList(paths)) {
         o.kernel_plugins.push_back(std::move(path));
       }
       return OkStatus();
     }},
    // The level belongs to the plugin's copy of the log (common/log.h, which
    // reads PLUGRT_LOG_LEVEL itself), not to one client: the option sets it.
    {"log_level", OptionSpec::Type::kString, 0, 0, nullptr,
     "what the plugin writes on standard error: off, error, warning or info (default: "
     "PLUGRT_LOG_LEVEL, else off)", nullptr,
     [](CpuOptions&, std::string_view text) -> Status {
       PLUGRT_ASSIGN_OR_RETURN(LogLevel level, ParseLogLevel(text));
       SetLogLevel(level);
       return OkStatus();
     }},
    {"optimizer_plugins", OptionSpec::Type::kString, 0, 0, passes::kOptimizerPluginsEnv,
     "optimizer plugins to load, paths separated by ':' (added to PLUGRT_OPTIMIZER_PLUGINS)",
     nullptr,
     [](CpuOptions& o, std::string_view paths) {
       for (std::string& path : SplitPathList(paths)) o.optimizer_plugins.push_back(std::move(path));
       return OkStatus();
     }},
    // The option's switches are read after the environment's, so they win.
    {"passes", OptionSpec::Type::kString, 0, 0, kPassesEnv,
     "built-in pass switches, e.g. \"cse=off,dead-code-elimination=on\" (after PLUGRT_PASSES)",
     nullptr, [](CpuOptions& o, std::string_view text) {
       o.passes.emplace_back(text);
       return OkStatus();
     }},
    {"compilation_cache_dir", OptionSpec::Type::kString, 0, 0, fs::kCompilationCacheDirEnv,
     "directory of the persistent compilation cache, on any filesystem scheme (default: none, "
     "the cache is off)",
     nullptr,
     [](CpuOptions& o, std::string_view dir) {
       o.compilation_cache_dir = std::string(dir);
       return OkStatus();
     }},
    {"profile", OptionSpec::Type::kString, 0, 0, "PLUGRT_PROFILE",
     "record a profile of everything the client compiles and runs, written when the client is "
     "destroyed: Chrome trace JSON at this path ('%p' becomes the process id) and a text "
     "summary beside it (default: none)",
     nullptr,
     [](CpuOptions& o, std::string_view path) {
       o.profile_path = std::string(path);
       return OkStatus();
     }},
    {"compilation_cache_max_bytes", OptionSpec::Type::kInt64, 1,
     std::numeric_limits<int64_t>::max(), fs::kCompilationCacheMaxBytesEnv,
     "size cap of the compilation cache; least recently used entries are evicted past it "
     "(default 1073741824)",
     [](CpuOptions& o, int64_t v) { o.compilation_cache_max_bytes = v; }},
    {"node_id", OptionSpec::Type::kInt64, 0, kMaxNodes - 1, nullptr,
     "this process's index in a multi-process job, 0..num_nodes-1 (default 0)",
     [](CpuOptions& o, int64_t v) { o.node_id = static_cast<int>(v); }},
    {"num_nodes", OptionSpec::Type::kInt64, 1, kMaxNodes, nullptr,
     "processes of a multi-process job; above 1 the client needs the key-value callbacks "
     "(default 1)",
     [](CpuOptions& o, int64_t v) { o.num_nodes = static_cast<int>(v); }},
    {"distributed_timeout_ms", OptionSpec::Type::kInt64, 1, std::numeric_limits<int32_t>::max(),
     "PLUGRT_DISTRIBUTED_TIMEOUT_MS",
     "how long a multi-process job's rendezvous, program check and each cross-process "
     "collective may wait for the other processes (default 60000)",
     [](CpuOptions& o, int64_t v) { o.distributed_timeout_ms = v; }},
    {"heartbeat_interval_ms", OptionSpec::Type::kInt64, 1, std::numeric_limits<int32_t>::max(),
     "PLUGRT_HEARTBEAT_INTERVAL_MS",
     "how often each process of a multi-process job tells the others it is alive, through the "
     "key-value store (default 1000)",
     [](CpuOptions& o, int64_t v) { o.heartbeat_interval_ms = v; }},
    {"heartbeat_timeout_ms", OptionSpec::Type::kInt64, 2, std::numeric_limits<int32_t>::max(),
     "PLUGRT_HEARTBEAT_TIMEOUT_MS",
     "how long a process of a multi-process job may stay silent before the others' "
     "collectives and waits on it fail, naming it; above the interval (default 10000)",
     [](CpuOptions& o, int64_t v) { o.heartbeat_timeout_ms = v; }},
    {"collectives_hostname", OptionSpec::Type::kString, 0, 0, "PLUGRT_COLLECTIVES_HOSTNAME",
     "the address cross-process collectives (Gloo TCP) listen on and announce (default "
     "127.0.0.1)", nullptr,
     [](CpuOptions& o, std::string_view host) {
       o.collectives_hostname = std::string(host);
       return OkStatus();
     }},
    {"collectives", OptionSpec::Type::kString, 0, 0, "PLUGRT_COLLECTIVES",
     "the cross-process collectives: gloo (TCP), mpi (the job's MPI, for jobs an MPI launcher "
     "started) or auto, MPI when an MPI launcher started the job (default auto)", nullptr,
     [](CpuOptions& o, std::string_view name) {
       if (name == "auto") {
         o.collectives = CpuOptions::Collectives::kAuto;
       } else if (name == "gloo") {
         o.collectives = CpuOptions::Collectives::kGloo;
       } else if (name == "mpi") {
         o.collectives = CpuOptions::Collectives::kMpi;
       } else {
         return InvalidArgument("collectives='", name, "': expected gloo, mpi or auto");
       }
       return OkStatus();
     }},
    {"shared_memory_collectives", OptionSpec::Type::kBool, 0, 1,
     "PLUGRT_SHARED_MEMORY_COLLECTIVES",
     "all-reduces among processes of one host through shared memory rather than the "
     "collectives backend (with Gloo at every size, with MPI below 4 MiB, where it is faster "
     "than MPI's own; default true)",
     [](CpuOptions& o, int64_t v) { o.shared_memory_collectives = v != 0; }},
};

// The environment's value for `spec`, when set and well-formed; a malformed
// value is ignored (the option keeps its built-in default).
bool EnvDefault(const OptionSpec& spec, int64_t* value) {
  if (spec.env == nullptr) return false;
  const char* text = std::getenv(spec.env);
  if (text == nullptr || *text == '\0') return false;
  if (spec.type == OptionSpec::Type::kBool) {
    *value = std::strcmp(text, "0") == 0 || std::strcmp(text, "false") == 0 ? 0 : 1;
    return true;
  }
  char* end = nullptr;
  const long long parsed = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || parsed < spec.min || parsed > spec.max) return false;
  *value = parsed;
  return true;
}

std::string KnownNames() {
  std::string names;
  for (const OptionSpec& spec : kOptions) {
    if (!names.empty()) names += ", ";
    names += spec.name;
  }
  return names;
}

}  // namespace

StatusOr<CpuOptions> ParseCpuOptions(const sdk::Attributes& options) {
  CpuOptions result;
  for (const OptionSpec& spec : kOptions) {
    if (spec.type == OptionSpec::Type::kString) {
      const char* text = spec.env != nullptr ? std::getenv(spec.env) : nullptr;
      // The environment's paths were checked by whoever set them; a bad
      // one fails when it loads.
      if (text != nullptr && *text != '\0') PLUGRT_RETURN_IF_ERROR(spec.apply_text(result, text));
      continue;
    }
    int64_t value = 0;
    if (EnvDefault(spec, &value)) spec.apply(result, value);
  }
  for (const sdk::Attribute& option : options) {
    const OptionSpec* spec = nullptr;
    for (const OptionSpec& candidate : kOptions) {
      if (option.name == candidate.name) spec = &candidate;
    }
    if (spec == nullptr) {
      return InvalidArgument("unknown option '", option.name,
                             "' for the CPU plugin; known options: ", KnownNames());
    }
    if (spec->type == OptionSpec::Type::kString) {
      const std::string* text = std::get_if<std::string>(&option.value);
      if (text == nullptr) {
        return InvalidArgument("option ", spec->name, " must be a string, got a ",
                               TypeName(option.value));
      }
      Status applied = spec->apply_text(result, *text);
      if (!applied.ok()) return InvalidArgument("option ", spec->name, ": ", applied.message());
      continue;
    }
    int64_t value = 0;
    if (spec->type == OptionSpec::Type::kBool) {
      const bool* flag = std::get_if<bool>(&option.value);
      if (flag == nullptr) {
        return InvalidArgument("option ", spec->name, " must be a bool, got a ",
                               TypeName(option.value));
      }
      value = *flag ? 1 : 0;
    } else {
      const int64_t* number = std::get_if<int64_t>(&option.value);
      if (number == nullptr) {
        return InvalidArgument("option ", spec->name, " must be an int64, got a ",
                               TypeName(option.value));
      }
      if (*number < spec->min || *number > spec->max) {
        return InvalidArgument("option ", spec->name, " must be between ", spec->min, " and ",
                               spec->max, ", got ", *number);
      }
      value = *number;
    }
    spec->apply(result, value);
  }
  for (const std::string& text : result.passes) {
    PLUGRT_ASSIGN_OR_RETURN(passes::PassSwitches switches,
                            passes::ParsePassSwitches(text, "option passes / PLUGRT_PASSES"));
    for (int i = 0; i < passes::kNumBuiltinPasses; ++i) {
      if (switches.values[i] != PLUGRT_PassSwitch_DEFAULT) {
        result.program.pipeline.user_passes.values[i] = switches.values[i];
      }
    }
  }
  if (result.heartbeat_timeout_ms <= result.heartbeat_interval_ms) {
    return InvalidArgument("option heartbeat_timeout_ms (", result.heartbeat_timeout_ms,
                           ") must exceed heartbeat_interval_ms (", result.heartbeat_interval_ms,
                           ")");
  }
  if (result.node_id >= result.num_nodes) {
    return InvalidArgument("option node_id is ", result.node_id, " but num_nodes is ",
                           result.num_nodes, "; node_id must be below num_nodes");
  }
  return result;
}

}  // namespace plugrt::cpu
