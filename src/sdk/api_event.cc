// PJRT_Event_* entries. Events returned by the plugin complete when the
// backend sets them; events made by PJRT_Event_Create complete through
// PJRT_Event_Set. Setting an already completed event is FAILED_PRECONDITION.
#include "sdk/api_args.h"
#include "sdk/api_slots.h"

namespace plugrt::sdk {
namespace {

PJRT_Error* EventDestroy(PJRT_Event_Destroy_Args* args) {
  return Run(args, [](PJRT_Event_Destroy_Args& a, const Call&) -> Status {
    delete a.event;  // never null: pjrt_functions.h lets Run answer null
    return OkStatus();
  });
}

PJRT_Error* EventIsReady(PJRT_Event_IsReady_Args* args) {
  return Run(args, [](PJRT_Event_IsReady_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Event * event, Handle(a.event, call, "event"));
    a.is_ready = event->event->IsReady();
    return OkStatus();
  });
}

// The event's own error is the call's result; it is not an argument error.
PJRT_Error* EventError(PJRT_Event_Error_Args* args) {
  return Run(args, [](PJRT_Event_Error_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Event * event, Handle(a.event, call, "event"));
    if (!event->event->IsReady()) {
      return FailedPrecondition(call.fn(), ": the event is not ready yet");
    }
    return event->event->status();
  });
}

PJRT_Error* EventAwait(PJRT_Event_Await_Args* args) {
  return Run(args, [](PJRT_Event_Await_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Event * event, Handle(a.event, call, "event"));
    return event->event->Await();
  });
}

PJRT_Error* EventOnReady(PJRT_Event_OnReady_Args* args) {
  return Run(args, [](PJRT_Event_OnReady_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Event * event, Handle(a.event, call, "event"));
    PLUGRT_RETURN_IF_ERROR(call.NotNull(reinterpret_cast<const void*>(a.callback), "callback"));
    PJRT_Event_OnReadyCallback callback = a.callback;
    void* user_arg = a.user_arg;
    // The callback owns the PJRT_Error it receives.
    event->event->OnReady([callback, user_arg](const Status& status) {
      callback(ToPjrtError(status), user_arg);
    });
    return OkStatus();
  });
}

PJRT_Error* EventCreate(PJRT_Event_Create_Args* args) {
  return Run(args, [](PJRT_Event_Create_Args& a, const Call&) -> Status {
    PJRT_Event* event = ToPjrtEvent(Event::Create());
    event->settable = true;
    a.event = event;
    return OkStatus();
  });
}

PJRT_Error* EventSet(PJRT_Event_Set_Args* args) {
  return Run(args, [](PJRT_Event_Set_Args& a, const Call& call) -> Status {
    PLUGRT_ASSIGN_OR_RETURN(PJRT_Event * event, Handle(a.event, call, "event"));
    if (!event->settable) {
      return call.Invalid("event was not made by PJRT_Event_Create; only the plugin completes it");
    }
    const int64_t code = RawEnum(a.error_code);
    if (code < PJRT_Error_Code_OK || code > PJRT_Error_Code_UNAUTHENTICATED) {
      return call.Invalid("error_code has the unknown value ", code);
    }
    PLUGRT_RETURN_IF_ERROR(call.Array(a.error_message, a.error_message_size, "error_message"));
    Status status(static_cast<StatusCode>(code),
                  a.error_message ? std::string(a.error_message, a.error_message_size) : "");
    if (!event->event->Set(std::move(status))) {
      return FailedPrecondition(call.fn(), ": the event is already set");
    }
    return OkStatus();
  });
}

}  // namespace

void FillEventSlots(PJRT_Api& api) {
  api.PJRT_Event_Destroy = EventDestroy;
  api.PJRT_Event_IsReady = EventIsReady;
  api.PJRT_Event_Error = EventError;
  api.PJRT_Event_Await = EventAwait;
  api.PJRT_Event_OnReady = EventOnReady;
  api.PJRT_Event_Create = EventCreate;
  api.PJRT_Event_Set = EventSet;
}

}  // namespace plugrt::sdk
