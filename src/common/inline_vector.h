// plugrt: a growable sequence that keeps up to N elements inside the object
// and goes to the heap only beyond that. For results handed out on every
// call of a hot path (an execute's output buffers and completion events),
// where one device and a few outputs are the common case and the heap
// allocations of std::vector cost more than the rest of the bookkeeping.
// The subset of std::vector's interface those results need; moving it moves
// the elements one by one while they are inline.
#ifndef PLUGRT_COMMON_INLINE_VECTOR_H_
#define PLUGRT_COMMON_INLINE_VECTOR_H_

#include <cstddef>
#include <iterator>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace plugrt {

template <typename T, size_t N>
class InlineVector {
 public:
  using value_type = T;
  using size_type = size_t;
  using reference = T&;
  using const_reference = const T&;
  using iterator = T*;
  using const_iterator = const T*;

  InlineVector() = default;
  InlineVector(InlineVector&& other) noexcept { TakeFrom(other); }
  InlineVector& operator=(InlineVector&& other) noexcept {
    if (this != &other) {
      Release();
      TakeFrom(other);
    }
    return *this;
  }
  InlineVector(const InlineVector& other) { AppendCopies(other); }
  InlineVector& operator=(const InlineVector& other) {
    if (this != &other) {
      clear();
      AppendCopies(other);
    }
    return *this;
  }
  ~InlineVector() { Release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

  void reserve(size_t wanted) {
    if (wanted > capacity_) Grow(wanted);
  }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == capacity_) Grow(capacity_ * 2);
    T* slot = ::new (static_cast<void*>(data_ + size_)) T(std::forward<Args>(args)...);
    ++size_;
    return *slot;
  }
  void push_back(T&& value) { emplace_back(std::move(value)); }
  void push_back(const T& value) { emplace_back(value); }
  void pop_back() { data_[--size_].~T(); }
  void clear() {
    std::destroy(data_, data_ + size_);
    size_ = 0;
  }
  void resize(size_t size) {
    while (size_ > size) pop_back();
    reserve(size);
    while (size_ < size) emplace_back();
  }

  // The elements, moved into a std::vector (for callers that keep them).
  std::vector<T> ToVector() && {
    std::vector<T> out(std::make_move_iterator(begin()), std::make_move_iterator(end()));
    clear();
    return out;
  }
  operator std::vector<T>() && { return std::move(*this).ToVector(); }

 private:
  T* inline_data() { return std::launder(reinterpret_cast<T*>(inline_)); }

  void Grow(size_t wanted) {
    T* fresh = static_cast<T*>(::operator new(wanted * sizeof(T), std::align_val_t(alignof(T))));
    std::uninitialized_move(data_, data_ + size_, fresh);
    std::destroy(data_, data_ + size_);
    FreeHeap();
    data_ = fresh;
    capacity_ = wanted;
  }
  void FreeHeap() {
    if (data_ != inline_data()) ::operator delete(data_, std::align_val_t(alignof(T)));
  }
  void Release() {
    clear();
    FreeHeap();
    data_ = inline_data();
    capacity_ = N;
  }
  // Takes `other`'s elements (its heap block, or moves of its inline ones);
  // this one is empty and inline.
  void TakeFrom(InlineVector& other) {
    if (other.data_ != other.inline_data()) {
      data_ = other.data_;
      capacity_ = other.capacity_;
      size_ = other.size_;
      other.data_ = other.inline_data();
      other.capacity_ = N;
      other.size_ = 0;
      return;
    }
    std::uninitialized_move(other.data_, other.data_ + other.size_, data_);
    size_ = other.size_;
    other.clear();
  }
  void AppendCopies(const InlineVector& other) {
    reserve(other.size_);
    for (const T& value : other) emplace_back(value);
  }

  static_assert(N > 0, "an InlineVector keeps at least one element inline");
  alignas(T) std::byte inline_[N * sizeof(T)];
  T* data_ = inline_data();
  size_t size_ = 0;
  size_t capacity_ = N;
};

}  // namespace plugrt

#endif  // PLUGRT_COMMON_INLINE_VECTOR_H_
