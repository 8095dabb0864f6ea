// plugrt distributed: what tells machines, and namespaces on one machine,
// apart: the heartbeat's machine id (whose pids a process can look up) and
// the shared-memory domain (who can map whose segments).
#ifndef PLUGRT_DISTRIBUTED_HOST_IDENTITY_H_
#define PLUGRT_DISTRIBUTED_HOST_IDENTITY_H_

#include <string>

namespace plugrt::distributed {

// "BOOT_ID/NAMESPACE" for this process's namespace of `kind` ("pid", "mnt":
// the link /proc/self/ns/KIND names); no spaces. Empty when either cannot
// be read.
std::string BootAndNamespace(const char* kind);

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_HOST_IDENTITY_H_
