// plugrt bench: how many times to time something, and the statistics of the
// times.
#ifndef PLUGRT_TOOLS_BENCH_TIMING_H_
#define PLUGRT_TOOLS_BENCH_TIMING_H_

#include <functional>
#include <optional>
#include <vector>

#include "common/status.h"

namespace plugrt::tools {

// `repeats` set: exactly that many timed runs. Unset (auto): runs until at
// least `min_runs` runs and `min_seconds` of timed runs, but no more than
// `max_runs`. `warmup` untimed runs come first.
struct RepeatPolicy {
  std::optional<int> repeats;
  int warmup = 2;
  int min_runs = 5;
  double min_seconds = 1.0;
  int max_runs = 50;
  // Called after each run when set: whether it was a warm-up, its number
  // (from 1) and its milliseconds (a progress display).
  std::function<void(bool warmup, int run, double ms)> progress;
};

// Runs `run` as `policy` says; each call returns the milliseconds it took
// (the caller decides what is inside the timed region) or an error, which
// stops the loop. The timed runs' milliseconds, in order.
StatusOr<std::vector<double>> TimeRepeated(const RepeatPolicy& policy,
                                           const std::function<StatusOr<double>()>& run);

// Milliseconds since `start` of the steady clock, from a raw reading.
double MillisecondsSince(long long start_ns);
long long NowNanoseconds();

struct TimeSummary {
  double median = 0, min = 0, max = 0, p10 = 0, p90 = 0;
  int runs = 0;
};

// Percentile `p` (0..100) of `sorted` (ascending, not empty), interpolating
// linearly between the closest ranks, as NumPy's default does.
double Percentile(const std::vector<double>& sorted, double p);

// Median, extremes and 10th/90th percentiles of `samples` (not empty).
TimeSummary Summarize(std::vector<double> samples);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_BENCH_TIMING_H_
