#include "eager/cluster.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

#include "client/error.h"
#include "client/plugin_discovery.h"
#include "common/extension_chain.h"
#include "common/log.h"
#include "plugrt/remote_extension.h"

namespace plugrt::eager {

namespace {

// A client of the remote plugin for one task, with its devices named.
StatusOr<std::shared_ptr<RemoteTask>> ConnectTask(const std::shared_ptr<Plugin>& plugin,
                                              std::string_view job, int index,
                                              const std::string& address,
                                              const RemoteOptions& options) {
  const std::string task_name = TaskName(job, index);
  auto failed = [&](const Status& status) {
    return Status(status.code(), StrCat("cluster task ", task_name, " at ", address, ": ",
                                        status.message()));
  };
  ClientOptions client_options;
  client_options.create_options = {NamedValue{"address", address},
                                   NamedValue{"keep_alive_secs", options.keep_alive_secs}};
  if (!options.token_file.empty()) {
    client_options.create_options.push_back(NamedValue{"token_file", options.token_file});
  }
  StatusOr<std::unique_ptr<Client>> client = Client::Create(plugin, client_options);
  if (!client.ok()) return failed(client.status());
  auto task = std::make_shared<RemoteTask>();
  task->job = std::string(job);
  task->index = index;
  task->address = address;
  task->client = std::shared_ptr<Client>(std::move(client).value());
  task->lease = std::make_shared<TaskLease>(task_name, address);
  StatusOr<std::vector<Device>> devices = task->client->addressable_devices();
  if (!devices.ok()) return failed(devices.status());
  if (devices->empty()) return failed(FailedPrecondition("the worker has no devices"));
  for (size_t i = 0; i < devices->size(); ++i) {
    StatusOr<std::string> kind = (*devices)[i].kind();
    if (!kind.ok()) return failed(kind.status());
    std::transform(kind->begin(), kind->end(), kind->begin(),
                   [](unsigned char c) { return std::isspace(c) ? '_' : std::tolower(c); });
    task->devices.push_back({(*devices)[i], StrCat(task_name, "/device:", *kind, ":", i),
                             task->client.get(), task->lease});
  }
  return task;
}

// The remote plugin's extension (include/plugrt/remote_extension.h) in the
// chain of the task's plugin; null for a plugin without it.
const PLUGRT_Remote_Extension* RemoteExtension(const RemoteTask& task) {
  const PJRT_Api* api = task.client->api();
  // plugrt's extensions share the type Unknown: look at each until the name
  // matches.
  for (const PJRT_Extension_Base* e = FindExtension(api->extension_start, PJRT_Extension_Type_Unknown,
                                                    PLUGRT_Remote_Extension_V1_STRUCT_SIZE);
       e != nullptr; e = FindExtension(e->next, PJRT_Extension_Type_Unknown,
                                       PLUGRT_Remote_Extension_V1_STRUCT_SIZE)) {
    const auto* remote = reinterpret_cast<const PLUGRT_Remote_Extension*>(e);
    if (remote->name == nullptr || std::strcmp(remote->name, PLUGRT_REMOTE_EXTENSION_NAME) != 0 ||
        remote->client_close == nullptr) {
      continue;
    }
    return remote;
  }
  return nullptr;
}

// Ends a released task's worker context now, though tensors of the task may
// still hold buffers. A plugin without the extension ends the context when
// the last buffer goes.
void CloseWorkerContext(const RemoteTask& task) {
  const PLUGRT_Remote_Extension* remote = RemoteExtension(task);
  if (remote == nullptr) return;
  PLUGRT_Remote_Client_Close_Args args{};
  args.struct_size = PLUGRT_Remote_Client_Close_Args_STRUCT_SIZE;
  args.client = task.client->raw();
  Status closed = StatusFromPjrtError(task.client->api(), remote->client_close(&args));
  if (!closed.ok()) {
    // The lease is released either way; the context expires on the worker.
    Log(LogLevel::kWarning, "eager", StrCat("closing the context of cluster task ",
                                            task.lease->task(), ": ", closed.ToString()));
  }
}

// Whether the task's worker still answers, as far as its client knows (no
// call is made): OK, or why not. OK when the plugin cannot tell (no
// version-2 extension).
Status WorkerHealth(const RemoteTask& task) {
  const PLUGRT_Remote_Extension* remote = RemoteExtension(task);
  if (remote == nullptr || remote->base.struct_size < PLUGRT_Remote_Extension_STRUCT_SIZE ||
      remote->client_status == nullptr) {
    return OkStatus();
  }
  PLUGRT_Remote_Client_Status_Args args{};
  args.struct_size = PLUGRT_Remote_Client_Status_Args_STRUCT_SIZE;
  args.client = task.client->raw();
  return StatusFromPjrtError(task.client->api(), remote->client_status(&args));
}

}  // namespace

const RemoteTask* Cluster::FindTask(std::string_view job, int index) const {
  for (const auto& task : tasks_) {
    if (task->job == job && task->index == index) return task.get();
  }
  return nullptr;
}

std::string Cluster::Describe() const {
  std::string text;
  for (const auto& [job, tasks] : spec_.jobs) {
    std::string indices;
    for (const auto& entry : tasks) {
      indices += (indices.empty() ? "" : ", ") + std::to_string(entry.first);
    }
    text += StrCat(text.empty() ? "" : ", ", job, " (task", tasks.size() == 1 ? " " : "s ",
                   indices, ")");
  }
  return text.empty() ? "none" : text;
}

StatusOr<std::vector<std::shared_ptr<RemoteTask>>> Cluster::Apply(const ClusterSpec& spec,
                                                                  ClusterUpdate mode,
                                                                  const RemoteOptions& options) {
  PLUGRT_RETURN_IF_ERROR(spec.Validate());
  if (options.keep_alive_secs < 1) {
    return InvalidArgument("cluster: keep_alive_secs must be at least 1, got ",
                           options.keep_alive_secs);
  }
  std::shared_ptr<Plugin> plugin;
  std::vector<std::shared_ptr<RemoteTask>> next;
  // Tasks an update connects again because their worker stopped answering
  // (it died, or restarted at the same address), with what their client saw.
  std::map<const RemoteTask*, Status> lost;
  for (const auto& [job, tasks] : spec.jobs) {
    for (const auto& [index, address] : tasks) {
      if (mode == ClusterUpdate::kUpdate) {
        // A plain loop: clang 14 does not let lambdas capture structured bindings.
        const std::shared_ptr<RemoteTask>* kept = nullptr;
        for (const auto& task : tasks_) {
          if (task->job == job && task->index == index && task->address == address) kept = &task;
        }
        if (kept != nullptr) {
          Status health = WorkerHealth(**kept);
          if (health.ok()) {
            next.push_back(*kept);
            continue;
          }
          lost.emplace(kept->get(), std::move(health));
        }
      }
      if (plugin == nullptr) {
        StatusOr<std::shared_ptr<Plugin>> loaded = LoadPlugin(options.plugin);
        if (!loaded.ok()) {
          return Status(loaded.status().code(),
                        StrCat("cluster: cannot load the remote plugin '", options.plugin,
                               "': ", loaded.status().message()));
        }
        plugin = std::move(loaded).value();
      }
      // On failure the clients made so far go with `next` (their contexts
      // closed); the old cluster stays.
      PLUGRT_ASSIGN_OR_RETURN(std::shared_ptr<RemoteTask> task,
                              ConnectTask(plugin, job, index, address, options));
      next.push_back(std::move(task));
    }
  }
  std::vector<std::shared_ptr<RemoteTask>> dropped;
  for (auto& task : tasks_) {
    if (std::find(next.begin(), next.end(), task) != next.end()) continue;
    std::string why;
    if (mode == ClusterUpdate::kReset) {
      why = "the context's cluster was reset (SetClusterSpec with reset)";
    } else if (auto it = lost.find(task.get()); it != lost.end()) {
      why = StrCat("its worker had stopped answering (", it->second.message(),
                   ") and a cluster update connected the task again");
    } else {
      why = "a cluster update (SetClusterSpec with update) removed or moved it";
    }
    task->lease->Release(FailedPrecondition("task ", task->lease->task(), " (", task->address,
                                            ") was released: ", why,
                                            "; its tensors went with it"));
    CloseWorkerContext(*task);
    dropped.push_back(task);
  }
  tasks_ = std::move(next);
  spec_ = spec;
  return dropped;
}

}  // namespace plugrt::eager
