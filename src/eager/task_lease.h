// plugrt eager: a context's hold on one remote task of its cluster
// (cluster_spec.h). Every tensor on the task's devices shares it; when a new
// cluster spec drops the task (a reset, or an update without it) the lease
// is released, and from then on every use of those tensors fails with the
// reason, naming the task, instead of reaching a client the context let go.
#ifndef PLUGRT_EAGER_TASK_LEASE_H_
#define PLUGRT_EAGER_TASK_LEASE_H_

#include <atomic>
#include <mutex>
#include <string>

#include "common/status.h"

namespace plugrt::eager {

class TaskLease {
 public:
  TaskLease(std::string task, std::string address)
      : task_(std::move(task)), address_(std::move(address)) {}
  TaskLease(const TaskLease&) = delete;
  TaskLease& operator=(const TaskLease&) = delete;

  const std::string& task() const { return task_; }        // "/job:worker/task:1"
  const std::string& address() const { return address_; }  // host:port

  // One atomic load while held: the per-op check of remote tensors.
  bool released() const { return released_.load(std::memory_order_acquire); }
  // OK while held; after Release, why it was released.
  Status status() const {
    if (!released()) return OkStatus();
    std::lock_guard<std::mutex> lock(mu_);
    return reason_;
  }
  // The first reason wins.
  void Release(Status reason) {
    std::lock_guard<std::mutex> lock(mu_);
    if (released_.load(std::memory_order_relaxed)) return;
    reason_ = std::move(reason);
    released_.store(true, std::memory_order_release);
  }

 private:
  const std::string task_;
  const std::string address_;
  mutable std::mutex mu_;
  std::atomic<bool> released_{false};
  Status reason_;
};

}  // namespace plugrt::eager

#endif  // PLUGRT_EAGER_TASK_LEASE_H_
