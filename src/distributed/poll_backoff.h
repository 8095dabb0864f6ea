// plugrt distributed: waiting for a key by polling, for stores that cannot
// notify (files, Redis GET): short sleeps at first so a key that arrives at
// once is seen at once, growing to a few milliseconds so a long wait costs
// little, and never past the deadline.
#ifndef PLUGRT_DISTRIBUTED_POLL_BACKOFF_H_
#define PLUGRT_DISTRIBUTED_POLL_BACKOFF_H_

#include <algorithm>
#include <chrono>
#include <thread>

namespace plugrt::distributed {

class PollBackoff {
 public:
  explicit PollBackoff(int timeout_ms)
      : deadline_(std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(std::max(timeout_ms, 0))) {}

  // Sleeps before the next try; false once the deadline has passed.
  bool Wait() {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline_) return false;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(delay_, deadline_ - now));
    delay_ = std::min(delay_ * 2, std::chrono::microseconds(kMaxDelayUs));
    return true;
  }

 private:
  static constexpr int kMaxDelayUs = 10'000;
  std::chrono::steady_clock::time_point deadline_;
  std::chrono::microseconds delay_{100};
};

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_POLL_BACKOFF_H_
