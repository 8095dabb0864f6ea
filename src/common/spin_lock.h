// plugrt: a lock for critical sections of a few instructions (copying a
// reference, flipping a flag) taken on every call of a hot path, where
// std::mutex's calls into the C library cost more than the section. It
// spins briefly, then yields the core to the holder; never hold it across
// anything that may block or run caller code.
#ifndef PLUGRT_COMMON_SPIN_LOCK_H_
#define PLUGRT_COMMON_SPIN_LOCK_H_

#include <atomic>
#include <thread>

namespace plugrt {

class SpinLock {
 public:
  void lock() noexcept {
    while (locked_.exchange(true, std::memory_order_acquire)) {
      // Wait on a plain read (no cache-line ping-pong), yielding once the
      // holder has had time to finish: it may have been preempted.
      for (int spins = 0; locked_.load(std::memory_order_relaxed); ++spins) {
        if (spins >= kSpinsBeforeYield) std::this_thread::yield();
      }
    }
  }
  bool try_lock() noexcept { return !locked_.exchange(true, std::memory_order_acquire); }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  static constexpr int kSpinsBeforeYield = 64;
  std::atomic<bool> locked_{false};
};

}  // namespace plugrt

#endif  // PLUGRT_COMMON_SPIN_LOCK_H_
