// plugrt bench: compile of one program with the persistent compilation
// cache (the CPU plugin's compilation_cache_dir) cold — an empty cache
// directory: compile, then store the entry — and warm — a new client, as a
// restarted process would create, over a directory holding the entry: load
// it. Timed alternately, each compile on a client of its own (client
// creation is not timed).
#ifndef PLUGRT_TOOLS_BENCH_CACHE_H_
#define PLUGRT_TOOLS_BENCH_CACHE_H_

#include <memory>
#include <string>
#include <string_view>

#include "client/client.h"
#include "client/plugin.h"
#include "common/status.h"
#include "tools/bench_timing.h"

namespace plugrt::tools {

struct CompileCacheResult {
  TimeSummary cold;  // ms per compile into an empty cache
  TimeSummary warm;  // ms per compile served from the cache
  size_t entry_bytes = 0;
  double warm_vs_cold = 0;  // median warm ms / median cold ms
};

// `options` are the bench client's create options; the cache directory is
// added to them (folders under a fresh /tmp directory, removed afterwards).
StatusOr<CompileCacheResult> MeasureCompileCache(std::shared_ptr<Plugin> plugin,
                                                 const ClientOptions& options,
                                                 std::string_view text, const std::string& path,
                                                 const RepeatPolicy& policy);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_BENCH_CACHE_H_
