#include "client/profiler_session.h"

#include "client/plugin.h"
#include "common/extension_chain.h"
#include "plugrt/pjrt_profiler_extension.h"
#include "profiler/profile_files.h"
#include "profiler/xspace.h"

namespace plugrt {

namespace {

// The plugin's profiler table, or null when its chain has none usable.
const PLUGIN_Profiler_Api* FindProfilerApi(const PJRT_Api* api) {
  if (api == nullptr) return nullptr;
  const auto* extension = reinterpret_cast<const PJRT_Profiler_Extension*>(FindExtension(
      api->extension_start, PJRT_Extension_Type_Profiler, PJRT_Profiler_Extension_STRUCT_SIZE));
  if (extension == nullptr || extension->profiler_api == nullptr) return nullptr;
  const PLUGIN_Profiler_Api* table = extension->profiler_api;
  if (table->struct_size < PLUGIN_Profiler_Api_STRUCT_SIZE || table->create == nullptr ||
      table->destroy == nullptr || table->start == nullptr || table->stop == nullptr ||
      table->collect_data == nullptr || table->error_destroy == nullptr ||
      table->error_message == nullptr || table->error_get_code == nullptr) {
    return nullptr;
  }
  return table;
}

}  // namespace

Status ProfilerSession::PluginError(void* raw) const {
  auto* error = static_cast<PLUGIN_Profiler_Error*>(raw);
  if (error == nullptr) return OkStatus();
  PLUGIN_Profiler_Error_Message_Args message{};
  message.struct_size = PLUGIN_Profiler_Error_Message_Args_STRUCT_SIZE;
  message.error = error;
  profiler_api_->error_message(&message);
  PLUGIN_Profiler_Error_GetCode_Args code{};
  code.struct_size = PLUGIN_Profiler_Error_GetCode_Args_STRUCT_SIZE;
  code.error = error;
  PLUGIN_Profiler_Error* code_error = profiler_api_->error_get_code(&code);
  StatusCode status_code = StatusCode::kUnknown;
  if (code_error == nullptr && code.code > 0 && code.code <= 16) {
    status_code = static_cast<StatusCode>(code.code);
  }
  Status status(status_code, StrCat("plugin profiler: ",
                                    std::string_view(message.message == nullptr ? "" : message.message,
                                                     message.message == nullptr ? 0 : message.message_size)));
  PLUGIN_Profiler_Error_Destroy_Args destroy{};
  destroy.struct_size = PLUGIN_Profiler_Error_Destroy_Args_STRUCT_SIZE;
  destroy.error = error;
  profiler_api_->error_destroy(&destroy);
  if (code_error != nullptr) {
    destroy.error = code_error;
    profiler_api_->error_destroy(&destroy);
  }
  return status;
}

StatusOr<std::unique_ptr<ProfilerSession>> ProfilerSession::Start(const Plugin* plugin) {
  auto session = std::unique_ptr<ProfilerSession>(new ProfilerSession());
  if (plugin != nullptr) {
    session->api_ = plugin->api();
    session->profiler_api_ = FindProfilerApi(session->api_);
  }
  if (session->profiler_api_ != nullptr) {
    PLUGIN_Profiler_Create_Args create{};
    create.struct_size = PLUGIN_Profiler_Create_Args_STRUCT_SIZE;
    create.options = nullptr;  // no tensorflow.ProfileOptions: the plugin's defaults
    create.options_size = 0;
    PLUGRT_RETURN_IF_ERROR(session->PluginError(session->profiler_api_->create(&create)));
    if (create.profiler == nullptr) return Internal("plugin profiler: create returned no profiler");
    session->plugin_profiler_ = create.profiler;
    PLUGIN_Profiler_Start_Args start{};
    start.struct_size = PLUGIN_Profiler_Start_Args_STRUCT_SIZE;
    start.profiler = session->plugin_profiler_;
    PLUGRT_RETURN_IF_ERROR(session->PluginError(session->profiler_api_->start(&start)));
  }
  session->local_.Start();
  return session;
}

ProfilerSession::~ProfilerSession() {
  if (!stopped_) (void)Stop();
  if (plugin_profiler_ != nullptr) {
    PLUGIN_Profiler_Destroy_Args destroy{};
    destroy.struct_size = PLUGIN_Profiler_Destroy_Args_STRUCT_SIZE;
    destroy.profiler = plugin_profiler_;
    (void)PluginError(profiler_api_->destroy(&destroy));
  }
}

Status ProfilerSession::Stop() {
  if (stopped_) return OkStatus();
  stopped_ = true;
  local_.Stop();
  if (plugin_profiler_ == nullptr) return OkStatus();
  PLUGIN_Profiler_Stop_Args stop{};
  stop.struct_size = PLUGIN_Profiler_Stop_Args_STRUCT_SIZE;
  stop.profiler = plugin_profiler_;
  return PluginError(profiler_api_->stop(&stop));
}

StatusOr<std::vector<profiler::Trace>> ProfilerSession::Collect() {
  std::vector<profiler::Trace> traces;
  if (plugin_profiler_ != nullptr) {
    // The plugin keeps the bytes; a second call copies them into ours.
    PLUGIN_Profiler_CollectData_Args collect{};
    collect.struct_size = PLUGIN_Profiler_CollectData_Args_STRUCT_SIZE;
    collect.profiler = plugin_profiler_;
    collect.buffer = nullptr;
    PLUGRT_RETURN_IF_ERROR(PluginError(profiler_api_->collect_data(&collect)));
    std::string bytes(collect.buffer_size_in_bytes, '\0');
    if (!bytes.empty()) {
      collect.buffer = reinterpret_cast<uint8_t*>(bytes.data());
      PLUGRT_RETURN_IF_ERROR(PluginError(profiler_api_->collect_data(&collect)));
    }
    PLUGRT_ASSIGN_OR_RETURN(profiler::Trace plugin_trace, profiler::ParseXSpace(bytes));
    if (plugin_trace.process_name.empty()) plugin_trace.process_name = "PJRT plugin";
    traces.push_back(std::move(plugin_trace));
  }
  profiler::Trace local = local_.Collect();
  local.process_name = "plugrt client";
  traces.push_back(std::move(local));
  return traces;
}

StatusOr<std::string> ProfilerSession::WriteFiles(const std::string& trace_path,
                                                  const profiler::SummaryOptions& options) {
  PLUGRT_ASSIGN_OR_RETURN(std::vector<profiler::Trace> traces, Collect());
  return profiler::WriteProfileFiles(trace_path, traces, options);
}

}  // namespace plugrt
