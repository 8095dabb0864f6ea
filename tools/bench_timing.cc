#include "tools/bench_timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace plugrt::tools {

long long NowNanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double MillisecondsSince(long long start_ns) {
  return static_cast<double>(NowNanoseconds() - start_ns) * 1e-6;
}

StatusOr<std::vector<double>> TimeRepeated(const RepeatPolicy& policy,
                                           const std::function<StatusOr<double>()>& run) {
  for (int i = 0; i < policy.warmup; ++i) {
    PLUGRT_ASSIGN_OR_RETURN(double ms, run());
    if (policy.progress) policy.progress(true, i + 1, ms);
  }
  std::vector<double> times;
  double total_ms = 0;
  while (true) {
    if (policy.repeats) {
      if (static_cast<int>(times.size()) >= *policy.repeats) break;
    } else {
      const int runs = static_cast<int>(times.size());
      if (runs >= policy.max_runs) break;
      if (runs >= policy.min_runs && total_ms >= policy.min_seconds * 1e3) break;
    }
    PLUGRT_ASSIGN_OR_RETURN(double ms, run());
    times.push_back(ms);
    if (policy.progress) policy.progress(false, static_cast<int>(times.size()), ms);
    total_ms += ms;
  }
  return times;
}

double Percentile(const std::vector<double>& sorted, double p) {
  if (sorted.size() == 1) return sorted[0];
  const double rank = p / 100.0 * static_cast<double>(sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(rank));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = rank - static_cast<double>(below);
  return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}

TimeSummary Summarize(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  TimeSummary summary;
  summary.runs = static_cast<int>(samples.size());
  summary.min = samples.front();
  summary.max = samples.back();
  summary.median = Percentile(samples, 50);
  summary.p10 = Percentile(samples, 10);
  summary.p90 = Percentile(samples, 90);
  return summary;
}

}  // namespace plugrt::tools
