// plugrt CPU backend: the options PJRT_Client_Create and
// PJRT_TopologyDescription_Create accept, in one table (cpu_options.cc):
// name, type, range, the environment variable that gives its default, and
// what it does. The README's option table says the same.
//
// Environment variables are read once, when the options are parsed (client
// or topology creation); nothing below reads the environment again.
#ifndef PLUGRT_CPU_CPU_OPTIONS_H_
#define PLUGRT_CPU_CPU_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "cpu/exec/program.h"
#include "distributed/heartbeat.h"
#include "sdk/types.h"

namespace plugrt::cpu {

inline constexpr int kMaxCpuDevices = 1024;
inline constexpr int kMaxThreads = 4096;
inline constexpr int64_t kDefaultHostRecvTimeoutMs = 300000;
inline constexpr int kMaxNodes = 4096;
inline constexpr int64_t kDefaultDistributedTimeoutMs = 60000;

struct CpuOptions {
  // "cpu_device_count" (int64, 1..kMaxCpuDevices): virtual devices to create.
  int num_devices = 1;
  // "threads" (int64, 1..kMaxThreads): threads one device's execution may
  // use for its large kernels; 0 (absent): the cores divided among the
  // devices, at least 1.
  int threads = 0;
  // "fast_paths", "jit" (bool): how programs are compiled (ProgramOptions).
  // Defaults: PLUGRT_CPU_FAST_PATHS / PLUGRT_CPU_JIT ("0" turns off).
  ProgramOptions program;
  // "host_recv_timeout_ms" (int64, >= 1): how long a stablehlo.recv from the
  // host waits for the bytes of its callback. Default:
  // PLUGRT_HOST_RECV_TIMEOUT_MS, else kDefaultHostRecvTimeoutMs.
  int64_t host_recv_timeout_ms = kDefaultHostRecvTimeoutMs;
  // "kernel_plugins" (string: paths separated by ':'): kernel plugins to
  // load (include/plugrt/kernel_c_api.h), after those of
  // PLUGRT_KERNEL_PLUGINS; a path named twice loads once. The client loads
  // them (CpuClient::Create); the paths are kept here.
  std::vector<std::string> kernel_plugins;
  // "optimizer_plugins" (string: paths separated by ':'): optimizer plugins
  // (include/plugrt/optimizer_c_api.h) after those of
  // PLUGRT_OPTIMIZER_PLUGINS, loaded like the kernel plugins.
  std::vector<std::string> optimizer_plugins;
  // "passes" (string "name=on|off,..."): the user's switches of the built-in
  // passes, after PLUGRT_PASSES (kPassesEnv); parsed into
  // program.pipeline.user_passes, a compile's plugrt_passes override going last.
  std::vector<std::string> passes;

  // "compilation_cache_dir" (string): a directory on any filesystem scheme
  // (filesystem/registry.h) for the persistent compilation cache; empty
  // (the default) turns it off. Default: PLUGRT_COMPILATION_CACHE_DIR.
  std::string compilation_cache_dir;
  // "profile" (string): where to write a profile of the client's life (Chrome
  // trace JSON, and a summary beside it; profiler/profile_files.h), written
  // when the client is destroyed. Default: PLUGRT_PROFILE; empty: off.
  std::string profile_path;
  // "compilation_cache_max_bytes" (int64, >= 1): the cache's size cap,
  // least recently used entries evicted past it. Default:
  // PLUGRT_COMPILATION_CACHE_MAX_BYTES, else 1 GiB.
  int64_t compilation_cache_max_bytes = int64_t{1} << 30;
  // Multi-process jobs (cpu/cpu_cluster.h): "node_id" (int64, 0..num_nodes-1)
  // is this process's index and "num_nodes" (int64, 1..kMaxNodes) the job's
  // process count; with num_nodes > 1 the client needs the key-value
  // callbacks. "distributed_timeout_ms" (int64, >= 1; default
  // PLUGRT_DISTRIBUTED_TIMEOUT_MS, else kDefaultDistributedTimeoutMs) bounds
  // the cluster's rendezvous, the program check and each cross-process
  // collective. "collectives_hostname" (string; default
  // PLUGRT_COLLECTIVES_HOSTNAME, else 127.0.0.1): the address Gloo's TCP
  // transport listens on and announces. "heartbeat_interval_ms" (int64,
  // >= 1) and "heartbeat_timeout_ms" (int64, above the interval; defaults in
  // distributed/heartbeat.h, or PLUGRT_HEARTBEAT_INTERVAL_MS /
  // PLUGRT_HEARTBEAT_TIMEOUT_MS): how often each process says it is alive,
  // and how long a silent one may stay silent before the others' waits on
  // it fail, naming it. "collectives" (string; default PLUGRT_COLLECTIVES,
  // else "auto"): the cross-process collectives backend, "gloo", "mpi", or
  // "auto" (MPI when an MPI launcher started the job, else Gloo).
  // "shared_memory_collectives" (bool; default
  // PLUGRT_SHARED_MEMORY_COLLECTIVES, else true): all-reduces (below the
  // backend's kSharedMemoryBelowBytes) and all-gathers, all-to-alls and
  // collective permutes (every size) among processes of one host go through
  // shared memory (distributed/shared_memory_collectives.h), not the backend.
  int node_id = 0;
  int num_nodes = 1;
  int64_t distributed_timeout_ms = kDefaultDistributedTimeoutMs;
  std::string collectives_hostname = "127.0.0.1";
  int64_t heartbeat_interval_ms = distributed::kDefaultHeartbeatIntervalMs;
  int64_t heartbeat_timeout_ms = distributed::kDefaultHeartbeatTimeoutMs;
  enum class Collectives { kAuto, kGloo, kMpi };
  Collectives collectives = Collectives::kAuto;
  bool shared_memory_collectives = true;
};

inline constexpr const char* kPassesEnv = "PLUGRT_PASSES";

// INVALID_ARGUMENT naming the option for unknown names, wrong value types and
// values out of range. Options absent from `options` take their defaults from
// the environment.
// The create option (and the plugin attribute announcing it) that lets
// programs use the conformance corpus' test-harness ops
// (ProgramOptions::conformance_harness).
inline constexpr const char* kConformanceHarnessAttribute = "conformance_harness";

StatusOr<CpuOptions> ParseCpuOptions(const sdk::Attributes& options);

// Loads options.kernel_plugins into options.program.kernel_plugins (nothing
// when there are none); errors name the plugin's path and the target
// (cpu_kernel_plugins.cc).
Status LoadKernelPlugins(CpuOptions& options);

// Loads options.optimizer_plugins (for device type "cpu") into
// options.program.pipeline.optimizers; errors name the plugin's path.
Status LoadOptimizerPlugins(CpuOptions& options);

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_CPU_OPTIONS_H_
