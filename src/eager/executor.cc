#include "eager/executor.h"

namespace plugrt::eager {

Status CheckInput(std::string_view op, size_t index, const Tensor& input) {
  // Set only once resolved without error and ready: nothing to wait for.
  if (input.state()->known_ready()) return OkStatus();
  Status status = input.state()->WaitResolved();
  if (status.ok() && input.IsReady()) status = input.Await();
  if (status.ok()) return status;
  return Status(status.code(), std::string(op) + ": input " + std::to_string(index) +
                                   " comes from an op that failed: " + status.message());
}

StatusOr<Future> RunNode(Node& node) {
  Status status;
  for (size_t i = 0; i < node.inputs.size() && status.ok(); ++i) {
    status = CheckInput(node.op, i, node.inputs[i]);
  }
  StatusOr<Future> done = status.ok() ? node.run() : StatusOr<Future>(status);
  if (!done.ok()) {
    for (Tensor& output : node.outputs) output.state()->Poison(done.status());
  }
  return done;
}

namespace {

class SyncExecutor : public Executor {
 public:
  bool is_async() const override { return false; }
  Status Submit(Node node) override {
    PLUGRT_ASSIGN_OR_RETURN(Future done, RunNode(node));
    return done.Await();
  }
  Status Wait() override { return OkStatus(); }
};

class AsyncExecutor : public Executor {
 public:
  AsyncExecutor() : worker_([this] { Work(); }) {}
  ~AsyncExecutor() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    worker_.join();
    Wait().IgnoreError();  // the device work of the last nodes
  }

  bool is_async() const override { return true; }

  Status Submit(Node node) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.push_back(std::move(node));
      ++in_flight_;
    }
    cv_.notify_all();
    return OkStatus();
  }

  Status Wait() override {
    std::unique_lock<std::mutex> lock(mu_);
    idle_.wait(lock, [this] { return in_flight_ == 0; });
    Status first = std::move(first_error_);
    first_error_ = OkStatus();
    return first;
  }

 private:
  void Record(const Status& status) {
    if (!status.ok() && first_error_.ok()) first_error_ = status;
  }

  // One in-flight count per node, released when its device work ends.
  void Finish(const Status& status) {
    // Notified under the lock: once in_flight_ reaches 0 the destructor may
    // run, and this callback must not touch the executor after that.
    std::lock_guard<std::mutex> lock(mu_);
    Record(status);
    --in_flight_;
    idle_.notify_all();
  }

  void Work() {
    for (;;) {
      Node node;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;
        node = std::move(queue_.front());
        queue_.pop_front();
      }
      StatusOr<Future> done = RunNode(node);
      if (!done.ok()) {
        Finish(done.status());
        continue;
      }
      Status registered = done->OnReady([this](Status status) { Finish(status); });
      if (!registered.ok()) Finish(done->Await());
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::condition_variable idle_;
  std::deque<Node> queue_;
  size_t in_flight_ = 0;
  bool stopping_ = false;
  Status first_error_;
  std::thread worker_;  // last: starts after the members it uses
};

}  // namespace

std::unique_ptr<Executor> MakeSyncExecutor() { return std::make_unique<SyncExecutor>(); }
std::unique_ptr<Executor> MakeAsyncExecutor() { return std::make_unique<AsyncExecutor>(); }

}  // namespace plugrt::eager
