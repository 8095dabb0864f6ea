// plugrt profiler: the files a profile is written as. Every place that
// writes one (the CPU plugin's `profile` option / PLUGRT_PROFILE, `plugrt
// run --profile`, `plugrt bench --profile`, the Python binding) writes the
// same pair: the Chrome trace at the path asked for, and its text summary
// beside it (SummaryPathFor).
#ifndef PLUGRT_PROFILER_PROFILE_FILES_H_
#define PLUGRT_PROFILER_PROFILE_FILES_H_

#include <string>
#include <vector>

#include "common/status.h"
#include "profiler/summary.h"
#include "profiler/trace_event.h"

namespace plugrt::profiler {

// "trace.json" -> "trace.summary.txt"; any other name gets ".summary.txt"
// appended.
std::string SummaryPathFor(const std::string& trace_path);

// "%p" in a path becomes the process id (several processes, one pattern).
std::string ExpandProfilePath(const std::string& path);

struct ProfileFiles {
  std::string trace_json;
  std::string summary_text;
};
ProfileFiles RenderProfile(const std::vector<Trace>& traces, const SummaryOptions& options);

// Renders and writes both files (any filesystem scheme): the trace at
// `trace_path`, the summary at SummaryPathFor(trace_path). Returns the
// summary's text.
StatusOr<std::string> WriteProfileFiles(const std::string& trace_path,
                                        const std::vector<Trace>& traces,
                                        const SummaryOptions& options);

}  // namespace plugrt::profiler

#endif  // PLUGRT_PROFILER_PROFILE_FILES_H_
