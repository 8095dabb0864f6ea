// plugrt CLI: what `run --profile` and `bench --profile` share: the
// ceilings a summary compares against (those `plugrt bench` measures), and
// writing a session's trace and summary.
#ifndef PLUGRT_TOOLS_PROFILE_OUTPUT_H_
#define PLUGRT_TOOLS_PROFILE_OUTPUT_H_

#include <string>
#include <vector>

#include "client/profiler_session.h"
#include "profiler/summary.h"
#include "tools/bench_ceilings.h"

namespace plugrt::tools {

// The best f32 GEMM rate and the copy bandwidth among measured ceilings.
profiler::Ceilings SummaryCeilings(const std::vector<CeilingResult>& ceilings);

// Measures the f32 GEMM and bandwidth ceilings briefly (a couple of runs
// each) with `threads` threads, for a summary's "ceiling" column.
StatusOr<profiler::Ceilings> MeasureSummaryCeilings(int threads);

// Stops `session`, writes the trace to `trace_path` and the summary beside
// it, and returns the summary text.
StatusOr<std::string> WriteProfile(ProfilerSession& session, const std::string& trace_path,
                                   const profiler::Ceilings& ceilings);

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_PROFILE_OUTPUT_H_
