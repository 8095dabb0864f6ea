// plugrt profiler: the PLUGIN_Profiler_Api table (plugrt/profiler_c_api.h)
// over this binary's recorder, for a PJRT plugin to hand out through
// PJRT_Profiler_Extension (plugrt/pjrt_profiler_extension.h). Each
// PLUGIN_Profiler is one Session; collect_data serializes what it saw as an
// XSpace (xspace.h) with one XLine per thread.
#ifndef PLUGRT_PROFILER_PLUGIN_PROFILER_API_H_
#define PLUGRT_PROFILER_PLUGIN_PROFILER_API_H_

#include <string>

#include "plugrt/pjrt_profiler_extension.h"

namespace plugrt::profiler {

// The table; `process_name` names the plugin's process in the traces it
// hands out ("plugrt CPU plugin"). One table per binary; the first call's
// name stays.
const PLUGIN_Profiler_Api* PluginProfilerApi(const std::string& process_name);

// A PJRT_Profiler_Extension for a plugin's PJRT_Api chain, over that table,
// linked to `next`.
PJRT_Profiler_Extension MakeProfilerExtension(const std::string& process_name,
                                              PJRT_Extension_Base* next);

}  // namespace plugrt::profiler

#endif  // PLUGRT_PROFILER_PLUGIN_PROFILER_API_H_
