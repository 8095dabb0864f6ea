// plugrt SDK: the one helper every PJRT entry point runs through, and the
// table of what the SDK knows about each ABI struct.
//
// Run(args, body) enforces the ABI's struct-size compatibility rule:
//   - null args                     -> INVALID_ARGUMENT
//   - struct_size < minimum size    -> INVALID_ARGUMENT naming the struct
//   - the caller's first min(struct_size, sizeof) bytes are copied into a
//     zeroed full-size local copy, so fields an older caller lacks read as
//     zero (unset); the body works on that copy;
//   - on success only those same bytes are copied back, so a newer, larger
//     struct is served and an older one is never written past its end;
//   - any exception becomes INTERNAL; nothing crosses the C ABI.
#ifndef PLUGRT_SDK_API_ARGS_H_
#define PLUGRT_SDK_API_ARGS_H_

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "common/status.h"
#include "pjrt_c_api.h"
#include "sdk/handles.h"

namespace plugrt::sdk {

// kName: the struct's ABI name. kMinSize: the smallest struct_size accepted,
// i.e. the struct without fields added after it first appeared (those read as
// zero when the caller lacks them). kFunction: for *_Args, the entry's name.
template <typename T>
struct StructInfo;

#define PLUGRT_STRUCT_SIZE_UP_TO_(T, last) (offsetof(T, last) + sizeof(((T*)nullptr)->last))

#define PLUGRT_DEFINE_STRUCT_INFO_(T, function, min_size)  \
  template <>                                              \
  struct StructInfo<T> {                                   \
    static constexpr const char* kName = #T;               \
    static constexpr const char* kFunction = function;     \
    static constexpr size_t kMinSize = (min_size);         \
  };

// Args whose every field has existed since the function was added.
#define PLUGRT_ARGS(fn) PLUGRT_DEFINE_STRUCT_INFO_(fn##_Args, #fn, fn##_Args_STRUCT_SIZE)
// Args that gained trailing optional fields after `last_original`.
#define PLUGRT_ARGS_UP_TO(fn, last_original) \
  PLUGRT_DEFINE_STRUCT_INFO_(fn##_Args, #fn, PLUGRT_STRUCT_SIZE_UP_TO_(fn##_Args, last_original))
// Nested structs passed by pointer.
#define PLUGRT_NESTED(T) PLUGRT_DEFINE_STRUCT_INFO_(T, #T, T##_STRUCT_SIZE)
#define PLUGRT_NESTED_UP_TO(T, last_original) \
  PLUGRT_DEFINE_STRUCT_INFO_(T, #T, PLUGRT_STRUCT_SIZE_UP_TO_(T, last_original))

// Later additions (from the ABI's changelog): kv_try_get_* (0.61),
// CreateViewOfDeviceBuffer.memory (0.66), DeserializeAndLoad's overridden
// compile options (0.71), ExecuteOptions.non_donatable_* (0.39), .context
// (0.64), .call_location (0.76), task/incarnation ids (0.78),
// Execute_Args.execute_device, GetCompiledMemoryStats' host fields (0.43),
// peak (0.72) and total (0.90). Fields inserted in the middle of a struct
// (BufferFromHostBuffer's memory/device_layout, ToHostBuffer's host_layout)
// cannot be told apart by size: those structs need their full 0.94 size.
PLUGRT_NESTED(PJRT_NamedValue)
PLUGRT_NESTED(PJRT_Program)
PLUGRT_NESTED(PJRT_Buffer_MemoryLayout)
PLUGRT_NESTED(PJRT_Buffer_MemoryLayout_Tiled)
PLUGRT_NESTED(PJRT_Buffer_MemoryLayout_Strides)
PLUGRT_NESTED_UP_TO(PJRT_ExecuteOptions, launch_id)

PLUGRT_ARGS(PJRT_Error_Destroy)
PLUGRT_ARGS(PJRT_Error_Message)
PLUGRT_ARGS(PJRT_Error_GetCode)
PLUGRT_ARGS(PJRT_Plugin_Initialize)
PLUGRT_ARGS(PJRT_Plugin_Attributes)
PLUGRT_ARGS(PJRT_Event_Destroy)
PLUGRT_ARGS(PJRT_Event_IsReady)
PLUGRT_ARGS(PJRT_Event_Error)
PLUGRT_ARGS(PJRT_Event_Await)
PLUGRT_ARGS(PJRT_Event_OnReady)
PLUGRT_ARGS(PJRT_Event_Create)
PLUGRT_ARGS(PJRT_Event_Set)
PLUGRT_ARGS_UP_TO(PJRT_Client_Create, client)
PLUGRT_ARGS(PJRT_Client_Destroy)
PLUGRT_ARGS(PJRT_Client_PlatformName)
PLUGRT_ARGS(PJRT_Client_ProcessIndex)
PLUGRT_ARGS(PJRT_Client_PlatformVersion)
PLUGRT_ARGS(PJRT_Client_TopologyDescription)
PLUGRT_ARGS(PJRT_Client_Devices)
PLUGRT_ARGS(PJRT_Client_AddressableDevices)
PLUGRT_ARGS(PJRT_Client_LookupDevice)
PLUGRT_ARGS(PJRT_Client_LookupAddressableDevice)
PLUGRT_ARGS(PJRT_Client_UpdateGlobalProcessInfo)
PLUGRT_ARGS(PJRT_Client_AddressableMemories)
PLUGRT_ARGS(PJRT_Client_Compile)
PLUGRT_ARGS(PJRT_Client_DefaultDeviceAssignment)
PLUGRT_ARGS(PJRT_Client_DmaMap)
PLUGRT_ARGS(PJRT_Client_DmaUnmap)
PLUGRT_ARGS(PJRT_Client_CreateUninitializedBuffer)
PLUGRT_ARGS(PJRT_Client_CreateErrorBuffer)
PLUGRT_ARGS(PJRT_Client_CreateAliasBuffer)
PLUGRT_ARGS(PJRT_Client_FulfillAliasBuffer)
PLUGRT_ARGS(PJRT_Client_BufferFromHostBuffer)
PLUGRT_ARGS_UP_TO(PJRT_Client_CreateViewOfDeviceBuffer, buffer)
PLUGRT_ARGS(PJRT_Client_CreateBuffersForAsyncHostToDevice)
PLUGRT_ARGS(PJRT_AsyncHostToDeviceTransferManager_Destroy)
PLUGRT_ARGS(PJRT_AsyncHostToDeviceTransferManager_TransferData)
PLUGRT_ARGS(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer)
PLUGRT_ARGS(PJRT_AsyncHostToDeviceTransferManager_Device)
PLUGRT_ARGS(PJRT_AsyncHostToDeviceTransferManager_BufferCount)
PLUGRT_ARGS(PJRT_AsyncHostToDeviceTransferManager_BufferSize)
PLUGRT_ARGS(PJRT_AsyncHostToDeviceTransferManager_SetBufferError)
PLUGRT_ARGS(PJRT_AsyncHostToDeviceTransferManager_AddMetadata)
PLUGRT_ARGS(PJRT_AsyncHostToDeviceTransferManager_TransferLiteral)
PLUGRT_ARGS(PJRT_DeviceDescription_Id)
PLUGRT_ARGS(PJRT_DeviceDescription_ProcessIndex)
PLUGRT_ARGS(PJRT_DeviceDescription_Attributes)
PLUGRT_ARGS(PJRT_DeviceDescription_Kind)
PLUGRT_ARGS(PJRT_DeviceDescription_DebugString)
PLUGRT_ARGS(PJRT_DeviceDescription_ToString)
PLUGRT_ARGS(PJRT_Device_GetDescription)
PLUGRT_ARGS(PJRT_Device_IsAddressable)
PLUGRT_ARGS(PJRT_Device_LocalHardwareId)
PLUGRT_ARGS(PJRT_Device_AddressableMemories)
PLUGRT_ARGS(PJRT_Device_DefaultMemory)
PLUGRT_ARGS(PJRT_Device_MemoryStats)
PLUGRT_ARGS(PJRT_Device_PoisonExecution)
PLUGRT_ARGS(PJRT_Device_GetAttributes)
PLUGRT_ARGS(PJRT_Device_CreateAsyncTrackingEvent)
PLUGRT_ARGS(PJRT_AsyncTrackingEvent_Destroy)
PLUGRT_ARGS(PJRT_Memory_Id)
PLUGRT_ARGS(PJRT_Memory_Kind)
PLUGRT_ARGS(PJRT_Memory_Kind_Id)
PLUGRT_ARGS(PJRT_Memory_DebugString)
PLUGRT_ARGS(PJRT_Memory_ToString)
PLUGRT_ARGS(PJRT_Memory_AddressableByDevices)
PLUGRT_ARGS(PJRT_ExecuteContext_Create)
PLUGRT_ARGS(PJRT_ExecuteContext_Destroy)
PLUGRT_ARGS(PJRT_Executable_Destroy)
PLUGRT_ARGS(PJRT_Executable_Name)
PLUGRT_ARGS(PJRT_Executable_NumReplicas)
PLUGRT_ARGS(PJRT_Executable_NumPartitions)
PLUGRT_ARGS(PJRT_Executable_NumOutputs)
PLUGRT_ARGS(PJRT_Executable_SizeOfGeneratedCodeInBytes)
PLUGRT_ARGS(PJRT_Executable_Fingerprint)
PLUGRT_ARGS(PJRT_Executable_GetCostAnalysis)
PLUGRT_ARGS_UP_TO(PJRT_Executable_GetCompiledMemoryStats, temp_size_in_bytes)
PLUGRT_ARGS(PJRT_Executable_OutputElementTypes)
PLUGRT_ARGS(PJRT_Executable_OutputDimensions)
PLUGRT_ARGS(PJRT_Executable_OutputMemoryKinds)
PLUGRT_ARGS(PJRT_Executable_OptimizedProgram)
PLUGRT_ARGS(PJRT_Executable_Serialize)
PLUGRT_ARGS(PJRT_Executable_GetCompileOptions)
PLUGRT_ARGS_UP_TO(PJRT_Executable_DeserializeAndLoad, loaded_executable)
PLUGRT_ARGS(PJRT_LoadedExecutable_Destroy)
PLUGRT_ARGS(PJRT_LoadedExecutable_GetExecutable)
PLUGRT_ARGS(PJRT_LoadedExecutable_GetDeviceAssignment)
PLUGRT_ARGS(PJRT_LoadedExecutable_AddressableDevices)
PLUGRT_ARGS(PJRT_LoadedExecutable_Delete)
PLUGRT_ARGS(PJRT_LoadedExecutable_IsDeleted)
PLUGRT_ARGS_UP_TO(PJRT_LoadedExecutable_Execute, device_complete_events)
PLUGRT_ARGS(PJRT_LoadedExecutable_Fingerprint)
PLUGRT_ARGS(PJRT_Buffer_Destroy)
PLUGRT_ARGS(PJRT_Buffer_ElementType)
PLUGRT_ARGS(PJRT_Buffer_Dimensions)
PLUGRT_ARGS(PJRT_Buffer_UnpaddedDimensions)
PLUGRT_ARGS(PJRT_Buffer_DynamicDimensionIndices)
PLUGRT_ARGS(PJRT_Buffer_GetMemoryLayout)
PLUGRT_ARGS(PJRT_Buffer_ToHostBuffer)
PLUGRT_ARGS(PJRT_Buffer_OnDeviceSizeInBytes)
PLUGRT_ARGS(PJRT_Buffer_Delete)
PLUGRT_ARGS(PJRT_Buffer_IsDeleted)
PLUGRT_ARGS(PJRT_Buffer_CopyRawToHost)
PLUGRT_ARGS(PJRT_Buffer_CopyRawToHostFuture)
PLUGRT_ARGS(PJRT_Buffer_CopyToDevice)
PLUGRT_ARGS(PJRT_Buffer_CopyToMemory)
PLUGRT_ARGS(PJRT_Buffer_IsOnCpu)
PLUGRT_ARGS(PJRT_Buffer_Device)
PLUGRT_ARGS(PJRT_Buffer_Memory)
PLUGRT_ARGS(PJRT_Buffer_ReadyEvent)
PLUGRT_ARGS(PJRT_Buffer_UnsafePointer)
PLUGRT_ARGS(PJRT_Buffer_IncreaseExternalReferenceCount)
PLUGRT_ARGS(PJRT_Buffer_DecreaseExternalReferenceCount)
PLUGRT_ARGS(PJRT_Buffer_OpaqueDeviceMemoryDataPointer)
PLUGRT_ARGS(PJRT_Buffer_DonateWithControlDependency)
PLUGRT_ARGS(PJRT_CopyToDeviceStream_Destroy)
PLUGRT_ARGS(PJRT_CopyToDeviceStream_AddChunk)
PLUGRT_ARGS(PJRT_CopyToDeviceStream_TotalBytes)
PLUGRT_ARGS(PJRT_CopyToDeviceStream_GranuleSize)
PLUGRT_ARGS(PJRT_CopyToDeviceStream_CurrentBytes)
PLUGRT_ARGS(PJRT_TopologyDescription_Create)
PLUGRT_ARGS(PJRT_TopologyDescription_Destroy)
PLUGRT_ARGS(PJRT_TopologyDescription_PlatformVersion)
PLUGRT_ARGS(PJRT_TopologyDescription_PlatformName)
PLUGRT_ARGS(PJRT_TopologyDescription_GetDeviceDescriptions)
PLUGRT_ARGS(PJRT_TopologyDescription_Serialize)
PLUGRT_ARGS(PJRT_TopologyDescription_Deserialize)
PLUGRT_ARGS(PJRT_TopologyDescription_Attributes)
PLUGRT_ARGS(PJRT_Compile)

// Names fields in errors: "PJRT_Buffer_Dimensions: buffer is null".
class Call {
 public:
  explicit Call(const char* fn) : fn_(fn) {}
  const char* fn() const { return fn_; }

  Status NotNull(const void* p, const char* field) const {
    if (p == nullptr) return InvalidArgument(fn_, ": ", field, " is null");
    return OkStatus();
  }
  // An array pointer may be null only when it has no elements.
  Status Array(const void* p, size_t count, const char* field) const {
    if (p == nullptr && count > 0) {
      return InvalidArgument(fn_, ": ", field, " is null but its size is ", count);
    }
    return OkStatus();
  }
  template <typename... Pieces>
  Status Invalid(const Pieces&... pieces) const {
    return InvalidArgument(fn_, ": ", pieces...);
  }

 private:
  const char* fn_;
};

// Runs `body` and turns its status, or any exception, into a PJRT_Error.
template <typename Body>
PJRT_Error* Guard(const char* fn, Body&& body) noexcept {
  try {
    return ToPjrtError(body());
  } catch (const std::bad_alloc& e) {
    return ToPjrtError(ResourceExhausted(fn, ": out of memory (", e.what(), ")"));
  } catch (const std::exception& e) {
    return ToPjrtError(Internal(fn, ": the plugin threw an exception: ", e.what()));
  } catch (...) {
    return ToPjrtError(Internal(fn, ": the plugin threw an unknown exception"));
  }
}

// The entry-point helper described at the top of this file. `body` is
// `Status(Args& args, const Call& call)`.
template <typename Args, typename Body>
PJRT_Error* Run(Args* caller_args, Body&& body) noexcept {
  using Info = StructInfo<Args>;
  return Guard(Info::kFunction, [&]() -> Status {
    if (caller_args == nullptr) return InvalidArgument(Info::kFunction, ": args is null");
    const size_t declared = caller_args->struct_size;
    if (declared < Info::kMinSize) {
      return InvalidArgument(Info::kName, ".struct_size is ", declared, ", smaller than the ",
                             Info::kMinSize, " bytes of its original fields");
    }
    Args local;
    std::memset(static_cast<void*>(&local), 0, sizeof(Args));
    const size_t known = std::min(declared, sizeof(Args));
    std::memcpy(static_cast<void*>(&local), caller_args, known);
    PLUGRT_RETURN_IF_ERROR(body(local, Call(Info::kFunction)));
    std::memcpy(static_cast<void*>(caller_args), &local, known);
    return OkStatus();
  });
}

// Reads a nested struct the caller passes by pointer, with the same size
// rule as Run. `field` names it in errors ("options", "create_options[3]").
template <typename T>
StatusOr<T> ReadNested(const T* p, const char* fn, const char* field) {
  using Info = StructInfo<T>;
  if (p == nullptr) return InvalidArgument(fn, ": ", field, " is null");
  const size_t declared = p->struct_size;
  if (declared < Info::kMinSize) {
    return InvalidArgument(fn, ": ", field, ": ", Info::kName, ".struct_size is ", declared,
                           ", smaller than the ", Info::kMinSize, " bytes of its original fields");
  }
  T local;
  std::memset(static_cast<void*>(&local), 0, sizeof(T));
  std::memcpy(static_cast<void*>(&local), p, std::min(declared, sizeof(T)));
  return local;
}

// The body of every slot the sdk interfaces cannot express.
template <typename Args>
PJRT_Error* NotImplemented(Args* args) noexcept {
  return Run(args, [](Args&, const Call& call) -> Status {
    return Unimplemented(call.fn(), " is not implemented by this plugin");
  });
}

// The raw value of an enum field set by a caller. C callers may store values
// outside the enum, and loading such a value as the enum type is undefined
// in C++; read the bits, check the range, then convert.
template <typename E>
int64_t RawEnum(const E& field) {
  std::underlying_type_t<E> value;
  std::memcpy(&value, &field, sizeof(value));
  return static_cast<int64_t>(value);
}

// A caller-given handle: INVALID_ARGUMENT naming `field` when null.
template <typename H>
StatusOr<H*> Handle(H* handle, const Call& call, const char* field) {
  if (handle == nullptr) return call.Invalid(field, " is null");
  return handle;
}

}  // namespace plugrt::sdk

#endif  // PLUGRT_SDK_API_ARGS_H_
