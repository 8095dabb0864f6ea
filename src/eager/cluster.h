// plugrt eager: the remote tasks of a context's cluster (cluster_spec.h),
// each a PJRT client of the remote plugin (plugins/remote/: one worker
// context per client, kept alive by the plugin's heartbeats while the
// client lives) with its devices, named "/job:JOB/task:T/device:KIND:N",
// and the lease its tensors share (task_lease.h).
#ifndef PLUGRT_EAGER_CLUSTER_H_
#define PLUGRT_EAGER_CLUSTER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "client/client.h"
#include "common/status.h"
#include "eager/cluster_spec.h"
#include "eager/placement.h"
#include "eager/task_lease.h"

namespace plugrt::eager {

struct RemoteTask {
  std::string job;
  int index = 0;
  std::string address;
  std::shared_ptr<Client> client;
  std::shared_ptr<TaskLease> lease;
  std::vector<NamedDevice> devices;
};

class Cluster {
 public:
  const ClusterSpec& spec() const { return spec_; }
  // In job name, then task index order.
  const std::vector<std::shared_ptr<RemoteTask>>& tasks() const { return tasks_; }
  bool HasJob(std::string_view job) const { return spec_.jobs.count(job) != 0; }
  const RemoteTask* FindTask(std::string_view job, int index) const;
  // For messages: "worker (tasks 0, 1), ps (task 0)"; "none" when empty.
  std::string Describe() const;

  // Makes `spec` (validated) the cluster: connects the tasks it needs with
  // `options` (all of them for kReset; for kUpdate those whose job, index
  // or address are new, or whose worker stopped answering) and returns the tasks it no longer holds, their
  // leases released and their worker contexts closed (through the remote
  // plugin's extension, include/plugrt/remote_extension.h, though tensors
  // still hold buffers). When a connection fails nothing changes (the new
  // clients are closed) and the error names the task and its address.
  StatusOr<std::vector<std::shared_ptr<RemoteTask>>> Apply(const ClusterSpec& spec,
                                                           ClusterUpdate mode,
                                                           const RemoteOptions& options);

 private:
  ClusterSpec spec_;
  std::vector<std::shared_ptr<RemoteTask>> tasks_;
};

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_CLUSTER_H_
