#include "client/call_trace.h"

namespace plugrt {

CallTrace::CallTrace(std::string_view name) {
  if (!profiler::Enabled()) return;
  const uint64_t id = profiler::NewFlowId();
  event_.emplace(profiler::category::kClient, name, id);
  extension_.base.struct_size = PJRT_Profiler_Extension_STRUCT_SIZE;
  extension_.base.type = PJRT_Extension_Type_Profiler;
  extension_.profiler_api = nullptr;  // an argument chain carries only the id
  extension_.traceme_context_id = static_cast<int64_t>(id);
}

PJRT_Extension_Base* CallTrace::Chain(PJRT_Extension_Base* next) {
  if (!active()) return next;
  extension_.base.next = next;
  return &extension_.base;
}

}  // namespace plugrt
