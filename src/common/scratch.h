// plugrt: per-thread reusable objects for hot paths. A Scratch<T> lends a T
// (a vector, a table of vectors, a result struct) from a per-thread free
// list for the length of a scope and takes it back emptied but with its
// capacity, so code that needs a temporary container on every call (an
// execute's argument table and result, an interpreter step's operands)
// allocates only the first few times on each thread. Nested and recursive
// users each get an object of their own.
//
// Emptying is RecycleScratch(T&), found by argument-dependent lookup: for
// vectors it drops the elements (nothing they own outlives the scope) and,
// for tables of vectors, keeps the rows with their capacity. A type of
// another kind declares its own RecycleScratch next to it.
#ifndef PLUGRT_COMMON_SCRATCH_H_
#define PLUGRT_COMMON_SCRATCH_H_

#include <memory>
#include <vector>

namespace plugrt {

template <typename U>
void RecycleScratch(std::vector<U>& v) {
  v.clear();
}
template <typename U>
void RecycleScratch(std::vector<std::vector<U>>& v) {
  for (std::vector<U>& row : v) row.clear();
}

template <typename T>
class Scratch {
 public:
  // The pool is looked up once (a thread_local in a shared library costs a
  // call to reach); a Scratch stays on the thread that made it.
  Scratch() : pool_(Pool()) {
    if (pool_ == nullptr || pool_->empty()) {
      value_ = std::make_unique<T>();
    } else {
      value_ = std::move(pool_->back());
      pool_->pop_back();
    }
  }
  ~Scratch() {
    if (pool_ == nullptr) return;  // the thread is ending: value_ is just freed
    RecycleScratch(*value_);
    pool_->push_back(std::move(value_));
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  T& operator*() { return *value_; }
  T* operator->() { return value_.get(); }

 private:
  using PoolVector = std::vector<std::unique_ptr<T>>;
  // The thread's pool through a trivially destructible slot: one TLS lookup
  // per use, where a thread_local vector would need a second one for its
  // initialization guard. The pool itself lives in an owner made on the
  // thread's first use, which empties the slot when the thread ends.
  struct Slot {
    PoolVector* pool;
    bool gone;  // the owner is destroyed: no pool from now on
  };
  struct Owner {
    PoolVector pool;
    ~Owner() {
      slot_.pool = nullptr;
      slot_.gone = true;
    }
  };
  static PoolVector* Pool() {
    Slot& slot = slot_;
    if (slot.pool == nullptr && !slot.gone) {
      thread_local Owner owner;
      slot.pool = &owner.pool;
    }
    return slot.pool;
  }
  static thread_local Slot slot_;

  PoolVector* pool_;
  std::unique_ptr<T> value_;
};

template <typename T>
thread_local typename Scratch<T>::Slot Scratch<T>::slot_ = {};

template <typename T>
using ScratchVector = Scratch<std::vector<T>>;

}  // namespace plugrt

#endif  // PLUGRT_COMMON_SCRATCH_H_
