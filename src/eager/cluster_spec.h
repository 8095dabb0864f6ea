// plugrt eager: a cluster spec, the remote tasks an eager context may run
// ops on (after TensorFlow's ClusterDef: jobs, each a list of task
// addresses), how a new spec replaces the old one, and the names of remote
// devices, "/job:JOB/task:T/device:KIND:N".
//
//   ClusterSpec spec = *ParseClusterSpec("worker=10.0.0.1:7000,10.0.0.2:7000");
//   ctx->SetClusterSpec(spec, ClusterUpdate::kReset, {.token_file = "token"});
//   Op add(*ctx, "stablehlo.add"); add.SetDevice("/job:worker/task:1/device:cpu:0");
#ifndef PLUGRT_EAGER_CLUSTER_SPEC_H_
#define PLUGRT_EAGER_CLUSTER_SPEC_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace plugrt::eager {

// The job name the context's own devices answer to in full device names
// ("/job:localhost/task:0/device:cpu:0" is "cpu:0"); no cluster job may
// take it.
inline constexpr std::string_view kLocalJob = "localhost";

struct ClusterSpec {
  // Job name -> task index -> "host:port" of the task's `plugrt serve`.
  std::map<std::string, std::map<int, std::string>, std::less<>> jobs;

  // Adds a task; an error if the job already has a task with that index.
  Status AddTask(std::string_view job, int index, std::string_view address);
  // Job names ([A-Za-z0-9_-], not "localhost"), task indices (>= 0) and
  // addresses (host:port, port 1-65535; no two tasks at one address).
  Status Validate() const;
  // "worker=a:1,b:2;ps=c:3" (the form ParseClusterSpec reads).
  std::string ToString() const;
};

// Reads "JOB=ADDR,ADDR;JOB=ADDR": tasks numbered from 0 in list order.
// Whitespace around names and addresses is ignored. The result is
// validated.
StatusOr<ClusterSpec> ParseClusterSpec(std::string_view text);

enum class ClusterUpdate {
  // A new cluster: every remote client of the old spec is released (its
  // worker context closed at once, with its buffers and executables) and
  // new ones are made; tensors on the old tasks fail with an error saying
  // so.
  kReset,
  // Tasks added or removed: tasks of the new spec with the same job, index
  // and address as before keep their clients and tensors; removed ones are
  // released as by kReset; new ones are connected.
  kUpdate,
};

// How the context reaches the tasks of a spec: the remote PJRT plugin
// (plugins/remote/) and its create options.
struct RemoteOptions {
  // A plugin name or path (client/plugin_discovery.h): "remote" finds
  // libplugrt_remote.so beside the install or in the build tree.
  std::string plugin = "remote";
  // The file holding the workers' token; empty: the plugin's fallbacks
  // ($PLUGRT_REMOTE_TOKEN_FILE, $PLUGRT_REMOTE_TOKEN).
  std::string token_file;
  // A worker drops a context after this long without traffic; the plugin
  // sends heartbeats three times per period while the context holds the
  // task, and a dead worker is reported within it.
  int64_t keep_alive_secs = 60;
};

// The parts of a full device name "/job:J/task:T/device:KIND:N" (also
// "/job:J/replica:0/task:T/device:KIND:N", TensorFlow's form); nullopt when
// `name` does not start with "/job:".
struct TaskDeviceName {
  std::string job;
  int task = 0;
  // "KIND:N", lower case, as the context names devices of one client.
  std::string device;
};
// An error for a name that starts with "/job:" but is malformed.
StatusOr<std::optional<TaskDeviceName>> ParseTaskDeviceName(std::string_view name);

// "/job:JOB/task:T".
std::string TaskName(std::string_view job, int task);

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_CLUSTER_SPEC_H_
