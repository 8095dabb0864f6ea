#include "cpu/work_queue.h"

#include <pthread.h>

namespace plugrt::cpu {

namespace {
std::string DeviceThreadName(size_t device) { return "plugrt dev " + std::to_string(device); }

void RunGuarded(const std::function<void()>& task) {
  try {
    task();
  } catch (...) {
    // A task reports failure through the events it completes; an exception
    // here is a bug, but it must not take the process down.
  }
}
}  // namespace

WorkQueue::WorkQueue(int num_threads, const std::string& name) {
  if (num_threads < 1) num_threads = 1;
  threads_.reserve(num_threads);
  for (int i = 0; i < num_threads; ++i) {
    threads_.emplace_back([this, name = name.substr(0, 15)] {
      if (!name.empty()) pthread_setname_np(pthread_self(), name.c_str());
      WorkerLoop();
    });
  }
}

WorkQueue::~WorkQueue() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    claims_.fetch_add(kStopping, std::memory_order_acq_rel);
  }
  cv_.notify_all();
  for (std::thread& thread : threads_) thread.join();
  // A task queued by another thread after the last worker left would be
  // lost; run such stragglers here. From now on Schedule runs tasks inline.
  std::deque<std::function<void()>> leftovers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
    leftovers.swap(tasks_);
  }
  for (auto& task : leftovers) RunGuarded(task);
}

void WorkQueue::Schedule(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!stopped_) {
      claims_.fetch_add(kQueued, std::memory_order_acq_rel);
      tasks_.push_back(std::move(task));
      cv_.notify_one();
      return;
    }
  }
  RunGuarded(task);
}

bool WorkQueue::TryRunInline(const std::function<void()>& task) {
  // Only a single-threaded queue keeps order this way.
  if (threads_.size() != 1) return false;
  int64_t idle = 0;
  if (!claims_.compare_exchange_strong(idle, kInline, std::memory_order_acquire,
                                       std::memory_order_relaxed)) {
    return false;  // something queued or running, or stopping
  }
  RunGuarded(task);
  // Tasks queued meanwhile wait for the inline claim to go; wake the worker
  // only then (an idle worker woken for nothing costs a futex round trip).
  // The lock orders the release before the worker's next look at claims_,
  // so the wake-up cannot fall between its check and its wait.
  if (claims_.fetch_sub(kInline, std::memory_order_acq_rel) != kInline) {
    { std::lock_guard<std::mutex> lock(mu_); }
    cv_.notify_all();
  }
  return true;
}

void WorkQueue::WorkerLoop() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      // With one worker, a task run inline must finish before the next
      // queued one starts (queue order is device order).
      cv_.wait(lock, [this] {
        const bool inline_idle = (claims_.load(std::memory_order_acquire) & kInline) == 0;
        return (stopping_ && running_ == 0 && inline_idle) ||
               (!tasks_.empty() && (threads_.size() > 1 || (running_ == 0 && inline_idle)));
      });
      if (tasks_.empty()) return;  // stopping, and nothing left to drain
      task = std::move(tasks_.front());
      tasks_.pop_front();
      ++running_;
    }
    RunGuarded(task);
    {
      std::lock_guard<std::mutex> lock(mu_);
      --running_;
      claims_.fetch_sub(kQueued, std::memory_order_acq_rel);
    }
    cv_.notify_all();
  }
}

void DeviceQueues::ScheduleTogether(const std::vector<size_t>& devices,
                                    std::vector<std::function<void()>> tasks) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!shut_down_) {
      for (size_t i = 0; i < devices.size() && i < tasks.size(); ++i) {
        const size_t device = devices[i];
        if (device >= queues_.size()) queues_.resize(device + 1);
        if (queues_[device] == nullptr) queues_[device] = std::make_unique<WorkQueue>(1, DeviceThreadName(device));
        queues_[device]->Schedule(std::move(tasks[i]));
      }
      return;
    }
  }
  // After shutdown nothing runs concurrently any more; a multi-device launch
  // would wait on itself in a collective, so its tasks get threads of their
  // own for this one time.
  if (tasks.size() == 1) {
    RunGuarded(tasks[0]);
    return;
  }
  std::vector<std::thread> threads;
  for (auto& task : tasks) threads.emplace_back([&task] { RunGuarded(task); });
  for (std::thread& thread : threads) thread.join();
}

bool DeviceQueues::TryRunInline(size_t device, const std::function<void()>& task) {
  WorkQueue* queue =
      device < kFastDevices ? fast_[device].load(std::memory_order_acquire) : nullptr;
  if (queue == nullptr) {
    std::lock_guard<std::mutex> lock(mu_);
    if (shut_down_) return false;
    if (device >= queues_.size()) queues_.resize(device + 1);
    if (queues_[device] == nullptr) queues_[device] = std::make_unique<WorkQueue>(1, DeviceThreadName(device));
    queue = queues_[device].get();
    if (device < kFastDevices) fast_[device].store(queue, std::memory_order_release);
  }
  // Queues live until Shutdown, which does not run while an Execute does.
  return queue->TryRunInline(task);
}

void DeviceQueues::Shutdown() {
  std::vector<std::unique_ptr<WorkQueue>> queues;
  {
    std::lock_guard<std::mutex> lock(mu_);
    shut_down_ = true;
    for (std::atomic<WorkQueue*>& fast : fast_) fast.store(nullptr, std::memory_order_release);
    queues.swap(queues_);
  }
  queues.clear();  // each destructor drains its queue and joins its thread
}

}  // namespace plugrt::cpu
