#include "tools/profile_output.h"

#include <algorithm>

namespace plugrt::tools {

profiler::Ceilings SummaryCeilings(const std::vector<CeilingResult>& ceilings) {
  profiler::Ceilings out;
  for (const CeilingResult& c : ceilings) {
    if (!c.unavailable.empty()) continue;
    if (c.kind == CeilingKind::kSgemm && c.gflops) out.gflops = std::max(out.gflops, *c.gflops);
    if (c.kind == CeilingKind::kBandwidth && c.name == "copy" && c.gbps) out.gbps = *c.gbps;
  }
  return out;
}

StatusOr<profiler::Ceilings> MeasureSummaryCeilings(int threads) {
  CeilingSelection selection;
  selection.sgemm = true;
  selection.bandwidth = true;
  RepeatPolicy policy;
  policy.warmup = 1;
  policy.repeats = 3;
  PLUGRT_ASSIGN_OR_RETURN(std::vector<CeilingResult> measured,
                          MeasureCeilings(selection, threads, policy));
  return SummaryCeilings(measured);
}

StatusOr<std::string> WriteProfile(ProfilerSession& session, const std::string& trace_path,
                                   const profiler::Ceilings& ceilings) {
  PLUGRT_RETURN_IF_ERROR(session.Stop());
  profiler::SummaryOptions options;
  options.ceilings = ceilings;
  return session.WriteFiles(trace_path, options);
}

}  // namespace plugrt::tools
