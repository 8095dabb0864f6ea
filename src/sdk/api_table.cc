// BuildApi, the PJRT_Api table, the error and plugin entries, and the slots
// the sdk interfaces cannot express.
#include <cstring>
#include <mutex>
#include <type_traits>

#include "sdk/api_args.h"
#include "sdk/api_slots.h"
#include "sdk/host_callbacks.h"
#include "sdk/plugin.h"

namespace plugrt::sdk {
namespace {

// Everything BuildApi creates; allocated once and kept for the process.
struct ApiState {
  std::unique_ptr<Plugin> plugin;
  PJRT_Api api;
  std::once_flag initialize_once;
  Status initialize_status;
  std::once_flag attributes_once;
  std::unique_ptr<NamedValueArray> attributes;
};

std::mutex g_build_mu;
ApiState* g_state = nullptr;

// The void entries cannot report errors; bad arguments are ignored.
void ErrorDestroy(PJRT_Error_Destroy_Args* args) {
  PJRT_Error* error = Run(args, [](PJRT_Error_Destroy_Args& a, const Call&) -> Status {
    delete a.error;
    return OkStatus();
  });
  delete error;
}

void ErrorMessage(PJRT_Error_Message_Args* args) {
  PJRT_Error* error = Run(args, [](PJRT_Error_Message_Args& a, const Call& call) -> Status {
    PLUGRT_RETURN_IF_ERROR(call.NotNull(a.error, "error"));
    a.message = a.error->status.message().c_str();
    a.message_size = a.error->status.message().size();
    return OkStatus();
  });
  delete error;
}

PJRT_Error* ErrorGetCode(PJRT_Error_GetCode_Args* args) {
  return Run(args, [](PJRT_Error_GetCode_Args& a, const Call& call) -> Status {
    PLUGRT_RETURN_IF_ERROR(call.NotNull(a.error, "error"));
    a.code = static_cast<PJRT_Error_Code>(a.error->status.code());
    return OkStatus();
  });
}

PJRT_Error* PluginInitialize(PJRT_Plugin_Initialize_Args* args) {
  return Run(args, [](PJRT_Plugin_Initialize_Args&, const Call& call) -> Status {
    // call_once rethrows and retries if the body throws; catch inside so the
    // first outcome, whatever it is, is the answer for every later call.
    std::call_once(g_state->initialize_once, [&call] {
      try {
        g_state->initialize_status = g_state->plugin->Initialize();
      } catch (const std::exception& e) {
        g_state->initialize_status =
            Internal(call.fn(), ": the plugin threw an exception: ", e.what());
      } catch (...) {
        g_state->initialize_status = Internal(call.fn(), ": the plugin threw an exception");
      }
    });
    return g_state->initialize_status;
  });
}

PJRT_Error* PluginAttributes(PJRT_Plugin_Attributes_Args* args) {
  return Run(args, [](PJRT_Plugin_Attributes_Args& a, const Call&) -> Status {
    std::call_once(g_state->attributes_once, [] {
      g_state->attributes = std::make_unique<NamedValueArray>(g_state->plugin->attributes());
    });
    a.attributes = g_state->attributes->data();
    a.num_attributes = g_state->attributes->size();
    return OkStatus();
  });
}

// A slot no Fill*Slots filled answers UNIMPLEMENTED naming the function
// (after the argument checks every entry makes). The two void entries
// (PJRT_Error_Destroy/Message) are always filled above.
template <typename Args, typename Fn>
void FillIfEmpty(Fn*& slot) {
  if constexpr (std::is_same_v<Fn, PJRT_Error*(Args*)>) {
    if (slot == nullptr) slot = NotImplemented<Args>;
  }
}

void FillUnimplementedSlots(PJRT_Api& api) {
#define PLUGRT_FILL_IF_EMPTY_(Name, last, null_handle) FillIfEmpty<Name##_Args>(api.Name);
  PLUGRT_PJRT_FUNCTIONS(PLUGRT_FILL_IF_EMPTY_)
#undef PLUGRT_FILL_IF_EMPTY_
}

}  // namespace

Plugin& CurrentPlugin() { return *g_state->plugin; }

const PJRT_Api* BuildApi(std::unique_ptr<Plugin> plugin) {
  try {
    std::lock_guard<std::mutex> lock(g_build_mu);
    if (g_state != nullptr) return &g_state->api;
    if (plugin == nullptr) return nullptr;
    // Intentionally never freed: the table must outlive every caller.
    auto* state = new ApiState;
    state->plugin = std::move(plugin);
    PJRT_Api& api = state->api;
    std::memset(static_cast<void*>(&api), 0, sizeof(api));
    api.struct_size = PJRT_Api_STRUCT_SIZE;
    api.extension_start = state->plugin->extensions();
    api.pjrt_api_version.struct_size = PJRT_Api_Version_STRUCT_SIZE;
    api.pjrt_api_version.extension_start = nullptr;
    api.pjrt_api_version.major_version = PJRT_API_MAJOR;
    api.pjrt_api_version.minor_version = PJRT_API_MINOR;

    api.PJRT_Error_Destroy = ErrorDestroy;
    api.PJRT_Error_Message = ErrorMessage;
    api.PJRT_Error_GetCode = ErrorGetCode;
    api.PJRT_Plugin_Initialize = PluginInitialize;
    api.PJRT_Plugin_Attributes = PluginAttributes;
    FillEventSlots(api);
    FillClientSlots(api);
    FillDeviceSlots(api);
    FillBufferSlots(api);
    FillExecutableSlots(api);
    FillTopologySlots(api);
    FillStreamSlots(api);
    FillUnimplementedSlots(api);
    g_state = state;
    return &g_state->api;
  } catch (...) {
    return nullptr;  // out of memory while building: no table
  }
}

}  // namespace plugrt::sdk
