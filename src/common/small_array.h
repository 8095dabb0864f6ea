// plugrt: a fixed-size array that keeps up to N elements inline and goes to
// the heap only beyond that. For the per-call scratch arrays of hot paths
// (an execute's argument and output tables), where one device and a few
// arguments are the common case and a heap allocation costs more than the
// rest of the bookkeeping.
#ifndef PLUGRT_COMMON_SMALL_ARRAY_H_
#define PLUGRT_COMMON_SMALL_ARRAY_H_

#include <cstddef>
#include <memory>

namespace plugrt {

template <typename T, size_t N>
class SmallArray {
 public:
  // `size` value-initialized elements.
  explicit SmallArray(size_t size) : size_(size) {
    if (size > N) {
      heap_ = std::make_unique<T[]>(size);
      data_ = heap_.get();
    } else {
      for (size_t i = 0; i < size; ++i) inline_[i] = T{};
      data_ = inline_;
    }
  }
  SmallArray(const SmallArray&) = delete;
  SmallArray& operator=(const SmallArray&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }

 private:
  size_t size_;
  T inline_[N];
  std::unique_ptr<T[]> heap_;
  T* data_;
};

}  // namespace plugrt

#endif  // PLUGRT_COMMON_SMALL_ARRAY_H_
