#include "kernels_abi/kernel_api.h"

#include "stablehlo/element_type.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace plugrt::kernels_abi {
namespace {

KernelCallContext& Ctx(PLUGRT_KernelContext* ctx) { return *static_cast<KernelCallContext*>(ctx); }
const KernelCallContext& Ctx(const PLUGRT_KernelContext* ctx) {
  return *static_cast<const KernelCallContext*>(ctx);
}

PLUGRT_Status* Error(StatusCode code, std::string message) {
  return NewKernelStatus(Status(code, std::move(message)));
}

// --- status ---

PLUGRT_Status* StatusNew(PLUGRT_KernelCode code, const char* message) {
  auto* status = new (std::nothrow) PLUGRT_Status;
  if (status == nullptr) return nullptr;
  status->code = code;
  if (message != nullptr) status->message = message;
  return status;
}
void StatusDelete(PLUGRT_Status* status) { delete status; }
PLUGRT_KernelCode StatusCodeOf(const PLUGRT_Status* status) {
  return status == nullptr ? PLUGRT_KernelCode_OK : status->code;
}
const char* StatusMessage(const PLUGRT_Status* status) {
  return status == nullptr ? "" : status->message.c_str();
}

// --- registration ---

PLUGRT_Status* Register(PLUGRT_KernelRegistrar* registrar,
                        const PLUGRT_KernelRegistration* registration) {
  if (registrar == nullptr) {
    return Error(StatusCode::kInvalidArgument, "Register: the registrar is null");
  }
  Status status;
  constexpr size_t kVersionEnd = PLUGRT_KERNEL_STRUCT_SIZE(PLUGRT_KernelRegistration, api_minor);
  // Kernel API 1.0's registration ended at user_data.
  constexpr size_t kOriginalSize = PLUGRT_KERNEL_STRUCT_SIZE(PLUGRT_KernelRegistration, user_data);
  if (registration == nullptr || registration->struct_size < kVersionEnd) {
    status = InvalidArgument("a kernel registration is null or too small to say its version");
  } else if (registration->api_major != PLUGRT_KERNEL_API_MAJOR ||
             registration->api_minor > PLUGRT_KERNEL_API_MINOR) {
    status = FailedPrecondition(
        "built for plugrt kernel API ", registration->api_major, ".", registration->api_minor,
        ", but this runtime implements kernel API ", PLUGRT_KERNEL_API_MAJOR, ".",
        PLUGRT_KERNEL_API_MINOR,
        registration->api_major != PLUGRT_KERNEL_API_MAJOR
            ? " (major versions must match)"
            : " (the plugin needs a runtime of that minor version or newer)");
  } else if (registration->struct_size < kOriginalSize) {
    status = InvalidArgument("a kernel registration has struct_size ", registration->struct_size,
                             "; kernel API ", registration->api_major, ".",
                             registration->api_minor, " needs at least ", kOriginalSize);
  } else if (registration->target == nullptr || *registration->target == '\0' ||
             registration->platform == nullptr) {
    status = InvalidArgument("a kernel registration needs a target name and a platform");
  } else {
    // Fields an older plugin's struct lacks (xla_ffi_handler came with
    // kernel API 1.1, xla_custom_call and flags with 1.2) read as zero; never
    // read past its struct_size.
    PLUGRT_KernelRegistration copy;
    std::memset(&copy, 0, sizeof(copy));
    std::memcpy(&copy, registration, std::min(registration->struct_size, sizeof(copy)));
    const int kinds = (copy.handler != nullptr) + (copy.xla_ffi_handler != nullptr) +
                      (copy.xla_custom_call != nullptr);
    if (kinds != 1) {
      status = InvalidArgument("kernel registration of '", copy.target,
                               "' needs exactly one of a handler, an XLA FFI handler and an "
                               "untyped XLA custom call");
    } else if ((copy.flags & ~uint32_t{PLUGRT_KernelFlag_INLINE_SAFE}) != 0) {
      status = InvalidArgument("kernel registration of '", copy.target, "' has unknown flags (",
                               copy.flags, "); this runtime knows PLUGRT_KernelFlag_INLINE_SAFE");
    } else {
      status = registrar->add(copy);
    }
  }
  if (!status.ok() && registrar->first_error.ok()) registrar->first_error = status;
  return NewKernelStatus(status);
}

// --- the call ---

const char* ContextTarget(const PLUGRT_KernelContext* ctx) {
  return Ctx(ctx).frame.target.data();
}
size_t NumInputs(const PLUGRT_KernelContext* ctx) { return Ctx(ctx).inputs.size(); }
const PLUGRT_KernelInput* Input(const PLUGRT_KernelContext* ctx, size_t i) {
  const auto& inputs = Ctx(ctx).inputs;
  return i < inputs.size() ? &inputs[i] : nullptr;
}
size_t NumOutputs(const PLUGRT_KernelContext* ctx) { return Ctx(ctx).outputs.size(); }
const PLUGRT_KernelOutput* Output(const PLUGRT_KernelContext* ctx, size_t i) {
  const auto& outputs = Ctx(ctx).outputs;
  return i < outputs.size() ? &outputs[i] : nullptr;
}
const char* BackendConfig(const PLUGRT_KernelContext* ctx, size_t* size) {
  const std::string& config = Ctx(ctx).attributes->backend_config();
  if (size != nullptr) *size = config.size();
  return config.c_str();
}
size_t NumAttrs(const PLUGRT_KernelContext* ctx) {
  return Ctx(ctx).attributes->dictionary().size();
}
const PLUGRT_KernelAttr* Attr(const PLUGRT_KernelContext* ctx, size_t i) {
  auto dictionary = Ctx(ctx).attributes->dictionary();
  return i < dictionary.size() ? &dictionary[i] : nullptr;
}
const PLUGRT_KernelAttr* FindAttr(const PLUGRT_KernelContext* ctx, const char* name) {
  if (name == nullptr) return nullptr;
  return Ctx(ctx).attributes->Find(name);
}

// The attribute `name` of one of `kinds`, or an error naming it.
PLUGRT_Status* TypedAttr(const PLUGRT_KernelContext* ctx, const char* name,
                         std::initializer_list<PLUGRT_KernelAttrKind> kinds, const char* wanted,
                         const PLUGRT_KernelAttr** out) {
  const KernelCallContext& context = Ctx(ctx);
  const PLUGRT_KernelAttr* attr = FindAttr(ctx, name);
  if (attr == nullptr) {
    return Error(StatusCode::kNotFound, StrCat("custom call '", context.frame.target,
                                               "' has no attribute '",
                                               name == nullptr ? "" : name, "'"));
  }
  for (PLUGRT_KernelAttrKind kind : kinds) {
    if (attr->kind == kind) {
      *out = attr;
      return nullptr;
    }
  }
  return Error(StatusCode::kInvalidArgument,
               StrCat("custom call '", context.frame.target, "': attribute '", name, "' is not ",
                      wanted));
}

PLUGRT_Status* GetInt(const PLUGRT_KernelContext* ctx, const char* name, int64_t* value) {
  const PLUGRT_KernelAttr* attr = nullptr;
  if (PLUGRT_Status* s = TypedAttr(ctx, name, {PLUGRT_KernelAttr_INT, PLUGRT_KernelAttr_BOOL},
                                   "an integer", &attr)) {
    return s;
  }
  *value = attr->i;
  return nullptr;
}
PLUGRT_Status* GetFloat(const PLUGRT_KernelContext* ctx, const char* name, double* value) {
  const PLUGRT_KernelAttr* attr = nullptr;
  if (PLUGRT_Status* s = TypedAttr(ctx, name, {PLUGRT_KernelAttr_FLOAT, PLUGRT_KernelAttr_INT},
                                   "a number", &attr)) {
    return s;
  }
  *value = attr->kind == PLUGRT_KernelAttr_FLOAT ? attr->f : static_cast<double>(attr->i);
  return nullptr;
}
PLUGRT_Status* GetBool(const PLUGRT_KernelContext* ctx, const char* name, int* value) {
  const PLUGRT_KernelAttr* attr = nullptr;
  if (PLUGRT_Status* s = TypedAttr(ctx, name, {PLUGRT_KernelAttr_BOOL, PLUGRT_KernelAttr_INT},
                                   "a bool", &attr)) {
    return s;
  }
  *value = attr->i != 0 ? 1 : 0;
  return nullptr;
}
PLUGRT_Status* GetString(const PLUGRT_KernelContext* ctx, const char* name, const char** value,
                         size_t* size) {
  const PLUGRT_KernelAttr* attr = nullptr;
  if (PLUGRT_Status* s = TypedAttr(ctx, name, {PLUGRT_KernelAttr_STRING}, "a string", &attr)) {
    return s;
  }
  *value = attr->str;
  if (size != nullptr) *size = attr->str_size;
  return nullptr;
}

void Device(const PLUGRT_KernelContext* ctx, PLUGRT_KernelDevice* device) {
  if (device == nullptr) return;
  const KernelCallContext& context = Ctx(ctx);
  // Fill what the caller's struct has room for.
  PLUGRT_KernelDevice full;
  full.struct_size = sizeof(full);
  full.ordinal = context.frame.device_ordinal;
  full.kind = "cpu";
  full.platform = context.platform.c_str();
  full.replica_id = context.frame.replica_id;
  full.partition_id = context.frame.partition_id;
  const size_t size = std::min(device->struct_size, sizeof(full));
  const size_t caller_size = device->struct_size;
  std::memcpy(device, &full, size);
  device->struct_size = caller_size;
}

PLUGRT_Status* AllocateTemp(PLUGRT_KernelContext* ctx, size_t size, size_t alignment,
                            void** data) {
  KernelCallContext& context = Ctx(ctx);
  if (data == nullptr) return Error(StatusCode::kInvalidArgument, "AllocateTemp: data is null");
  if (alignment == 0) alignment = 64;
  if ((alignment & (alignment - 1)) != 0) {
    return Error(StatusCode::kInvalidArgument,
                 StrCat("AllocateTemp: alignment ", alignment, " is not a power of two"));
  }
  void* memory = ::operator new(size == 0 ? 1 : size, std::align_val_t(alignment), std::nothrow);
  if (memory == nullptr) {
    return Error(StatusCode::kResourceExhausted,
                 StrCat("custom call '", context.frame.target, "': cannot allocate ", size,
                        " bytes of scratch memory"));
  }
  context.temps.push_back({memory, alignment});
  *data = memory;
  return nullptr;
}

void Fail(PLUGRT_KernelContext* ctx, PLUGRT_Status* status) {
  if (status == nullptr) return;
  std::unique_ptr<PLUGRT_Status> owned(status);
  KernelCallContext& context = Ctx(ctx);
  if (context.failure == nullptr) context.failure = std::move(owned);
}

// --- resources ---

PLUGRT_Status* LookupOrCreateResource(PLUGRT_KernelContext* ctx, const char* container,
                                      const char* name, PLUGRT_KernelResourceCreate create,
                                      void* create_arg, PLUGRT_KernelResourceDelete delete_fn,
                                      void** resource) {
  if (container == nullptr || name == nullptr || create == nullptr || resource == nullptr) {
    return Error(StatusCode::kInvalidArgument,
                 "LookupOrCreateResource needs a container, a name, a create function and a "
                 "place for the result");
  }
  KernelCallContext& context = Ctx(ctx);
  auto run_create = [&]() -> StatusOr<void*> {
    PLUGRT_Status* status = nullptr;
    void* object = nullptr;
    try {
      object = create(create_arg, &status);
    } catch (const std::exception& e) {
      delete status;
      return Internal("creating kernel resource '", name, "' threw: ", e.what());
    } catch (...) {
      delete status;
      return Internal("creating kernel resource '", name, "' threw an exception");
    }
    if (object == nullptr) {
      Status error = TakeKernelStatus(status);
      if (error.ok()) {
        error = Internal("creating kernel resource '", name,
                         "' returned null without a status");
      }
      return error;
    }
    TakeKernelStatus(status).IgnoreError();  // a status beside a result: ignored
    return object;
  };
  StatusOr<std::shared_ptr<KernelResource>> found =
      context.resources.LookupOrCreate(container, name, run_create, delete_fn);
  if (!found.ok()) return NewKernelStatus(found.status());
  *resource = (*found)->object();
  context.held.push_back(std::move(*found));
  return nullptr;
}

PLUGRT_Status* DeleteResource(PLUGRT_KernelContext* ctx, const char* container,
                              const char* name) {
  if (container == nullptr || name == nullptr) {
    return Error(StatusCode::kInvalidArgument, "DeleteResource needs a container and a name");
  }
  return NewKernelStatus(Ctx(ctx).resources.Delete(container, name));
}

PLUGRT_KernelApi MakeApi() {
  PLUGRT_KernelApi api;
  std::memset(&api, 0, sizeof(api));
  api.struct_size = PLUGRT_KERNEL_API_STRUCT_SIZE;
  api.major = PLUGRT_KERNEL_API_MAJOR;
  api.minor = PLUGRT_KERNEL_API_MINOR;
  api.Status_New = &StatusNew;
  api.Status_Delete = &StatusDelete;
  api.Status_Code = &StatusCodeOf;
  api.Status_Message = &StatusMessage;
  api.Register = &Register;
  api.Context_Target = &ContextTarget;
  api.Context_NumInputs = &NumInputs;
  api.Context_Input = &Input;
  api.Context_NumOutputs = &NumOutputs;
  api.Context_Output = &Output;
  api.Context_BackendConfig = &BackendConfig;
  api.Context_NumAttrs = &NumAttrs;
  api.Context_Attr = &Attr;
  api.Context_FindAttr = &FindAttr;
  api.Context_GetInt = &GetInt;
  api.Context_GetFloat = &GetFloat;
  api.Context_GetBool = &GetBool;
  api.Context_GetString = &GetString;
  api.Context_Device = &Device;
  api.Context_AllocateTemp = &AllocateTemp;
  api.Context_Fail = &Fail;
  api.Context_LookupOrCreateResource = &LookupOrCreateResource;
  api.Context_DeleteResource = &DeleteResource;
  return api;
}

}  // namespace

const PLUGRT_KernelApi* KernelApi() {
  static const PLUGRT_KernelApi api = MakeApi();
  return &api;
}

PLUGRT_Status* NewKernelStatus(const Status& status) {
  if (status.ok()) return nullptr;
  return StatusNew(static_cast<PLUGRT_KernelCode>(status.code()), status.message().c_str());
}

Status TakeKernelStatus(PLUGRT_Status* status) {
  if (status == nullptr) return OkStatus();
  std::unique_ptr<PLUGRT_Status> owned(status);
  int code = static_cast<int>(owned->code);
  if (code <= 0 || code > static_cast<int>(StatusCode::kUnauthenticated)) {
    // OK or a number outside the table: still a failure.
    return Status(StatusCode::kUnknown,
                  StrCat(owned->message, " (the kernel gave status code ", code, ")"));
  }
  return Status(static_cast<StatusCode>(code), owned->message);
}

namespace {

PLUGRT_KernelType KernelTypeOf(shlo::ElementType type) {
  return static_cast<PLUGRT_KernelType>(shlo::ToPjrtType(type).value_or(PJRT_Buffer_Type_INVALID));
}

}  // namespace

KernelCallContext::KernelCallContext(const CustomCallFrame& frame_in,
                                     const KernelAttributes& attributes_in,
                                     KernelResourceStore& resources_in, std::string_view platform_in)
    : frame(frame_in), attributes(&attributes_in), resources(resources_in), platform(platform_in) {
  struct_size = sizeof(PLUGRT_KernelContext);
  api = KernelApi();
  inputs.reserve(frame.args.size());
  for (const CustomCallBuffer& arg : frame.args) {
    inputs.push_back(PLUGRT_KernelInput{sizeof(PLUGRT_KernelInput), KernelTypeOf(arg.type),
                                        arg.dims.size(), arg.dims.data(), arg.data,
                                        arg.size_in_bytes});
  }
  outputs.reserve(frame.rets.size());
  for (const CustomCallBuffer& ret : frame.rets) {
    outputs.push_back(PLUGRT_KernelOutput{sizeof(PLUGRT_KernelOutput), KernelTypeOf(ret.type),
                                          ret.dims.size(), ret.dims.data(), ret.data,
                                          ret.size_in_bytes});
  }
}

KernelCallContext::~KernelCallContext() {
  for (const Temp& temp : temps) ::operator delete(temp.data, std::align_val_t(temp.alignment));
}

}  // namespace plugrt::kernels_abi
