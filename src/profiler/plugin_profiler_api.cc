#include "profiler/plugin_profiler_api.h"

#include <unistd.h>

#include <cstring>
#include <exception>
#include <new>

#include "common/status.h"
#include "profiler/recorder.h"
#include "profiler/xspace.h"

// The opaque types of the C API.
struct PLUGIN_Profiler {
  plugrt::profiler::Session session;
  std::string collected;  // the last collect_data's bytes
  bool started = false;
};

struct PLUGIN_Profiler_Error {
  plugrt::Status status;
};

namespace plugrt::profiler {

namespace {

std::string& ProcessName() {
  static std::string* name = new std::string;
  return *name;
}

PLUGIN_Profiler_Error* MakeError(Status status) {
  if (status.ok()) return nullptr;
  return new (std::nothrow) PLUGIN_Profiler_Error{std::move(status)};
}

// Runs `body` unless the args are null or too small; every exception becomes
// an error (none may cross the C boundary).
template <typename Args, typename Body>
PLUGIN_Profiler_Error* Guard(const char* fn, Args* args, size_t min_size, Body body) {
  if (args == nullptr) return MakeError(InvalidArgument(fn, ": args is null"));
  if (args->struct_size < min_size) {
    return MakeError(InvalidArgument(fn, ": struct_size is ", args->struct_size,
                                     ", smaller than ", min_size));
  }
  try {
    return MakeError(body(*args));
  } catch (const std::bad_alloc&) {
    return MakeError(ResourceExhausted(fn, ": out of memory"));
  } catch (const std::exception& e) {
    return MakeError(Internal(fn, ": ", e.what()));
  }
}

void ErrorDestroy(PLUGIN_Profiler_Error_Destroy_Args* args) {
  if (args == nullptr || args->struct_size < PLUGIN_Profiler_Error_Destroy_Args_STRUCT_SIZE) return;
  delete args->error;
}

void ErrorMessage(PLUGIN_Profiler_Error_Message_Args* args) {
  if (args == nullptr || args->struct_size < PLUGIN_Profiler_Error_Message_Args_STRUCT_SIZE) return;
  if (args->error == nullptr) {
    args->message = "";
    args->message_size = 0;
    return;
  }
  args->message = args->error->status.message().data();
  args->message_size = args->error->status.message().size();
}

PLUGIN_Profiler_Error* ErrorGetCode(PLUGIN_Profiler_Error_GetCode_Args* args) {
  return Guard("PLUGIN_Profiler_Error_GetCode", args, PLUGIN_Profiler_Error_GetCode_Args_STRUCT_SIZE,
               [](PLUGIN_Profiler_Error_GetCode_Args& a) -> Status {
                 if (a.error == nullptr) return InvalidArgument("PLUGIN_Profiler_Error_GetCode: error is null");
                 a.code = static_cast<int>(a.error->status.code());
                 return OkStatus();
               });
}

Status NeedProfiler(const char* fn, PLUGIN_Profiler* profiler) {
  if (profiler == nullptr) return InvalidArgument(fn, ": profiler is null");
  return OkStatus();
}

PLUGIN_Profiler_Error* Create(PLUGIN_Profiler_Create_Args* args) {
  return Guard("PLUGIN_Profiler_Create", args, PLUGIN_Profiler_Create_Args_STRUCT_SIZE,
               [](PLUGIN_Profiler_Create_Args& a) -> Status {
                 // The options (tensorflow.ProfileOptions) select tracers and
                 // levels; plugrt has one tracer, always on, so none apply.
                 if (a.options == nullptr && a.options_size != 0) {
                   return InvalidArgument("PLUGIN_Profiler_Create: options is null but options_size is ",
                                          a.options_size);
                 }
                 a.profiler = new PLUGIN_Profiler;
                 return OkStatus();
               });
}

PLUGIN_Profiler_Error* Destroy(PLUGIN_Profiler_Destroy_Args* args) {
  return Guard("PLUGIN_Profiler_Destroy", args, PLUGIN_Profiler_Destroy_Args_STRUCT_SIZE,
               [](PLUGIN_Profiler_Destroy_Args& a) -> Status {
                 delete a.profiler;  // null: nothing to do
                 return OkStatus();
               });
}

PLUGIN_Profiler_Error* Start(PLUGIN_Profiler_Start_Args* args) {
  return Guard("PLUGIN_Profiler_Start", args, PLUGIN_Profiler_Start_Args_STRUCT_SIZE,
               [](PLUGIN_Profiler_Start_Args& a) -> Status {
                 PLUGRT_RETURN_IF_ERROR(NeedProfiler("PLUGIN_Profiler_Start", a.profiler));
                 if (a.profiler->session.running()) {
                   return FailedPrecondition("PLUGIN_Profiler_Start: the profiler is already started");
                 }
                 a.profiler->session.Start();
                 a.profiler->started = true;
                 return OkStatus();
               });
}

PLUGIN_Profiler_Error* Stop(PLUGIN_Profiler_Stop_Args* args) {
  return Guard("PLUGIN_Profiler_Stop", args, PLUGIN_Profiler_Stop_Args_STRUCT_SIZE,
               [](PLUGIN_Profiler_Stop_Args& a) -> Status {
                 PLUGRT_RETURN_IF_ERROR(NeedProfiler("PLUGIN_Profiler_Stop", a.profiler));
                 if (!a.profiler->session.running()) {
                   return FailedPrecondition("PLUGIN_Profiler_Stop: the profiler is not started");
                 }
                 a.profiler->session.Stop();
                 return OkStatus();
               });
}

std::string HostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "localhost";
  return name;
}

PLUGIN_Profiler_Error* CollectData(PLUGIN_Profiler_CollectData_Args* args) {
  return Guard("PLUGIN_Profiler_CollectData", args, PLUGIN_Profiler_CollectData_Args_STRUCT_SIZE,
               [](PLUGIN_Profiler_CollectData_Args& a) -> Status {
                 PLUGRT_RETURN_IF_ERROR(NeedProfiler("PLUGIN_Profiler_CollectData", a.profiler));
                 PLUGIN_Profiler& p = *a.profiler;
                 if (a.buffer == nullptr) {
                   if (!p.started) {
                     return FailedPrecondition("PLUGIN_Profiler_CollectData: the profiler was never started");
                   }
                   Trace trace = p.session.Collect();
                   trace.process_name = ProcessName();
                   p.collected = SerializeXSpace(trace, HostName());
                   a.buffer = reinterpret_cast<uint8_t*>(p.collected.data());
                   a.buffer_size_in_bytes = p.collected.size();
                   return OkStatus();
                 }
                 // The caller's own buffer, sized by the first call.
                 if (reinterpret_cast<const char*>(a.buffer) != p.collected.data()) {
                   std::memcpy(a.buffer, p.collected.data(), p.collected.size());
                 }
                 a.buffer_size_in_bytes = p.collected.size();
                 return OkStatus();
               });
}

}  // namespace

const PLUGIN_Profiler_Api* PluginProfilerApi(const std::string& process_name) {
  static const PLUGIN_Profiler_Api* api = [&] {
    ProcessName() = process_name;
    auto* table = new PLUGIN_Profiler_Api{};
    table->struct_size = PLUGIN_Profiler_Api_STRUCT_SIZE;
    table->priv = nullptr;
    table->error_destroy = &ErrorDestroy;
    table->error_message = &ErrorMessage;
    table->error_get_code = &ErrorGetCode;
    table->create = &Create;
    table->destroy = &Destroy;
    table->start = &Start;
    table->stop = &Stop;
    table->collect_data = &CollectData;
    return table;
  }();
  return api;
}

PJRT_Profiler_Extension MakeProfilerExtension(const std::string& process_name,
                                              PJRT_Extension_Base* next) {
  PJRT_Profiler_Extension extension{};
  extension.base.struct_size = PJRT_Profiler_Extension_STRUCT_SIZE;
  extension.base.type = PJRT_Extension_Type_Profiler;
  extension.base.next = next;
  extension.profiler_api = const_cast<PLUGIN_Profiler_Api*>(PluginProfilerApi(process_name));
  extension.traceme_context_id = 0;
  return extension;
}

}  // namespace plugrt::profiler
