#include "remote/worker_context.h"

#include <random>
#include <utility>

namespace plugrt::remote {

Execution::Execution(std::vector<Future> device_complete)
    : state_(std::make_shared<State>()), futures_(std::move(device_complete)) {
  state_->remaining = futures_.size();
  state_->statuses.resize(futures_.size());
  for (size_t d = 0; d < futures_.size(); ++d) {
    std::shared_ptr<State> state = state_;
    auto finish = [state, d](Status status) {
      std::lock_guard<std::mutex> lock(state->mu);
      state->statuses[d] = std::move(status);
      if (--state->remaining == 0) state->cv.notify_all();
    };
    Status registered = futures_[d].OnReady(finish);
    if (!registered.ok()) finish(std::move(registered));
  }
}

bool Execution::WaitFor(std::chrono::milliseconds limit) {
  std::unique_lock<std::mutex> lock(state_->mu);
  return state_->cv.wait_for(lock, limit, [this] { return state_->remaining == 0; });
}

std::vector<Status> Execution::statuses() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->statuses;
}

WorkerContext::WorkerContext(uint64_t id, std::chrono::seconds keep_alive)
    : id_(id), keep_alive_(keep_alive) {
  Touch();
}

bool WorkerContext::ExpiredAt(Clock::time_point now) const {
  if (in_flight_.load() > 0) return false;
  Clock::time_point last{Clock::duration(last_use_ns_.load())};
  return now - last > keep_alive_;
}

uint64_t WorkerContext::AddBuffer(Buffer buffer) {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t handle = next_handle_++;
  buffers_.emplace(handle, std::make_shared<Buffer>(std::move(buffer)));
  return handle;
}

StatusOr<std::shared_ptr<Buffer>> WorkerContext::GetBuffer(uint64_t handle) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = buffers_.find(handle);
  if (it == buffers_.end()) {
    return InvalidArgument("buffer handle ", handle, " is not a live buffer of context ", id_);
  }
  return it->second;
}

uint64_t WorkerContext::AddExecutable(LoadedExecutable executable) {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t handle = next_handle_++;
  executables_.emplace(handle, std::make_shared<LoadedExecutable>(std::move(executable)));
  return handle;
}

StatusOr<std::shared_ptr<LoadedExecutable>> WorkerContext::GetExecutable(uint64_t handle) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = executables_.find(handle);
  if (it == executables_.end()) {
    return InvalidArgument("executable handle ", handle, " is not a live executable of context ",
                           id_);
  }
  return it->second;
}

uint64_t WorkerContext::AddExecution(std::shared_ptr<Execution> execution) {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t handle = next_handle_++;
  executions_.emplace(handle, std::move(execution));
  return handle;
}

StatusOr<std::shared_ptr<Execution>> WorkerContext::GetExecution(uint64_t handle) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = executions_.find(handle);
  if (it == executions_.end()) {
    return InvalidArgument("execution ", handle, " is not a running execution of context ", id_);
  }
  return it->second;
}

void WorkerContext::ForgetExecution(uint64_t handle) {
  std::lock_guard<std::mutex> lock(mu_);
  executions_.erase(handle);
}

void WorkerContext::ForgetBuffer(uint64_t handle) {
  std::lock_guard<std::mutex> lock(mu_);
  buffers_.erase(handle);
}

Status WorkerContext::Delete(const std::vector<uint64_t>& buffers,
                             const std::vector<uint64_t>& executables) {
  std::lock_guard<std::mutex> lock(mu_);
  for (uint64_t handle : buffers) {
    if (!buffers_.count(handle)) {
      return InvalidArgument("Delete: buffer handle ", handle, " is not a live buffer of context ",
                             id_);
    }
  }
  for (uint64_t handle : executables) {
    if (!executables_.count(handle)) {
      return InvalidArgument("Delete: executable handle ", handle,
                             " is not a live executable of context ", id_);
    }
  }
  for (uint64_t handle : buffers) buffers_.erase(handle);
  for (uint64_t handle : executables) executables_.erase(handle);
  return OkStatus();
}

std::shared_ptr<WorkerContext> ContextTable::Create(std::chrono::seconds keep_alive) {
  // Random ids: a client cannot reach another's context by counting.
  static thread_local std::mt19937_64 random{std::random_device{}()};
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t id;
  do {
    id = random() >> 1;
  } while (id == 0 || live_.count(id) || ended_.count(id));
  auto context = std::make_shared<WorkerContext>(id, keep_alive);
  live_.emplace(id, context);
  return context;
}

StatusOr<std::shared_ptr<WorkerContext>> ContextTable::Use(uint64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.find(id);
  if (it != live_.end()) {
    it->second->Touch();
    return it->second;
  }
  auto ended = ended_.find(id);
  if (ended == ended_.end()) return NotFound("remote context ", id, " does not exist on this worker");
  if (ended->second.first == Ended::kClosed) {
    return FailedPrecondition("remote context ", id, " was closed");
  }
  return FailedPrecondition("remote context ", id, " expired: the worker dropped it (with its "
                            "buffers and executables) after ", ended->second.second.count(),
                            " s without traffic (keep_alive_secs)");
}

Status ContextTable::Close(uint64_t id) {
  std::shared_ptr<WorkerContext> dropped;  // destroyed outside the lock
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.find(id);
  if (it == live_.end()) return NotFound("remote context ", id, " is not open on this worker");
  dropped = std::move(it->second);
  live_.erase(it);
  ended_[id] = {Ended::kClosed, dropped->keep_alive()};
  return OkStatus();
}

int ContextTable::DropExpired() {
  std::vector<std::shared_ptr<WorkerContext>> dropped;  // destroyed outside the lock
  {
    std::lock_guard<std::mutex> lock(mu_);
    const auto now = WorkerContext::Clock::now();
    for (auto it = live_.begin(); it != live_.end();) {
      if (it->second->ExpiredAt(now)) {
        ended_[it->first] = {Ended::kExpired, it->second->keep_alive()};
        dropped.push_back(std::move(it->second));
        it = live_.erase(it);
      } else {
        ++it;
      }
    }
    // Remember a bounded number of ended ids (beyond it, a late client is
    // told only that its context does not exist).
    constexpr size_t kRemembered = 4096;
    while (ended_.size() > kRemembered) ended_.erase(ended_.begin());
  }
  return static_cast<int>(dropped.size());
}

size_t ContextTable::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return live_.size();
}

}  // namespace plugrt::remote
