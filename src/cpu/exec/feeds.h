// plugrt CPU executor: the data behind stablehlo.infeed and stablehlo.outfeed.
// PJRT has no infeed or outfeed API, so only runs that bring their own
// queues have feeds: the conformance corpus' interpreter.run_parallel, whose
// `infeed = [@f, ...]` functions produce the infeed entries in order.
#ifndef PLUGRT_CPU_EXEC_FEEDS_H_
#define PLUGRT_CPU_EXEC_FEEDS_H_

#include <deque>
#include <mutex>
#include <vector>

#include "cpu/exec/value.h"

namespace plugrt::cpu {

// Shared by the processes of one run; thread-safe through `mu`.
struct FeedQueues {
  std::mutex mu;
  // Each infeed op takes the front entry: the values it returns (without
  // its token).
  std::deque<std::vector<RtValue>> infeed;
  // What outfeed ops wrote, in the order they ran.
  std::vector<std::vector<RtValue>> outfeed;
};

}  // namespace plugrt::cpu

#endif  // PLUGRT_CPU_EXEC_FEEDS_H_
