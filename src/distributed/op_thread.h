// plugrt distributed: a thread that runs blocking operations (Gloo's
// collectives, its rendezvous) one at a time for callers that may stop
// waiting for them. Gloo cannot be interrupted: a peer that stops without
// closing its sockets keeps an operation waiting for the whole Gloo
// timeout. The caller waits in slices instead and, when the heartbeat says
// a peer is lost, walks away; the operation ends on this thread whenever
// Gloo gives up, on data it owns or keeps alive (never the caller's stack).
#ifndef PLUGRT_DISTRIBUTED_OP_THREAD_H_
#define PLUGRT_DISTRIBUTED_OP_THREAD_H_

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace plugrt::distributed {

class OpThread {
 public:
  // One posted operation; shared by the caller and the thread.
  class Op {
   public:
    explicit Op(std::function<void()> body) : body_(std::move(body)) {}
    // Waits up to `slice`; true once the operation has ended.
    bool WaitFor(std::chrono::milliseconds slice) {
      std::unique_lock<std::mutex> lock(mu_);
      return done_cv_.wait_for(lock, slice, [this] { return done_; });
    }
    // After it ended: nullopt when it returned, else what it threw (the
    // exception's what(), or "unknown error").
    std::optional<std::string> failure() const {
      std::exception_ptr error;
      {
        std::lock_guard<std::mutex> lock(mu_);
        error = error_;
      }
      if (error == nullptr) return std::nullopt;
      try {
        std::rethrow_exception(error);
      } catch (const std::exception& e) {
        return std::string(e.what());
      } catch (...) {
      }
      return std::string("unknown error");
    }

   private:
    friend class OpThread;
    void Run() {
      std::exception_ptr error;
      try {
        body_();
      } catch (...) {
        error = std::current_exception();
      }
      body_ = nullptr;  // lets go of what the body kept alive
      std::lock_guard<std::mutex> lock(mu_);
      error_ = error;
      done_ = true;
      done_cv_.notify_all();
    }
    std::function<void()> body_;
    mutable std::mutex mu_;
    std::condition_variable done_cv_;
    bool done_ = false;
    std::exception_ptr error_;
  };

  OpThread() : state_(std::make_shared<State>()) {
    // Detached: an operation stuck in Gloo must not hold up whoever lets go
    // of this object; the thread owns what it touches and ends after it.
    std::thread([state = state_] { state->Loop(); }).detach();
  }
  ~OpThread() {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->stop = true;
    state_->cv.notify_all();
  }
  OpThread(const OpThread&) = delete;
  OpThread& operator=(const OpThread&) = delete;

  std::shared_ptr<Op> Post(std::function<void()> body) {
    auto op = std::make_shared<Op>(std::move(body));
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->queue.push_back(op);
    state_->cv.notify_all();
    return op;
  }

 private:
  struct State {
    std::mutex mu;
    std::condition_variable cv;
    std::deque<std::shared_ptr<Op>> queue;
    bool stop = false;
    void Loop() {
      std::unique_lock<std::mutex> lock(mu);
      while (true) {
        cv.wait(lock, [this] { return stop || !queue.empty(); });
        if (queue.empty()) return;  // stopped and idle
        std::shared_ptr<Op> op = std::move(queue.front());
        queue.pop_front();
        lock.unlock();
        op->Run();
        lock.lock();
      }
    }
  };
  std::shared_ptr<State> state_;
};

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_OP_THREAD_H_
