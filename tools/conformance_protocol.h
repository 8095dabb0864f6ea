// plugrt CLI: what `plugrt conformance-file` (one file, in a child process)
// tells `plugrt conformance` (the runner) on its stdout, one line each:
//   plugrt-conformance: sections N         before running anything
//   plugrt-conformance: section K LINE pass
//   plugrt-conformance: section K LINE fail CODE REASON
//   plugrt-conformance: done               after the last section
// K counts from 1; LINE is where the section starts in the file; CODE is a
// status code name (UNIMPLEMENTED marks unsupported features); REASON is the
// first line of the error. A child that stops before "done" crashed or hung
// in the section after the last one it reported.
//
// With --processes, the child reports only the sections holding
// interpreter.run_parallel grids, each run as a job of one process per grid
// member (`conformance-file FILE --member K`, under the launcher); a member
// says "plugrt-conformance: member fail CODE REASON" before it exits 1.
#ifndef PLUGRT_TOOLS_CONFORMANCE_PROTOCOL_H_
#define PLUGRT_TOOLS_CONFORMANCE_PROTOCOL_H_

#include <string_view>

namespace plugrt::tools {

inline constexpr std::string_view kConformancePrefix = "plugrt-conformance: ";
inline constexpr std::string_view kConformanceFileCommand = "conformance-file";
// The op whose grids `--processes` runs as jobs of OS processes.
inline constexpr std::string_view kRunParallelOp = "interpreter.run_parallel";

}  // namespace plugrt::tools

#endif  // PLUGRT_TOOLS_CONFORMANCE_PROTOCOL_H_
