// plugrt client: one profile of what a program does, on both sides of the
// PJRT boundary. Start() starts the client's own recorder (client calls,
// eager ops) and, when the plugin has PJRT's profiler extension
// (plugrt/pjrt_profiler_extension.h), a PLUGIN_Profiler in the plugin; Stop()
// stops both; Collect() returns the plugin's trace (its XSpace decoded) and
// the client's. A plugin without the extension gives the client's trace
// alone, and plugin_profiled() says so.
//
//   PLUGRT_ASSIGN_OR_RETURN(auto session, ProfilerSession::Start(client.plugin()));
//   ... compile, execute ...
//   PLUGRT_RETURN_IF_ERROR(session->Stop());
//   PLUGRT_RETURN_IF_ERROR(session->WriteFiles("trace.json", {}));
#ifndef PLUGRT_CLIENT_PROFILER_SESSION_H_
#define PLUGRT_CLIENT_PROFILER_SESSION_H_

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "profiler/recorder.h"
#include "profiler/summary.h"
#include "profiler/trace_event.h"

struct PJRT_Api;
struct PLUGIN_Profiler;
struct PLUGIN_Profiler_Api;

namespace plugrt {

class Plugin;

class ProfilerSession {
 public:
  // `plugin` may be null: the client's recorder only.
  static StatusOr<std::unique_ptr<ProfilerSession>> Start(const Plugin* plugin);
  ~ProfilerSession();  // stops and frees the plugin's profiler
  ProfilerSession(const ProfilerSession&) = delete;
  ProfilerSession& operator=(const ProfilerSession&) = delete;

  Status Stop();
  // The plugin's trace first (when it was profiled), then the client's.
  StatusOr<std::vector<profiler::Trace>> Collect();
  bool plugin_profiled() const { return plugin_profiler_ != nullptr; }

  // Collects, then writes the Chrome trace to `trace_path` (any filesystem
  // scheme) and the summary beside it (profiler::SummaryPathFor); returns the
  // summary text.
  StatusOr<std::string> WriteFiles(const std::string& trace_path,
                                   const profiler::SummaryOptions& options);

 private:
  ProfilerSession() = default;
  Status PluginError(void* error) const;

  profiler::Session local_;
  const PJRT_Api* api_ = nullptr;
  const PLUGIN_Profiler_Api* profiler_api_ = nullptr;
  PLUGIN_Profiler* plugin_profiler_ = nullptr;
  bool stopped_ = false;
};

}  // namespace plugrt

#endif  // PLUGRT_CLIENT_PROFILER_SESSION_H_
