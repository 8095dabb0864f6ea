// plugrt remote: one client's state on a worker. A context owns the buffers,
// executables and running executions one remote client made; handles are
// numbers valid only inside their context, so clients never see each other's
// objects. No gRPC here: the service (worker_service.cc) translates.
#ifndef PLUGRT_REMOTE_WORKER_CONTEXT_H_
#define PLUGRT_REMOTE_WORKER_CONTEXT_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "client/buffer.h"
#include "client/event.h"
#include "client/executable.h"
#include "common/status.h"

namespace plugrt::remote {

// An execution's per-device completion, waited for with a time limit.
class Execution {
 public:
  Execution(std::vector<Future> device_complete);
  // Waits up to `limit`; true when every device has finished.
  bool WaitFor(std::chrono::milliseconds limit);
  // One status per device; valid once WaitFor returned true.
  std::vector<Status> statuses() const;

 private:
  struct State {
    std::mutex mu;
    std::condition_variable cv;
    size_t remaining = 0;
    std::vector<Status> statuses;
  };
  std::shared_ptr<State> state_;
  std::vector<Future> futures_;  // kept until the execution is forgotten
};

class WorkerContext {
 public:
  using Clock = std::chrono::steady_clock;
  WorkerContext(uint64_t id, std::chrono::seconds keep_alive);

  uint64_t id() const { return id_; }
  std::chrono::seconds keep_alive() const { return keep_alive_; }
  void Touch() { last_use_ns_.store(Clock::now().time_since_epoch().count()); }
  bool ExpiredAt(Clock::time_point now) const;
  // Requests running in this context; it is not dropped while one runs.
  void Enter() { ++in_flight_; }
  void Leave() {
    Touch();
    --in_flight_;
  }

  uint64_t AddBuffer(Buffer buffer);
  StatusOr<std::shared_ptr<Buffer>> GetBuffer(uint64_t handle) const;
  uint64_t AddExecutable(LoadedExecutable executable);
  StatusOr<std::shared_ptr<LoadedExecutable>> GetExecutable(uint64_t handle) const;
  uint64_t AddExecution(std::shared_ptr<Execution> execution);
  StatusOr<std::shared_ptr<Execution>> GetExecution(uint64_t handle) const;
  void ForgetExecution(uint64_t handle);
  // Unknown handles are errors (nothing is deleted then).
  Status Delete(const std::vector<uint64_t>& buffers, const std::vector<uint64_t>& executables);
  // Forgets buffers the worker's plugin deleted (donated arguments).
  void ForgetBuffer(uint64_t handle);

 private:
  const uint64_t id_;
  const std::chrono::seconds keep_alive_;
  std::atomic<Clock::rep> last_use_ns_;
  std::atomic<int> in_flight_{0};
  mutable std::mutex mu_;
  uint64_t next_handle_ = 1;
  std::map<uint64_t, std::shared_ptr<Buffer>> buffers_;
  std::map<uint64_t, std::shared_ptr<LoadedExecutable>> executables_;
  std::map<uint64_t, std::shared_ptr<Execution>> executions_;
};

// Every context of a worker, and the ids of those that ended, so that a
// late client learns why its context is gone.
class ContextTable {
 public:
  std::shared_ptr<WorkerContext> Create(std::chrono::seconds keep_alive);
  // The live context `id`, touched; errors say whether it expired, was
  // closed or never existed.
  StatusOr<std::shared_ptr<WorkerContext>> Use(uint64_t id);
  Status Close(uint64_t id);
  // Drops contexts idle longer than their keep-alive (their buffers and
  // executables go with the last request still using them). Returns how
  // many were dropped.
  int DropExpired();
  size_t size() const;

 private:
  enum class Ended { kExpired, kClosed };
  mutable std::mutex mu_;
  uint64_t next_id_ = 1;
  std::map<uint64_t, std::shared_ptr<WorkerContext>> live_;
  std::map<uint64_t, std::pair<Ended, std::chrono::seconds>> ended_;
};

}  // namespace plugrt::remote

#endif  // PLUGRT_REMOTE_WORKER_CONTEXT_H_
