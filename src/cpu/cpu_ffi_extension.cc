// plugrt CPU backend: PJRT's FFI extension (include/plugrt/pjrt_ffi_extension.h),
// the head of the CPU plugin's PJRT extension chain (the profiler's, from
// profiler/plugin_profiler_api.h, follows it). Handlers registered here serve
// `stablehlo.custom_call` ops in programs compiled afterwards by any client of
// the plugin: typed XLA FFI handlers (api_version 1 here) those with
// api_version = 4 (kernels_abi/xla_ffi_handlers.h), untyped functions
// (api_version 0 here) those with api_version 1 to 3
// (kernels_abi/untyped_custom_calls.h).
#include <string_view>

#include "cpu/cpu_plugin.h"
#include "kernels_abi/xla_ffi_api.h"
#include "kernels_abi/untyped_custom_calls.h"
#include "kernels_abi/xla_ffi_handlers.h"
#include "plugrt/pjrt_ffi_extension.h"
#include "profiler/plugin_profiler_api.h"
#include "sdk/api_args.h"

namespace plugrt::cpu {
namespace {

template <typename Args>
Status CheckSize(const char* fn, const Args* args, size_t expected) {
  if (args == nullptr) return InvalidArgument(fn, ": args is null");
  if (args->struct_size < expected) {
    return InvalidArgument(fn, ": struct_size is ", args->struct_size, ", smaller than ", expected);
  }
  return OkStatus();
}

PJRT_Error* TypeIdRegister(PJRT_FFI_TypeID_Register_Args* args) {
  return sdk::Guard("PJRT_FFI_TypeID_Register", [&]() -> Status {
    PLUGRT_RETURN_IF_ERROR(CheckSize("PJRT_FFI_TypeID_Register", args,
                                     PJRT_FFI_TypeID_Register_Args_STRUCT_SIZE));
    if (args->type_name == nullptr && args->type_name_size != 0) {
      return InvalidArgument("PJRT_FFI_TypeID_Register: type_name is null");
    }
    PLUGRT_ASSIGN_OR_RETURN(int64_t id, kernels_abi::RegisterXlaFfiTypeId(
                                            std::string_view(args->type_name, args->type_name_size),
                                            args->type_id));
    args->type_id = id;
    return OkStatus();
  });
}

PJRT_Error* UserDataAdd(PJRT_FFI_UserData_Add_Args* args) {
  return sdk::Guard("PJRT_FFI_UserData_Add", [&]() -> Status {
    PLUGRT_RETURN_IF_ERROR(
        CheckSize("PJRT_FFI_UserData_Add", args, PJRT_FFI_UserData_Add_Args_STRUCT_SIZE));
    if (args->context == nullptr) {
      return InvalidArgument("PJRT_FFI_UserData_Add: context is null");
    }
    if (args->user_data.type_id == 0) {
      return InvalidArgument("PJRT_FFI_UserData_Add: type id 0 is not a registered type "
                             "(PJRT_FFI_TypeID_Register)");
    }
    return args->context->user_data->Add(args->user_data.type_id, args->user_data.data,
                                         args->user_data.deleter);
  });
}

PJRT_Error* RegisterHandler(PJRT_FFI_Register_Handler_Args* args) {
  return sdk::Guard("PJRT_FFI_Register_Handler", [&]() -> Status {
    PLUGRT_RETURN_IF_ERROR(CheckSize("PJRT_FFI_Register_Handler", args,
                                     PJRT_FFI_Register_Handler_Args_STRUCT_SIZE));
    if (args->target_name == nullptr || args->target_name_size == 0) {
      return InvalidArgument("PJRT_FFI_Register_Handler: target_name is empty");
    }
    const std::string_view target(args->target_name, args->target_name_size);
    if (args->platform_name == nullptr || args->platform_name_size == 0) {
      return InvalidArgument("PJRT_FFI_Register_Handler: handler '", target,
                             "': platform_name is empty");
    }
    if (args->api_version != 0 && args->api_version != 1) {
      return InvalidArgument("PJRT_FFI_Register_Handler: handler '", target, "' has api_version ",
                             args->api_version,
                             "; 0 registers an untyped XLA custom call, 1 a typed XLA FFI handler");
    }
    if (args->handler == nullptr) {
      return InvalidArgument("PJRT_FFI_Register_Handler: handler '", target, "' is null");
    }
    const std::string_view platform(args->platform_name, args->platform_name_size);
    if (args->api_version == 0) {
      // XLA's untyped registry: the function's signature comes with each
      // call (the op's api_version 1 to 3), and traits do not apply.
      return kernels_abi::RegisterUntypedCustomCall(target, platform, args->handler);
    }
    XLA_FFI_Handler_Bundle bundle{};
    bundle.execute = reinterpret_cast<XLA_FFI_Handler*>(args->handler);
    return kernels_abi::RegisterXlaFfiHandler(target, platform, bundle,
                                              static_cast<XLA_FFI_Handler_Traits>(args->traits));
  });
}

PJRT_FFI_Extension MakeExtension() {
  PJRT_FFI_Extension extension{};
  extension.base.struct_size = PJRT_FFI_Extension_STRUCT_SIZE;
  extension.base.type = PJRT_Extension_Type_FFI;
  extension.base.next = nullptr;
  extension.type_id_register = &TypeIdRegister;
  extension.user_data_add = &UserDataAdd;
  extension.register_handler = &RegisterHandler;
  return extension;
}

}  // namespace

PJRT_Extension_Base* CpuPlugin::extensions() const {
  // The chain: FFI, then the profiler (profiler/plugin_profiler_api.h).
  static PJRT_Profiler_Extension profiler =
      profiler::MakeProfilerExtension("plugrt CPU plugin", nullptr);
  static PJRT_FFI_Extension extension = [] {
    PJRT_FFI_Extension made = MakeExtension();
    made.base.next = &profiler.base;
    return made;
  }();
  return &extension.base;
}

}  // namespace plugrt::cpu
