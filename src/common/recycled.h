// plugrt: class-level operator new/delete that keep freed blocks per thread
// for the next allocation of the same class. For small handle objects made
// and destroyed on every call of a hot path (the PJRT_Event and PJRT_Buffer
// of each execute), where malloc and free cost more than the rest of the
// handle's work. A thread keeps at most kKeep blocks; the rest, and all of
// them when the thread ends, go back to the heap.
//
//   struct Handle : plugrt::Recycled<Handle> { ... };
#ifndef PLUGRT_COMMON_RECYCLED_H_
#define PLUGRT_COMMON_RECYCLED_H_

#include <cstddef>
#include <new>

namespace plugrt {

template <typename T>
class Recycled {
 public:
  static void* operator new(size_t size) {
    Cache& cache = cache_;
    if (size == sizeof(T) && cache.count > 0) return cache.blocks[--cache.count];
    return ::operator new(size);
  }
  static void operator delete(void* p, size_t size) {
    if (p == nullptr) return;
    Cache& cache = cache_;
    if (size == sizeof(T) && !cache.gone && cache.count < kKeep) {
      if (!cache.cleaner_registered) {
        cache.cleaner_registered = true;
        thread_local Cleaner cleaner;  // empties the cache when the thread ends
        (void)cleaner;
      }
      cache.blocks[cache.count++] = p;
      return;
    }
    ::operator delete(p);
  }

 private:
  static constexpr int kKeep = 32;
  // Trivially destructible, so it stays readable through the thread's exit
  // (one TLS lookup per use, no initialization guard).
  struct Cache {
    void* blocks[kKeep];
    int count;
    bool cleaner_registered;
    bool gone;  // the cleaner ran: later deletes go straight to the heap
  };
  struct Cleaner {
    ~Cleaner() {
      Cache& cache = cache_;
      cache.gone = true;
      while (cache.count > 0) ::operator delete(cache.blocks[--cache.count]);
    }
  };
  static thread_local Cache cache_;
};

template <typename T>
thread_local typename Recycled<T>::Cache Recycled<T>::cache_ = {};

}  // namespace plugrt

#endif  // PLUGRT_COMMON_RECYCLED_H_
