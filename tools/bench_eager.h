// plugrt bench: kind=eager workloads. The ops of the program's @main run one
// at a time through the eager layer (src/eager/: each op's program compiled
// once and cached, every op waited for, as a user of eager mode sees it),
// and the same program runs as one compiled (fused) executable, for
// comparison.
#ifndef PLUGRT_TOOLS_BENCH_EAGER_H_
#define PLUGRT_TOOLS_BENCH_EAGER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "client/client.h"
#include "common/status.h"
#include "tools/bench_timing.h"

namespace plugrt::tools {

struct EagerResult {
  int64_t ops = 0;         // eager ops per run of @main's body
  int64_t iterations = 1;  // runs of the body per timed sample
  TimeSummary eager;       // ms per run of the body, op by op
  TimeSummary fused;       // ms per execute of the compiled program
  double eager_vs_fused = 0;  // median eager / median fused
  double fused_compile_ms = 0;
};

// @main's body may hold ops without attributes or regions (elementwise
// ones) whose operands are @main's arguments or earlier results; anything
// else is UNIMPLEMENTED, naming the op. `iterations` > 1: each timed sample
// runs the body that many times in a loop (small ops, where a clock read
// would weigh); the times are per run of the body.
StatusOr<EagerResult> MeasureEager(const Client& client, std::string_view text,
                                   const std::string& path, const RepeatPolicy& policy,
                                   int64_t iterations);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_BENCH_EAGER_H_
