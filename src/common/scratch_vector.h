// plugrt: per-thread reusable vectors for hot paths. A ScratchVector lends a
// std::vector from a per-thread free list for the length of a scope and
// takes it back emptied but with its capacity, so code that needs a
// temporary array on every call (an execute's argument table, an
// interpreter step's operands) allocates only the first few times on each
// thread. Nested and recursive users each get a vector of their own.
#ifndef PLUGRT_COMMON_SCRATCH_VECTOR_H_
#define PLUGRT_COMMON_SCRATCH_VECTOR_H_

#include <memory>
#include <vector>

namespace plugrt {

template <typename T>
class ScratchVector {
 public:
  using Vector = std::vector<T>;

  // The pool is looked up once (a thread_local in a shared library costs a
  // call to reach); a ScratchVector stays on the thread that made it.
  ScratchVector() : pool_(Pool()) {
    if (pool_.empty()) {
      vector_ = std::make_unique<Vector>();
    } else {
      vector_ = std::move(pool_.back());
      pool_.pop_back();
    }
  }
  ~ScratchVector() {
    Recycle(*vector_);
    pool_.push_back(std::move(vector_));
  }
  ScratchVector(const ScratchVector&) = delete;
  ScratchVector& operator=(const ScratchVector&) = delete;

  Vector& operator*() { return *vector_; }
  Vector* operator->() { return vector_.get(); }

 private:
  // Elements go (nothing they own outlives the scope); rows of a table are
  // emptied but kept, with their capacity.
  template <typename U>
  static void Recycle(std::vector<U>& v) {
    v.clear();
  }
  template <typename U>
  static void Recycle(std::vector<std::vector<U>>& v) {
    for (std::vector<U>& row : v) row.clear();
  }

  static std::vector<std::unique_ptr<Vector>>& Pool() {
    thread_local std::vector<std::unique_ptr<Vector>> pool;
    return pool;
  }

  std::vector<std::unique_ptr<Vector>>& pool_;
  std::unique_ptr<Vector> vector_;
};

}  // namespace plugrt

#endif  // PLUGRT_COMMON_SCRATCH_VECTOR_H_
