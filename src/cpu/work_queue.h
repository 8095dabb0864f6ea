// plugrt CPU backend: a small pool of worker threads for asynchronous
// transfers (and, later, program execution).
#ifndef PLUGRT_CPU_WORK_QUEUE_H_
#define PLUGRT_CPU_WORK_QUEUE_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace plugrt::cpu {

// First-in first-out. The destructor lets every queued task finish (tasks
// may queue more while it waits) and joins the threads; so it must not run
// on one of the queue's own threads.
class WorkQueue {
 public:
  // `name` names the worker threads (debuggers, profiles: at most 15
  // characters are kept).
  explicit WorkQueue(int num_threads, const std::string& name = "");
  ~WorkQueue();
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // Tasks must not throw; one that does is stopped there and its exception
  // dropped, so that no exception escapes a worker. Once the workers have
  // exited, Schedule runs the task on the calling thread.
  void Schedule(std::function<void()> task);
  // Runs `task` on the calling thread now if the queue is idle (nothing
  // queued or running), as if it had been queued and run at once; else
  // returns false without running it. Small executions use this to skip the
  // hand-off to a worker thread.
  bool TryRunInline(const std::function<void()>& task);

 private:
  void WorkerLoop();

  // What TryRunInline may claim without the lock: kInline while a task runs
  // inline, plus kQueued for each task queued or run by a worker, plus
  // kStopping once the destructor began. Inline runs claim it from 0 with one
  // compare-exchange; everything else changes under mu_ as well.
  static constexpr int64_t kInline = 1;
  static constexpr int64_t kQueued = 2;
  static constexpr int64_t kStopping = int64_t{1} << 40;
  std::atomic<int64_t> claims_{0};

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  int running_ = 0;  // tasks being run by workers
  bool stopping_ = false;
  bool stopped_ = false;
  std::vector<std::thread> threads_;
};

// One single-threaded WorkQueue per device, made on first use: what a device
// runs, it runs in the order it was scheduled, and different devices run at
// the same time (the devices of one launch meet in collectives).
class DeviceQueues {
 public:
  DeviceQueues() = default;
  ~DeviceQueues() { Shutdown(); }
  DeviceQueues(const DeviceQueues&) = delete;
  DeviceQueues& operator=(const DeviceQueues&) = delete;

  // Queues tasks[i] on device devices[i]'s queue. All of one call's tasks
  // are queued together: two launches over the same devices reach every
  // device in the same order, so their collectives cannot cross.
  void ScheduleTogether(const std::vector<size_t>& devices,
                        std::vector<std::function<void()>> tasks);
  // WorkQueue::TryRunInline on `device`'s queue.
  bool TryRunInline(size_t device, const std::function<void()>& task);
  // Lets every queued task finish and joins the threads; later calls to
  // ScheduleTogether run their tasks on the calling thread. Must not run on
  // one of the queues' own threads.
  void Shutdown();

 private:
  std::mutex mu_;
  bool shut_down_ = false;
  std::vector<std::unique_ptr<WorkQueue>> queues_;  // by device index
  // The queues of the first devices once made, for TryRunInline without the
  // lock (null again after Shutdown).
  static constexpr size_t kFastDevices = 64;
  std::atomic<WorkQueue*> fast_[kFastDevices] = {};
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_WORK_QUEUE_H_
