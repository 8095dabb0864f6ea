#include "profiler/profile_files.h"

#include <unistd.h>

#include "filesystem/file_io.h"
#include "profiler/chrome_trace.h"

namespace plugrt::profiler {

std::string SummaryPathFor(const std::string& trace_path) {
  constexpr std::string_view kJson = ".json";
  if (trace_path.size() > kJson.size() &&
      trace_path.compare(trace_path.size() - kJson.size(), kJson.size(), kJson) == 0) {
    return trace_path.substr(0, trace_path.size() - kJson.size()) + ".summary.txt";
  }
  return trace_path + ".summary.txt";
}

std::string ExpandProfilePath(const std::string& path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '%' && i + 1 < path.size() && path[i + 1] == 'p') {
      out += std::to_string(getpid());
      ++i;
    } else {
      out += path[i];
    }
  }
  return out;
}

ProfileFiles RenderProfile(const std::vector<Trace>& traces, const SummaryOptions& options) {
  return ProfileFiles{ChromeTraceJson(traces), FormatSummary(Summarize(traces), options)};
}

StatusOr<std::string> WriteProfileFiles(const std::string& trace_path,
                                        const std::vector<Trace>& traces,
                                        const SummaryOptions& options) {
  ProfileFiles files = RenderProfile(traces, options);
  PLUGRT_RETURN_IF_ERROR(fs::WriteFile(trace_path, files.trace_json));
  PLUGRT_RETURN_IF_ERROR(fs::WriteFile(SummaryPathFor(trace_path), files.summary_text));
  return std::move(files.summary_text);
}

}  // namespace plugrt::profiler
