// plugrt: what running one executable needs in memory, as
// PJRT_Executable_GetCompiledMemoryStats carries it; shared by the SDK (what
// a backend reports) and the client (what a plugin reports).
#ifndef PLUGRT_COMMON_COMPILED_MEMORY_STATS_H_
#define PLUGRT_COMMON_COMPILED_MEMORY_STATS_H_

#include <cstdint>

namespace plugrt {

// Bytes of the default (device) memory; the host_* fields are host memory
// used besides it. peak and total are 0 when the backend gives none.
struct CompiledMemoryStats {
  int64_t generated_code_size_in_bytes = 0;
  int64_t argument_size_in_bytes = 0;
  int64_t output_size_in_bytes = 0;
  int64_t alias_size_in_bytes = 0;  // argument bytes reused as outputs
  int64_t temp_size_in_bytes = 0;
  int64_t host_generated_code_size_in_bytes = 0;
  int64_t host_argument_size_in_bytes = 0;
  int64_t host_output_size_in_bytes = 0;
  int64_t host_alias_size_in_bytes = 0;
  int64_t host_temp_size_in_bytes = 0;
  int64_t peak_memory_in_bytes = 0;
  int64_t total_size_in_bytes = 0;
};

}  // namespace plugrt

#endif  // PLUGRT_COMMON_COMPILED_MEMORY_STATS_H_
