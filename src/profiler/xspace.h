// plugrt profiler: a Trace as XSpace bytes and back.
//
// XSpace (proto/xplane.proto, wire-compatible with tsl's xplane.proto) is
// what PJRT's profiler extension hands to frameworks: JAX, TensorFlow and
// XProf read it. The mapping:
//
//   XSpace.hostnames   the host name, when given
//   XPlane             one, named "/host:CPU" (kHostPlaneName), holding
//     stats            "process_name" (str_value): Trace::process_name
//                      "dropped_events" (int64_value, when nonzero): Trace::dropped_events
//     lines            one per thread (those of trace.threads, in order, even
//                      without events; then those only events name): id =
//                      display_id = thread_id, name = display_name = the
//                      thread's name, timestamp_ns = the earliest start on
//                      the line, duration_ps = up to the latest end
//       events         in the trace's order; metadata_id -> XEventMetadata
//                      named like the event (one per distinct name);
//                      offset_ps from the line's timestamp_ns, duration_ps
//         stats        each Stat as an XStat (int64_value, double_value or
//                      str_value), then "category" (str_value, when not
//                      empty) and "flow_id" (uint64_value, when nonzero)
//     event_metadata   one per distinct event name, ids from 1
//     stat_metadata    one per distinct stat name, ids from 1
//
// Text goes into proto3 string fields, which hold UTF-8 only: a byte that
// starts no well-formed UTF-8 sequence is written as U+FFFD.
//
// ParseXSpace reads any XSpace: every plane, every line. A line's id is the
// thread id; a line with a name (or else a display name) names its thread.
// Times come back in whole nanoseconds; events are sorted by start time
// (stably: lines in order, then each line's events in order). Stats the
// mapping does not name stay stats, read as int64 (int64_value,
// uint64_value, no value), double, or string (str_value, bytes_value,
// compressed_str_value as its raw bytes, ref_value as the name of the stat
// metadata it points to); an event also gets the stats of its
// XEventMetadata that it does not carry itself. A Stat named "category" or
// "flow_id" does not survive a round trip as a stat: it becomes the event's
// category or flow id. The first plane with a "process_name" stat names the
// process; other plane stats are dropped.
#ifndef PLUGRT_PROFILER_XSPACE_H_
#define PLUGRT_PROFILER_XSPACE_H_

#include <string>
#include <string_view>

#include "common/status.h"
#include "profiler/trace_event.h"

namespace plugrt::profiler {

// The host plane's name, as tsl names it.
inline constexpr std::string_view kHostPlaneName = "/host:CPU";
// Names of the stats the mapping adds.
inline constexpr std::string_view kXStatCategory = "category";
inline constexpr std::string_view kXStatFlowId = "flow_id";
inline constexpr std::string_view kXStatProcessName = "process_name";
inline constexpr std::string_view kXStatDroppedEvents = "dropped_events";

// `trace` as a serialized XSpace; `host_name` ("" for none) goes to
// XSpace.hostnames.
std::string SerializeXSpace(const Trace& trace, std::string_view host_name);

// The inverse. INVALID_ARGUMENT when `bytes` is no XSpace, or when an event
// or stat refers to metadata its plane lacks.
StatusOr<Trace> ParseXSpace(std::string_view bytes);

}  // namespace plugrt::profiler

#endif  // PLUGRT_PROFILER_XSPACE_H_
