// plugrt: one device's memory statistics, as PJRT_Device_MemoryStats carries
// them; shared by the client (what a plugin reports) and the SDK (what a
// backend reports).
#ifndef PLUGRT_COMMON_MEMORY_STATS_H_
#define PLUGRT_COMMON_MEMORY_STATS_H_

#include <cstdint>
#include <optional>

namespace plugrt {

// bytes_in_use is always reported; the optionals are empty where the device
// does not track the value.
struct MemoryStats {
  int64_t bytes_in_use = 0;
  std::optional<int64_t> peak_bytes_in_use;
  std::optional<int64_t> num_allocs;
  std::optional<int64_t> largest_alloc_size;
  std::optional<int64_t> bytes_limit;
  std::optional<int64_t> bytes_reserved;
  std::optional<int64_t> peak_bytes_reserved;
  std::optional<int64_t> bytes_reservable_limit;
  std::optional<int64_t> largest_free_block_bytes;
  std::optional<int64_t> pool_bytes;
  std::optional<int64_t> peak_pool_bytes;
};

}  // namespace plugrt

#endif  // PLUGRT_COMMON_MEMORY_STATS_H_
