// plugrt distributed: byte buffers a collective keeps from one call to the
// next. A fresh block of some MiB faults its pages in one by one as it is
// written, which took longer than the exchange itself (docs/performance.md,
// session 29); a kept one is written in place. Above kKeptBufferBytes a
// buffer is given back after the call instead.
#ifndef PLUGRT_DISTRIBUTED_KEPT_BUFFER_H_
#define PLUGRT_DISTRIBUTED_KEPT_BUFFER_H_

#include <cstddef>
#include <string>

namespace plugrt::distributed {

inline constexpr size_t kKeptBufferBytes = size_t{64} << 20;

// Gives `buffer`'s memory back when it holds more than kKeptBufferBytes.
inline void LetGoIfLarge(std::string& buffer) {
  if (buffer.capacity() > kKeptBufferBytes) std::string().swap(buffer);
}

}  // namespace plugrt::distributed

#endif  // PLUGRT_DISTRIBUTED_KEPT_BUFFER_H_
