#include "client/call_trace.h"

namespace plugrt {

void CallTrace::Begin(std::string_view name) {
  const uint64_t id = profiler::NewFlowId();
  event_.emplace(profiler::category::kClient, name, id);
  extension_.base.struct_size = PJRT_Profiler_Extension_STRUCT_SIZE;
  extension_.base.type = PJRT_Extension_Type_Profiler;
  extension_.profiler_api = nullptr;  // an argument chain carries only the id
  extension_.traceme_context_id = static_cast<int64_t>(id);
}

}  // namespace plugrt
