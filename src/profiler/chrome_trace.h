// plugrt profiler: a trace as Chrome trace-event JSON, which Perfetto
// (ui.perfetto.dev) and chrome://tracing open. One process per Trace (the
// CPU plugin's, the client's), one track per thread, each event a complete
// ("X") slice with its stats as args, and a flow arrow from each execute to
// each of its kernels (events sharing its flow_id).
#ifndef PLUGRT_PROFILER_CHROME_TRACE_H_
#define PLUGRT_PROFILER_CHROME_TRACE_H_

#include <string>
#include <vector>

#include "profiler/trace_event.h"

namespace plugrt::profiler {

// The JSON object {"traceEvents": [...], "displayTimeUnit": "ns"} for the
// traces, each shown as its own process (pid 1, 2, ...).
std::string ChromeTraceJson(const std::vector<Trace>& traces);

// Escapes `text` as the inside of a JSON string.
std::string JsonEscape(std::string_view text);

}  // namespace plugrt::profiler

#endif  // PLUGRT_PROFILER_CHROME_TRACE_H_
